import "@nomicfoundation/hardhat-toolbox";
import { HardhatUserConfig } from "hardhat/config";
import { solcjsVersion } from "./src/hardhat/solcjs";

const config: HardhatUserConfig = {
  solidity: {
    version: solcjsVersion(),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // The contract chain runs the Cancun instruction set.
      evmVersion: "cancun",
    },
  },
  typechain: { outDir: "typechain-types", target: "ethers-v6" },
  mocha: { timeout: 60_000 },
};

export default config;
