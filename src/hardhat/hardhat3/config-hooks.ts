/**
 * Hardhat 3's config hooks: the `nativekit` network (an `http` network nothing connects to: the
 * network hooks answer its requests in process), the `nativekit` config key checked and
 * resolved, the bundled solc-js compiler given to every build profile that asks for its version
 * (so compiling needs no download), and WrappedNativeAsset built from the package, so tests,
 * tasks and the Ignition module can deploy it by name.
 */
import path from "node:path";
import { IN_PROCESS_URL, NATIVEKIT_NETWORK, resolveNativekitConfig } from "../config";
import { solcjsCompilerPath, solcjsVersion } from "../solc-bundle";
import type { ConfigHooks, Hardhat3CompilerConfig, Hardhat3ResolvedConfig, Hardhat3UserConfig } from "./types";

/** The package's own contract Hardhat 3 builds into the project's artifacts. */
export const WRAPPED_NATIVE_ASSET_SOURCE = "nativekit/contracts/WrappedNativeAsset.sol";

/** The network the plugin adds unless the config defines one of that name. */
export function nativekitNetworkUserConfig(): { type: "http"; url: string; accounts: "remote" } {
  return { type: "http", url: IN_PROCESS_URL, accounts: "remote" };
}

export async function extendUserConfig(config: Hardhat3UserConfig, next: (config: Hardhat3UserConfig) => Promise<Hardhat3UserConfig>): Promise<Hardhat3UserConfig> {
  const extended = await next(config);
  if (extended.networks?.[NATIVEKIT_NETWORK] !== undefined) return extended;
  return { ...extended, networks: { ...extended.networks, [NATIVEKIT_NETWORK]: nativekitNetworkUserConfig() } };
}

export async function validateUserConfig(config: Hardhat3UserConfig): Promise<Array<{ path: Array<string | number>; message: string }>> {
  try {
    resolveNativekitConfig(config.nativekit);
    return [];
  } catch (error) {
    return [{ path: ["nativekit"], message: (error as Error).message }];
  }
}

/** Every compiler of every profile (overrides included) that is the bundled version gets its path. */
function useBundledCompiler(resolved: Hardhat3ResolvedConfig): void {
  const version = solcjsVersion();
  const compilers = Object.values(resolved.solidity?.profiles ?? {}).flatMap((profile) => [...profile.compilers, ...Object.values(profile.overrides)]);
  const isBundled = (compiler: Hardhat3CompilerConfig) => (compiler.type === undefined || compiler.type === "solc") && compiler.version === version && compiler.path === undefined;
  for (const compiler of compilers.filter(isBundled)) compiler.path = solcjsCompilerPath();
}

/** Networks whose URL is the in-process placeholder: the one added here, or one the user defined so. */
function inProcessNetworks(userConfig: Hardhat3UserConfig): string[] {
  return Object.entries(userConfig.networks ?? {})
    .filter(([, network]) => network.type === "http" && network.url === IN_PROCESS_URL)
    .map(([name]) => name);
}

export async function resolveUserConfig(
  userConfig: Hardhat3UserConfig,
  resolveConfigurationVariable: unknown,
  next: (userConfig: Hardhat3UserConfig, resolveConfigurationVariable: unknown) => Promise<Hardhat3ResolvedConfig>,
): Promise<Hardhat3ResolvedConfig> {
  const resolved = await next(userConfig, resolveConfigurationVariable);
  const nativekit = resolveNativekitConfig(userConfig.nativekit);
  const forking = nativekit.engine.forking;
  if (forking !== undefined && forking.cacheDir === undefined) forking.cacheDir = path.join(resolved.paths.cache, "nativekit-fork");
  useBundledCompiler(resolved);
  const npmFiles = resolved.solidity?.npmFilesToBuild;
  if (npmFiles !== undefined && !npmFiles.includes(WRAPPED_NATIVE_ASSET_SOURCE)) npmFiles.push(WRAPPED_NATIVE_ASSET_SOURCE);
  return { ...resolved, nativekit: { ...nativekit, inProcessNetworks: inProcessNetworks(userConfig) } };
}

export default async (): Promise<Partial<ConfigHooks>> => ({ extendUserConfig, validateUserConfig, resolveUserConfig });
