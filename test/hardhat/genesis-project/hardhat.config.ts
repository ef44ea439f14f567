// A project whose config names a genesis file for `npx hardhat nativekit:node` (see node-task.test.ts).
import "../../../src/hardhat";
import type { HardhatUserConfig } from "hardhat/config";

const config: HardhatUserConfig = {
  nativekit: { genesisFile: "genesis.json" },
};

export default config;
