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
import { runCoverageOnNativekit } from "./coverage";
import { useFixedGasSigners } from "./fixed-gas-signers";
import { reportGasInProcess } from "./gas-reporter";
import { placeEngine } from "./provider-placement";

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
  const isPlaceholder = (candidate: unknown) => (candidate as { url?: unknown }).url === IN_PROCESS_URL;
  return placeEngine(provider, isPlaceholder, new NativeHardhatProvider(config.nativekit, config.paths.artifacts, config.paths.cache));
});

extendEnvironment((hre) => {
  if (hre.network.name !== NATIVEKIT_NETWORK) return;
  // As on Hardhat's own network, a transaction without a gas limit gets a fixed one instead of
  // an eth_estimateGas round first (option `gas`; "auto" estimates).
  useFixedGasSigners(hre, () => hre.network.config.gas);
  if ((hre.network.config as Partial<HttpNetworkConfig>).url !== IN_PROCESS_URL) return;
  // The toolbox's coverage and gas reports, on the in-process network as on Hardhat's.
  runCoverageOnNativekit(hre);
  reportGasInProcess(hre);
});

registerChaiMatchers();

export { NATIVEKIT_NETWORK } from "./config";
export type { NativekitUserConfig } from "./config";
export { NativeHardhatProvider } from "./provider";
export { assertAssetBalanceChanges } from "./asset-assertions";
export type { ExpectedAssetChange, Eip1193Requester, TransactionHashSubject } from "./asset-assertions";
export { solcjsVersion } from "./solc-bundle";
