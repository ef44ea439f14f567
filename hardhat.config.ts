import "@nomicfoundation/hardhat-toolbox";
import { HardhatUserConfig } from "hardhat/config";
// In a user's project this line is `import "nativekit/hardhat";`: it adds the in-process
// `nativekit` network and makes it the default, so `npx hardhat test` gets the real semantics.
import "./src/hardhat";
import { solcjsVersion } from "./src/hardhat/solcjs";

const config: HardhatUserConfig = {
  solidity: {
    version: solcjsVersion(),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // The contract chain runs the Cancun instruction set.
      evmVersion: "cancun",
    },
    overrides: {
      // Stack traces are tested as users' tests meet them: without the optimizer (Hardhat's
      // default), which merges code of different lines.
      "contracts/test/StackTraces.sol": { version: solcjsVersion(), settings: { evmVersion: "cancun" } },
    },
  },
  nativekit: {
    // Every test account starts with 1 000 000 units of the demo asset.
    assetBalances: [0, 1, 2, 3, 4].map((account) => ({
      account,
      assetId: "0x" + "a1".repeat(32),
      amount: 1_000_000n,
    })),
  },
  networks: {
    // `npx nativekit node` / `npx hardhat nativekit:node` listen here by default.
    local: { url: "http://127.0.0.1:9650/ext/bc/C/rpc" },
  },
  typechain: { outDir: "typechain-types", target: "ethers-v6" },
  mocha: { timeout: 60_000 },
};

export default config;
