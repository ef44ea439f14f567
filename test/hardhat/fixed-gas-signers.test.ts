import { expect } from "chai";
import { lazyObject } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment } from "hardhat/types";

import { useFixedGasSigners } from "../../src/hardhat/fixed-gas-signers";

interface TestSigner {
  _gasLimit?: number;
}

/** An hre whose `ethers` is a Hardhat lazy object (as hardhat-ethers makes it) over signer getters. */
function hreWithLazyEthers(): { hre: HardhatRuntimeEnvironment; signers: TestSigner[] } {
  const signers: TestSigner[] = [{}, {}, {}, {}];
  const ethers = lazyObject(() => ({
    getSigners: async () => [signers[0]],
    getSigner: async () => signers[1],
    getImpersonatedSigner: async () => signers[2],
    provider: { getSigner: async () => signers[3] },
  }));
  return { hre: { ethers } as unknown as HardhatRuntimeEnvironment, signers };
}

type SignerGetters = {
  getSigners(): Promise<TestSigner[]>;
  getSigner(address: string): Promise<TestSigner>;
  getImpersonatedSigner(address: string): Promise<TestSigner>;
  provider: { getSigner(): Promise<TestSigner> };
};

describe("the nativekit network's fixed-gas signers", () => {
  it("give every signer hre.ethers hands out the network's gas limit", async () => {
    const { hre, signers } = hreWithLazyEthers();
    useFixedGasSigners(hre, 1_234_567);
    const ethers = (hre as unknown as { ethers: SignerGetters }).ethers;
    await ethers.getSigners();
    await ethers.getSigner("0x0000000000000000000000000000000000000001");
    await ethers.getImpersonatedSigner("0x0000000000000000000000000000000000000002");
    await ethers.provider.getSigner();
    expect(signers.map((s) => s._gasLimit)).to.deep.equal([1_234_567, 1_234_567, 1_234_567, 1_234_567]);
  });

  it("keep a gas limit a signer already has", async () => {
    const { hre, signers } = hreWithLazyEthers();
    signers[0]!._gasLimit = 30_000;
    useFixedGasSigners(hre, 1_234_567);
    await (hre as unknown as { ethers: SignerGetters }).ethers.getSigners();
    expect(signers[0]!._gasLimit).to.equal(30_000);
  });

  it("read hre.ethers without formatting a stack trace (Hardhat's lazy object formats one on every property get)", () => {
    const { hre } = hreWithLazyEthers();
    const previous = Error.prepareStackTrace;
    let formatted = 0;
    Error.prepareStackTrace = (error, frames) => {
      formatted++;
      return previous !== undefined ? previous(error, frames) : String(error);
    };
    try {
      useFixedGasSigners(hre, 1_234_567);
    } finally {
      Error.prepareStackTrace = previous;
    }
    expect(formatted).to.equal(0);
  });
});
