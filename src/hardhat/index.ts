/**
 * nativekit's Hardhat plugin. One line in hardhat.config.ts:
 *
 *   import "nativekit/hardhat";
 *
 * adds the in-process `nativekit` network (the faithful contract-chain simulator) and makes it
 * the default network unless the config names another one, plus the nativekit:* tasks and the
 * changeAssetBalance(s) chai matchers.
 */
import path from "node:path";
import { extendConfig, extendEnvironment, extendProvider } from "hardhat/config";
import type { HttpNetworkConfig } from "hardhat/types";
import "./type-extensions";
import { IN_PROCESS_URL, NATIVEKIT_NETWORK, resolveNativekitConfig } from "./config";
import { NativeHardhatProvider } from "./provider";
import "./solcjs";
import "./tasks";
// The side-effect import keeps the matchers' type declarations (changeAssetBalance) in the
// published .d.ts, so a user's TypeScript knows them.
import "./matchers";
import { registerChaiMatchers } from "./matchers";
import { useFixedGasSigners } from "./fixed-gas-signers";

extendConfig((config, userConfig) => {
  config.nativekit = resolveNativekitConfig(userConfig.nativekit);
  const forking = config.nativekit.engine.forking;
  if (forking !== undefined && forking.cacheDir === undefined) forking.cacheDir = path.join(config.paths.cache, "nativekit-fork");
  if (userConfig.networks?.[NATIVEKIT_NETWORK] === undefined) {
    const network = {
      url: IN_PROCESS_URL,
      accounts: "remote",
      gas: config.nativekit.gas,
      gasPrice: "auto",
      gasMultiplier: 1,
      httpHeaders: {},
      timeout: 20_000,
      // A fork's chain ID is the remote's, known once the network starts.
      chainId: config.nativekit.engine.chainId ?? (forking?.enabled !== false && forking !== undefined ? undefined : 43112),
    } as HttpNetworkConfig; // other plugins' fields (e.g. ignition) take their defaults
    config.networks[NATIVEKIT_NETWORK] = network;
  }
  if (userConfig.defaultNetwork === undefined && config.nativekit.defaultNetwork) config.defaultNetwork = NATIVEKIT_NETWORK;
});

extendProvider((provider, config, network) => {
  const networkConfig = config.networks[network] as Partial<HttpNetworkConfig> | undefined;
  if (network !== NATIVEKIT_NETWORK || networkConfig?.url !== IN_PROCESS_URL) return provider;
  return new NativeHardhatProvider(config.nativekit);
});

// As on Hardhat's own network, a transaction without a gas limit gets a fixed one instead of an
// eth_estimateGas round first (option `gas`; "auto" estimates).
extendEnvironment((hre) => {
  if (hre.network.name === NATIVEKIT_NETWORK && typeof hre.network.config.gas === "number") useFixedGasSigners(hre, hre.network.config.gas);
});

registerChaiMatchers();

export { NATIVEKIT_NETWORK } from "./config";
export type { NativekitUserConfig } from "./config";
export { NativeHardhatProvider } from "./provider";
export { assertAssetBalanceChanges } from "./asset-assertions";
export type { ExpectedAssetChange, Eip1193Requester, TransactionHashSubject } from "./asset-assertions";
export { solcjsVersion } from "./solc-bundle";
