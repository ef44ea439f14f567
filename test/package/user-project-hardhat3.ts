/**
 * The user's side of the package journey's Hardhat 3 projects: the files written over Hardhat
 * 3's own templates (mocha + ethers, node:test + viem), as a user follows the README. Strings,
 * not files under test/, for the reason given in user-project.ts.
 */
import { ASSET_FORWARDER_SOL, type ProjectFiles } from "./user-project";
import { hardhat3ConsoleLogFiles } from "./console-log-project";
import { hardhat3StackTraceFiles } from "./stack-trace-project";
import type { Hardhat3Template } from "./hardhat3-project";

function hardhatConfig(toolbox: string, toolboxName: string, solcVersion: string): string {
  return `import ${toolboxName} from "${toolbox}";
import nativekit from "nativekit/hardhat";
import { defineConfig } from "hardhat/config";

export default defineConfig({
  plugins: [${toolboxName}, nativekit],
  // The solc version nativekit bundles (the npm solc package): it compiles offline.
  solidity: { version: "${solcVersion}", settings: { evmVersion: "cancun" } },
  nativekit: { loggingEnabled: false },
});
`;
}

const MOCHA_ETHERS_TEST = `import { expect } from "chai";
import { network } from "hardhat";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { Addressable } from "ethers";
import { encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "nativekit";
import WrappedNativeAssetModule from "nativekit/ignition";

const ASSET = "0x" + "5a".repeat(32); // any 32-byte asset ID
const { ethers, networkHelpers, ignition } = await network.create();

async function deploy() {
  const [alice, bob] = await ethers.getSigners();
  // A test-only power of the nativekit network: alice holds 1000 units of the asset.
  await ethers.provider.send("nativekit_setAssetBalance", [alice.address, ASSET, ethers.toQuantity(1000n)]);
  const forwarder = await ethers.deployContract("AssetForwarder", [ASSET]);
  const wrapper = await ethers.deployContract("WrappedNativeAsset", ["Wrapped 5A", "W5A", 18, ASSET]);
  return { alice, bob, forwarder, wrapper };
}

/** Sends \`amount\` of the asset from \`from\` to \`to\`: a transaction to the nativeAssetCall precompile. */
async function fund(from: HardhatEthersSigner, to: Addressable, amount: bigint) {
  const data = encodeNativeAssetCallInput({ to: await to.getAddress(), assetId: ASSET, amount });
  return from.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data });
}

describe("AssetForwarder on the nativekit network (Hardhat 3)", function () {
  it("receives the asset through the nativeAssetCall precompile", async function () {
    const { alice, forwarder } = await networkHelpers.loadFixture(deploy);
    await expect(fund(alice, forwarder, 600n)).to.changeAssetBalances(ethers, [alice, forwarder], ASSET, [-600n, 600n]);
    expect(await forwarder.held()).to.equal(600n);
  });

  it("forwards it with NativeAssets.assetCall", async function () {
    const { alice, bob, forwarder } = await networkHelpers.loadFixture(deploy);
    await (await fund(alice, forwarder, 600n)).wait();
    await expect(forwarder.forward(bob.address, 250n)).to.changeAssetBalance(ethers, bob, ASSET, 250n);
    expect(await forwarder.held()).to.equal(350n);
  });

  it("deposits it into a WrappedNativeAsset, the forwarder as the depositor", async function () {
    const { alice, forwarder, wrapper } = await networkHelpers.loadFixture(deploy);
    await (await fund(alice, forwarder, 600n)).wait();
    await expect(forwarder.wrap(wrapper, 100n)).to.changeAssetBalance(ethers, wrapper, ASSET, 100n);
    expect(await wrapper.balanceOf(forwarder)).to.equal(100n);
  });

  it("reverts a forward of more than the forwarder holds", async function () {
    const { bob, forwarder } = await networkHelpers.loadFixture(deploy);
    await expect(forwarder.forward(bob.address, 1n)).to.be.revert(ethers);
  });

  it("moves time and ether as Hardhat's network does", async function () {
    const { alice, bob } = await networkHelpers.loadFixture(deploy);
    const before = await networkHelpers.time.latest();
    await networkHelpers.time.increase(3600);
    expect(await networkHelpers.time.latest()).to.be.greaterThanOrEqual(before + 3600);
    await expect(alice.sendTransaction({ to: bob.address, value: 5n })).to.changeEtherBalances(ethers, [alice, bob], [-5n, 5n]);
  });

  it("deploys a WrappedNativeAsset with nativekit's Ignition module, anew on every fresh chain", async function () {
    // A second connection is a second chain with the same chain ID: nothing of the first's
    // deployment may be taken as done there.
    const other = await network.create();
    for (const chain of [ignition, other.ignition]) {
      const { wrapper } = await chain.deploy(WrappedNativeAssetModule, {
        parameters: { WrappedNativeAsset: { name: "Wrapped 5A", symbol: "W5A", assetId: ASSET } },
      });
      expect(await wrapper.symbol()).to.equal("W5A");
      expect(await wrapper.assetID()).to.equal(BigInt(ASSET));
    }
    await other.close();
  });

  it("wraps for alice, with the events, reasons and token balances the chai matchers read", async function () {
    const { alice, wrapper } = await networkHelpers.loadFixture(deploy);
    const deposit = wrapper.interface.encodeFunctionData("deposit");
    const data = encodeNativeAssetCallInput({ to: await wrapper.getAddress(), assetId: ASSET, amount: 70n, callData: deposit });
    const wrap = alice.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data });
    await expect(wrap).to.emit(wrapper, "Deposit").withArgs(alice.address, 70n);
    await expect(wrapper.withdraw(20n)).to.changeTokenBalance(ethers, wrapper, alice, -20n);
    await expect(wrapper.withdraw(51n)).to.be.revertedWith("Insufficient funds for withdrawal");
  });

  it("impersonates, funds, mines and restores snapshots with the network helpers", async function () {
    const { bob } = await networkHelpers.loadFixture(deploy);
    const stranger = "0x000000000000000000000000000000000000bEEF";
    await networkHelpers.setBalance(stranger, 10n ** 18n);
    await networkHelpers.impersonateAccount(stranger);
    const snapshot = await networkHelpers.takeSnapshot();
    const height = await ethers.provider.getBlockNumber();
    const signer = await ethers.getSigner(stranger);
    await (await signer.sendTransaction({ to: bob.address, value: 1n })).wait();
    await networkHelpers.mine(5);
    expect(await ethers.provider.getBlockNumber()).to.equal(height + 6);
    await snapshot.restore();
    expect(await ethers.provider.getBlockNumber()).to.equal(height);
  });

  it("gives each network.create() a fresh chain of its own", async function () {
    const { alice } = await networkHelpers.loadFixture(deploy);
    const other = await network.create();
    expect(await other.ethers.provider.getBlockNumber()).to.equal(0);
    expect(await other.ethers.provider.send("eth_getAssetBalance", [alice.address, "latest", ASSET])).to.equal("0x0");
    await other.close();
  });
});
`;

