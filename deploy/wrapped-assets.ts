import type { WrapperSpec } from "../src/deploy/wrapper-deployment";

/**
 * The wrappers this project deploys. `npx hardhat run deploy/deploy-wrappers.ts [--network X]`
 * deploys each one that the network does not have yet and records it in deployments/<network>/.
 */
export const wrappedAssets: WrapperSpec[] = [
  {
    key: "demo",
    name: "Wrapped Demo Asset",
    symbol: "WDEMO",
    decimals: 6,
    // The demo asset every test account holds on the in-process network (hardhat.config.ts).
    assetId: "0x" + "a1".repeat(32),
  },
];
