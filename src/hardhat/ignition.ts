/**
 * An Ignition module that deploys a WrappedNativeAsset (`nativekit/ignition`), for Hardhat 3 and
 * Hardhat 2 projects alike:
 *
 *   import WrappedNativeAssetModule from "nativekit/ignition";
 *   const { wrapper } = await ignition.deploy(WrappedNativeAssetModule, {
 *     parameters: { WrappedNativeAsset: { name: "Wrapped AVAX", symbol: "WAVAX", assetId: "0x…" } },
 *   });
 *
 * or from the command line, with a parameters file: `npx hardhat ignition deploy
 * node_modules/nativekit/dist/src/hardhat/ignition.js --parameters params.json`.
 *
 * Parameters: `name`, `symbol`, `assetId` (the asset's 32-byte ID as 0x hex or a uint256
 * decimal string) and `decimals` (default 18). The artifact comes from the project's build: the
 * Hardhat 3 plugin adds WrappedNativeAsset to every build; a Hardhat 2 project imports
 * nativekit/contracts/WrappedNativeAsset.sol from one of its contracts.
 */
import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

const WrappedNativeAssetModule = buildModule("WrappedNativeAsset", (m) => {
  const wrapper = m.contract("WrappedNativeAsset", [
    m.getParameter<string>("name"),
    m.getParameter<string>("symbol"),
    m.getParameter<number>("decimals", 18),
    m.getParameter<string>("assetId"),
  ]);
  return { wrapper };
});

export = WrappedNativeAssetModule;