const VIEM_TEST = `import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { encodeFunctionData, numberToHex, type Address } from "viem";
import { assertAssetBalanceChanges } from "nativekit/hardhat";
import { encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "nativekit";

const ASSET = \`0x\${"5a".repeat(32)}\` as const;

describe("AssetForwarder on the nativekit network (Hardhat 3, viem)", async function () {
  const { viem } = await network.create();
  const publicClient = await viem.getPublicClient();
  const [alice, bob] = await viem.getWalletClients();
  const testClient = await viem.getTestClient();

  async function deploy() {
    await testClient.request({ method: "nativekit_setAssetBalance" as never, params: [alice.account.address, ASSET, numberToHex(1000n)] as never });
    const forwarder = await viem.deployContract("AssetForwarder", [BigInt(ASSET)]);
    const wrapper = await viem.deployContract("WrappedNativeAsset", ["Wrapped 5A", "W5A", 18, BigInt(ASSET)]);
    return { forwarder, wrapper };
  }

  function fund(to: Address, amount: bigint) {
    return alice.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS as Address, data: encodeNativeAssetCallInput({ to, assetId: ASSET, amount }) as \`0x\${string}\` });
  }

  it("receives the asset through the nativeAssetCall precompile", async function () {
    const { forwarder } = await deploy();
    await assertAssetBalanceChanges(publicClient, fund(forwarder.address, 600n), ASSET, [
      { address: alice.account.address, amount: -600n },
      { address: forwarder.address, amount: 600n },
    ]);
    assert.equal(await forwarder.read.held(), 600n);
  });

  it("deposits it into a WrappedNativeAsset", async function () {
    const { forwarder, wrapper } = await deploy();
    await publicClient.waitForTransactionReceipt({ hash: await fund(forwarder.address, 600n) });
    await assertAssetBalanceChanges(publicClient, forwarder.write.wrap([wrapper.address, 100n]), ASSET, [{ address: wrapper.address, amount: 100n }]);
    assert.equal(await wrapper.read.balanceOf([forwarder.address]), 100n);
  });

  it("mines with viem's test client", async function () {
    const before = await publicClient.getBlockNumber();
    await testClient.mine({ blocks: 3 });
    assert.equal(await publicClient.getBlockNumber(), before + 3n);
  });

  it("reports a wrong change as a failed assertion", async function () {
    const { forwarder } = await deploy();
    await assert.rejects(
      assertAssetBalanceChanges(publicClient, forwarder.write.forward([bob.account.address, 0n]), ASSET, [{ address: bob.account.address, amount: 1n }]),
      /Expected the balances of asset/,
    );
  });

  it("encodes a deposit the wrapper accepts from the precompile", async function () {
    const { wrapper } = await deploy();
    const data = encodeNativeAssetCallInput({
      to: wrapper.address,
      assetId: ASSET,
      amount: 40n,
      callData: encodeFunctionData({ abi: wrapper.abi, functionName: "deposit" }),
    }) as \`0x\${string}\`;
    await assertAssetBalanceChanges(publicClient, alice.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS as Address, data }), ASSET, [{ address: wrapper.address, amount: 40n }]);
    assert.equal(await wrapper.read.balanceOf([alice.account.address]), 40n);
  });
});
`;

