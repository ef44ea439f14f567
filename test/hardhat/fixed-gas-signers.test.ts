import { expect } from "chai";
import { lazyObject } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment } from "hardhat/types";

import { useFixedGasSigners } from "../../src/hardhat/fixed-gas-signers";

interface TestSigner {
  _gasLimit?: number;
}

type SignerGetters = {
  getSigners(): Promise<TestSigner[]>;
  getSigner(address: string): Promise<TestSigner>;
  getImpersonatedSigner(address: string): Promise<TestSigner>;
  provider: { getSigner(): Promise<TestSigner> };
};

/** hardhat-ethers' `hre.ethers`: a Hardhat lazy object over signer getters, and how often it was made. */
function lazyEthers(): { ethers: SignerGetters; signers: TestSigner[]; made: () => number } {
  const signers: TestSigner[] = [{}, {}, {}, {}];
  let made = 0;
  const ethers = lazyObject(() => {
    made++;
    return {
      getSigners: async () => [signers[0]!],
      getSigner: async () => signers[1]!,
      getImpersonatedSigner: async () => signers[2]!,
      provider: { getSigner: async () => signers[3]! },
    };
  });
  return { ethers, signers, made: () => made };
}

function hreWith(ethers: SignerGetters | undefined): HardhatRuntimeEnvironment {
  return (ethers === undefined ? {} : { ethers }) as unknown as HardhatRuntimeEnvironment;
}

function ethersOf(hre: HardhatRuntimeEnvironment): SignerGetters {
  return (hre as unknown as { ethers: SignerGetters }).ethers;
}

async function useEverySignerGetter(ethers: SignerGetters): Promise<void> {
  await ethers.getSigners();
  await ethers.getSigner("0x0000000000000000000000000000000000000001");
  await ethers.getImpersonatedSigner("0x0000000000000000000000000000000000000002");
  await ethers.provider.getSigner();
}

describe("the nativekit network's fixed-gas signers", () => {
  it("give every signer hre.ethers hands out the network's gas limit", async () => {
    const { ethers, signers } = lazyEthers();
    const hre = hreWith(ethers);
    useFixedGasSigners(hre, () => 1_234_567);
    await useEverySignerGetter(ethersOf(hre));
    expect(signers.map((s) => s._gasLimit)).to.deep.equal([1_234_567, 1_234_567, 1_234_567, 1_234_567]);
  });

  it("keep a gas limit a signer already has", async () => {
    const { ethers, signers } = lazyEthers();
    signers[0]!._gasLimit = 30_000;
    const hre = hreWith(ethers);
    useFixedGasSigners(hre, () => 1_234_567);
    await ethersOf(hre).getSigners();
    expect(signers[0]!._gasLimit).to.equal(30_000);
  });

  it("leave the signers estimating when the network's gas is \"auto\"", async () => {
    const { ethers, signers } = lazyEthers();
    const hre = hreWith(ethers);
    useFixedGasSigners(hre, () => "auto");
    await useEverySignerGetter(ethersOf(hre));
    expect(signers.map((s) => s._gasLimit)).to.deep.equal([undefined, undefined, undefined, undefined]);
  });

  // hardhat-ethers binds hre.network.provider when hre.ethers is made: hardhat-gas-reporter 1
  // replaces that provider just before the tests, and solidity-coverage sets the network's gas
  // when its task starts.
  it("make hardhat-ethers' object at hre.ethers' first use, not before, and read the gas limit then", async () => {
    const { ethers, signers, made } = lazyEthers();
    const hre = hreWith(ethers);
    let networkGas = 15_000_000;
    useFixedGasSigners(hre, () => networkGas);
    Object.entries(hre); // Hardhat injects the environment's properties into globals before each task
    expect(made()).to.equal(0);
    networkGas = 16_777_216;
    await ethersOf(hre).getSigners();
    expect(made()).to.equal(1);
    expect(signers[0]!._gasLimit).to.equal(16_777_216);
  });

  it("wrap hardhat-ethers' getters when hardhat-ethers comes after the plugin, and add no ethers property without it", async () => {
    const { ethers, signers } = lazyEthers();
    const hre = hreWith(undefined);
    useFixedGasSigners(hre, () => 1_234_567);
    expect(Object.keys(hre)).to.deep.equal([]);
    (hre as unknown as { ethers: SignerGetters }).ethers = ethers; // what hardhat-ethers' extension does
    expect(Object.keys(hre)).to.deep.equal(["ethers"]);
    await useEverySignerGetter(ethersOf(hre));
    expect(signers.map((s) => s._gasLimit)).to.deep.equal([1_234_567, 1_234_567, 1_234_567, 1_234_567]);
  });

  it("format no more stack traces at hre.ethers' first use than hardhat-ethers' lazy object alone (its get trap formats one per read)", async () => {
    const formattedDuring = async (use: () => Promise<unknown>) => {
      const previous = Error.prepareStackTrace;
      let formatted = 0;
      Error.prepareStackTrace = (error, frames) => {
        formatted++;
        return previous !== undefined ? previous(error, frames) : String(error);
      };
      try {
        await use();
      } finally {
        Error.prepareStackTrace = previous;
      }
      return formatted;
    };
    const alone = lazyEthers().ethers;
    const hre = hreWith(lazyEthers().ethers);
    useFixedGasSigners(hre, () => 1_234_567);
    const wrapped = ethersOf(hre);
    expect(await formattedDuring(() => wrapped.getSigners())).to.equal(await formattedDuring(() => alone.getSigners()));
  });
});
