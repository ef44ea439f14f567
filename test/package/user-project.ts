/**
 * The user's side of the package journey: the files of a fresh Hardhat 2 TypeScript project
 * that installs nativekit from its tarball, and the install command for it.
 *
 * They are strings, not files under test/: this repository's `hardhat test` and `tsc` take every
 * .ts file under test/, and these belong to another project (they import "nativekit/hardhat").
 */

import { hardhat2ConsoleLogFiles } from "./console-log-project";
import { hardhat2StackTraceFiles } from "./stack-trace-project";

/** What the user's project is made of: relative path → content. */
export type ProjectFiles = Record<string, string>;

/** Hardhat's own sample tsconfig for TypeScript projects (module commonjs: node10 resolution). */
export const USER_COMPILER_OPTIONS = {
  target: "es2020",
  module: "commonjs",
  esModuleInterop: true,
  forceConsistentCasingInFileNames: true,
  strict: true,
  skipLibCheck: true,
  resolveJsonModule: true,
} as const;

/** The user's contract: holds one native asset and passes it on (both Hardhat majors' projects). */
export const ASSET_FORWARDER_SOL = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {NativeAssets} from "nativekit/contracts/NativeAssets.sol";
import {WrappedNativeAsset} from "nativekit/contracts/WrappedNativeAsset.sol";

/// Holds one native asset and passes it on: to an account, or into a wrapper's deposit().
contract AssetForwarder {
    uint256 public immutable assetID;

    constructor(uint256 assetID_) {
        assetID = assetID_;
    }

    /// Accepts the asset sent with empty call data through nativeAssetCall.
    receive() external payable {}

    /// This contract's balance of the asset (the nativeAssetBalance precompile).
    function held() external view returns (uint256) {
        return NativeAssets.assetBalance(address(this), assetID);
    }

    /// Sends \`amount\` of the asset to \`to\` (the nativeAssetCall precompile).
    function forward(address to, uint256 amount) external {
        NativeAssets.assetCall(to, assetID, amount, "");
    }

    /// Sends \`amount\` into \`wrapper\` and calls its deposit(): this contract is the depositor.
    function wrap(WrappedNativeAsset wrapper, uint256 amount) external {
        NativeAssets.assetCall(address(wrapper), assetID, amount, abi.encodeCall(WrappedNativeAsset.deposit, ()));
    }
}
`;

export function userProjectFiles(solcVersion: string): ProjectFiles {
  return {
    "package.json": JSON.stringify({ name: "my-native-dapp", version: "1.0.0", private: true, license: "MIT" }, null, 2) + "\n",

    "tsconfig.json": JSON.stringify({ compilerOptions: USER_COMPILER_OPTIONS }, null, 2) + "\n",

    "hardhat.config.ts": `import type { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-toolbox";
import "nativekit/hardhat";

const config: HardhatUserConfig = {
  // The solc version nativekit bundles (the npm solc package): it compiles offline.
  solidity: { version: "${solcVersion}", settings: { evmVersion: "cancun" } },
  nativekit: { loggingEnabled: false },
};

export default config;
`,

    "contracts/AssetForwarder.sol": ASSET_FORWARDER_SOL,

    "test/AssetForwarder.ts": `import { expect } from "chai";
import { ethers, network } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { Addressable } from "ethers";
import { encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "nativekit";

const ASSET = "0x" + "5a".repeat(32); // any 32-byte asset ID

async function deploy() {
  const [alice, bob] = await ethers.getSigners();
  // A test-only power of the nativekit network: alice holds 1000 units of the asset.
  await network.provider.send("nativekit_setAssetBalance", [alice.address, ASSET, ethers.toQuantity(1000n)]);
  const forwarder = await ethers.deployContract("AssetForwarder", [ASSET]);
  const wrapper = await ethers.deployContract("WrappedNativeAsset", ["Wrapped 5A", "W5A", 18, ASSET]);
  return { alice, bob, forwarder, wrapper };
}

/** Sends \`amount\` of the asset from \`from\` to \`to\`: a transaction to the nativeAssetCall precompile. */
async function fund(from: HardhatEthersSigner, to: Addressable, amount: bigint) {
  const data = encodeNativeAssetCallInput({ to: await to.getAddress(), assetId: ASSET, amount });
  return from.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data });
}

describe("AssetForwarder on the nativekit network", function () {
  it("receives the asset through the nativeAssetCall precompile", async function () {
    const { alice, forwarder } = await loadFixture(deploy);
    await expect(fund(alice, forwarder, 600n)).to.changeAssetBalances([alice, forwarder], ASSET, [-600n, 600n]);
    expect(await forwarder.held()).to.equal(600n);
  });

  it("forwards it with NativeAssets.assetCall", async function () {
    const { alice, bob, forwarder } = await loadFixture(deploy);
    await (await fund(alice, forwarder, 600n)).wait();
    await expect(forwarder.forward(bob.address, 250n)).to.changeAssetBalance(bob, ASSET, 250n);
    expect(await forwarder.held()).to.equal(350n);
  });

  it("deposits it into a WrappedNativeAsset, the forwarder as the depositor", async function () {
    const { alice, forwarder, wrapper } = await loadFixture(deploy);
    await (await fund(alice, forwarder, 600n)).wait();
    await expect(forwarder.wrap(wrapper, 100n)).to.changeAssetBalance(wrapper, ASSET, 100n);
    expect(await wrapper.balanceOf(forwarder)).to.equal(100n);
  });
});
`,
    ...hardhat2ConsoleLogFiles(),
    ...hardhat2StackTraceFiles(),
  };
}

/** How many tests the user's project has: `npx hardhat test` must report exactly these passing. */
export const USER_TEST_COUNT = 3 + 1 + 1; // AssetForwarder's, Shouter's (console.log) and the stack traces'.