/** Files written over each template's own (its Counter contract and test stay, and run too). */
export function hardhat3ProjectFiles(template: Hardhat3Template, solcVersion: string): ProjectFiles {
  if (template === "mocha-ethers") {
    return {
      "hardhat.config.ts": hardhatConfig("@nomicfoundation/hardhat-toolbox-mocha-ethers", "hardhatToolboxMochaEthers", solcVersion),
      "contracts/AssetForwarder.sol": ASSET_FORWARDER_SOL,
      "test/AssetForwarder.ts": MOCHA_ETHERS_TEST,
      ...hardhat3ConsoleLogFiles(),
      ...hardhat3StackTraceFiles(),
    };
  }
  return {
    "hardhat.config.ts": hardhatConfig("@nomicfoundation/hardhat-toolbox-viem", "hardhatToolboxViem", solcVersion),
    "contracts/AssetForwarder.sol": ASSET_FORWARDER_SOL,
    "test/AssetForwarder.ts": VIEM_TEST,
  };
}

/** Tests each project must report passing: ours plus the template's two Counter tests. */
export const HARDHAT3_TEST_COUNTS: Record<Hardhat3Template, number> = { "mocha-ethers": 9 + 2 + 1 + 1, "node-test-runner-viem": 5 + 2 }; // mocha-ethers: + Shouter's (console.log) and the stack traces'.
