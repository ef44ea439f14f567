/**
 * The suite benchmark's Hardhat config: the repository's own settings, with the plugin loaded
 * the way a user's project loads it — `import "nativekit/hardhat"`, the package's compiled
 * `dist/` (the package refers to itself by name) — instead of the repository config's
 * `./src/hardhat`, which ts-node would transpile at the start of every run, a cost no user pays.
 *
 * Both networks run with this config, so both pay for the plugin's import. The paths are the
 * repository's, so the compilation cache is shared with `hardhat compile` there.
 */
import * as path from "node:path";

import "@nomicfoundation/hardhat-toolbox";
import type { HardhatUserConfig } from "hardhat/config";
import "nativekit/hardhat";

const config: HardhatUserConfig = {
  // The solc-js build the package ships (nativekit/hardhat compiles with it offline).
  solidity: {
    version: (require("solc/package.json") as { version: string }).version,
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" },
  },
  nativekit: {
    assetBalances: [0, 1, 2, 3, 4].map((account) => ({ account, assetId: "0x" + "a1".repeat(32), amount: 1_000_000n })),
  },
  paths: { root: path.join(__dirname, "..", "..") },
  typechain: { outDir: "typechain-types", target: "ethers-v6" },
  mocha: { timeout: 60_000 },
};

export default config;
