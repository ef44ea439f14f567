/**
 * The parts of Hardhat 3's plugin API this plugin uses, as structural types. This repository
 * builds against Hardhat 2 (its devDependency), so Hardhat 3's own declarations are not at hand
 * at compile time; the shapes below are the ones hardhat 3.18 declares (hardhat/types/plugins,
 * hooks, config, network, tasks), reduced to the fields read or written here. The published
 * types of the plugin (src/hardhat/index.d.mts) use Hardhat 3's own declarations.
 */
import type { NativekitConfig, NativekitUserConfig } from "../config";

export interface Hardhat3NetworkUserConfig {
  type?: string;
  url?: unknown;
  [field: string]: unknown;
}

export interface Hardhat3UserConfig {
  networks?: Record<string, Hardhat3NetworkUserConfig>;
  nativekit?: NativekitUserConfig;
  [field: string]: unknown;
}

export interface Hardhat3CompilerConfig {
  type?: string;
  version: string;
  path?: string;
}

/** A compiler as Hardhat 3's build system uses it (hardhat/types/solidity `Compiler`). */
export interface Hardhat3Compiler {
  readonly version: string;
  readonly longVersion: string;
  readonly compilerPath: string;
  readonly isSolcJs: boolean;
  compile(input: unknown): Promise<unknown>;
}

export interface Hardhat3ResolvedConfig {
  paths: { root: string; cache: string; artifacts?: string };
  solidity?: {
    profiles: Record<string, { compilers: Hardhat3CompilerConfig[]; overrides: Record<string, Hardhat3CompilerConfig> }>;
    npmFilesToBuild?: string[];
  };
  nativekit: Hardhat3NativekitConfig;
  [field: string]: unknown;
}

/** The resolved `nativekit` config, with the names of the networks this plugin answers in process. */
export interface Hardhat3NativekitConfig extends NativekitConfig {
  inProcessNetworks: string[];
}

export interface ConfigValidationError {
  path: Array<string | number>;
  message: string;
}

export interface HookContext {
  config: Hardhat3ResolvedConfig;
  /** Hardhat's hook manager (always there in Hardhat; a unit test's context may leave it out). */
  hooks?: Hardhat3HookManager;
}

/** A gas measurement, as Hardhat 3's gas analytics (`--gas-stats`) takes it from its network hook. */
export type GasMeasurement =
  | { type: "function"; contractFqn: string; functionSig: string; gas: number; proxyChain: string[] }
  | { type: "deployment"; contractFqn: string; gas: number; runtimeSize: number };

/**
 * What the plugin asks of Hardhat's hook manager: whether `--coverage` and `--gas-stats` listen
 * (they register the network hooks `onCoverageData` and `onGasMeasurement`), and running those
 * hooks' handlers with what a chain observed, as Hardhat's own network does.
 */
export interface Hardhat3HookManager {
  hasHandlers(category: "network", hook: "onCoverageData" | "onGasMeasurement"): Promise<boolean>;
  runParallelHandlers(category: "network", hook: "onCoverageData", params: [tags: string[]]): Promise<unknown[]>;
  runParallelHandlers(category: "network", hook: "onGasMeasurement", params: [measurement: GasMeasurement]): Promise<unknown[]>;
}

/**
 * Running the network hooks' handler chains, as Hardhat's network manager does for a connection
 * it creates: every plugin's handler in turn, then `defaultImplementation` at the end of the chain.
 */
export interface Hardhat3NetworkHookChains {
  runHandlerChain(
    category: "network",
    hook: "newConnection",
    params: [],
    defaultImplementation: (context: HookContext) => Promise<NetworkConnection>,
  ): Promise<NetworkConnection>;
  runHandlerChain(
    category: "network",
    hook: "onRequest",
    params: [connection: NetworkConnection, request: JsonRpcRequest],
    defaultImplementation: (context: HookContext, connection: NetworkConnection, request: JsonRpcRequest) => Promise<JsonRpcResponse>,
  ): Promise<JsonRpcResponse>;
  runHandlerChain(
    category: "network",
    hook: "closeConnection",
    params: [connection: NetworkConnection],
    defaultImplementation: (context: HookContext, connection: NetworkConnection) => Promise<void>,
  ): Promise<void>;
}

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: number | string;
  method: string;
  params?: unknown[] | object;
}

export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: number | string | null; result: unknown }
  | { jsonrpc: "2.0"; id: number | string | null; error: { code: number; message: string; data?: unknown } };

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
}

export interface NetworkConnection {
  id: number;
  networkName: string;
  /** The chain type the connection was made for ("generic", "l1", "op"). */
  chainType?: string;
  /** The connection's resolved network config (its `type`: "http" or "edr-simulated"). */
  networkConfig?: { type?: string; [field: string]: unknown };
  provider: Eip1193Provider;
  close(): Promise<void>;
}

export interface ConfigHooks {
  extendUserConfig(config: Hardhat3UserConfig, next: (config: Hardhat3UserConfig) => Promise<Hardhat3UserConfig>): Promise<Hardhat3UserConfig>;
  validateUserConfig(config: Hardhat3UserConfig): Promise<ConfigValidationError[]>;
  resolveUserConfig(
    userConfig: Hardhat3UserConfig,
    resolveConfigurationVariable: unknown,
    next: (userConfig: Hardhat3UserConfig, resolveConfigurationVariable: unknown) => Promise<Hardhat3ResolvedConfig>,
  ): Promise<Hardhat3ResolvedConfig>;
}

export interface SolidityHooks {
  getCompiler(context: HookContext, config: Hardhat3CompilerConfig, next: (context: HookContext, config: Hardhat3CompilerConfig) => Promise<Hardhat3Compiler>): Promise<Hardhat3Compiler>;
}

export interface NetworkHooks {
  newConnection(context: HookContext, next: (context: HookContext) => Promise<NetworkConnection>): Promise<NetworkConnection>;
  onRequest(
    context: HookContext,
    connection: NetworkConnection,
    request: JsonRpcRequest,
    next: (context: HookContext, connection: NetworkConnection, request: JsonRpcRequest) => Promise<JsonRpcResponse>,
  ): Promise<JsonRpcResponse>;
  closeConnection(context: HookContext, connection: NetworkConnection, next: (context: HookContext, connection: NetworkConnection) => Promise<void>): Promise<void>;
}

/** What `network.create()` and `network.getOrCreate()` take (hardhat/types/network). */
export interface NetworkConnectionParams {
  network?: string;
  chainType?: string;
  override?: Record<string, unknown>;
}

/** Hardhat 3's `hre.network` (hardhat/types/network `NetworkManager`), as far as this plugin calls it. */
export interface Hardhat3NetworkManager {
  create(networkOrParams?: string | NetworkConnectionParams): Promise<NetworkConnection>;
  getOrCreate(networkOrParams?: string | NetworkConnectionParams): Promise<NetworkConnection>;
}

/** A network's resolved config, as far as choosing who connects it needs. */
export interface Hardhat3NetworkConfig {
  type?: string;
  chainType?: string;
  [field: string]: unknown;
}

/** What the `hre` hooks read of the runtime environment Hardhat has just created. */
export interface CreatedRuntime {
  config: Hardhat3ResolvedConfig & { networks?: Record<string, Hardhat3NetworkConfig>; defaultChainType?: string };
  /** `--network` (Hardhat 3.18 declares it a string; empty or absent when not given). */
  globalOptions: { network?: string };
  /** Set by Hardhat's own `created` handler, which runs before any plugin's. */
  network?: Hardhat3NetworkManager;
}

export interface HardhatRuntimeEnvironmentHooks {
  created(context: HookContext & { hooks?: Hardhat3NetworkHookChains }, hre: CreatedRuntime): Promise<void>;
}

/** What a task's action receives of the runtime environment. */
export interface Hardhat3Runtime {
  config: Hardhat3ResolvedConfig;
  network: { create(): Promise<NetworkConnection> };
  artifacts: { readArtifact(name: string): Promise<{ abi: unknown[]; bytecode: string }> };
}

export type TaskAction = (args: Record<string, unknown>, hre: Hardhat3Runtime) => Promise<unknown>;

export interface TaskBuilder {
  addOption(option: { name: string; description?: string; type?: string; defaultValue?: unknown }): TaskBuilder;
  setAction(action: () => Promise<{ default: TaskAction }>): TaskBuilder;
  build(): unknown;
}

/** What the ESM entry (index.mjs) hands over from Hardhat 3's own modules and the project's chai. */
export interface Hardhat3Modules {
  task(id: string, description: string): TaskBuilder;
  /** hardhat/types/arguments' ArgumentType (its values are the type names). */
  argumentTypes: { STRING: string; INT: string; STRING_WITHOUT_DEFAULT: string };
  /** hardhat/plugins' HardhatPluginError. */
  pluginError: new (pluginId: string, message: string) => Error;
  /** Imports the project's chai (ESM from chai 5 on), or undefined when it has none. */
  importChai(): Promise<ChaiLike | undefined>;
}

export interface ChaiLike {
  use(plugin: (chai: never, utils: never) => void): unknown;
}

export interface Hardhat3Plugin {
  id: string;
  npmPackage: string;
  hookHandlers: {
    config: () => Promise<{ default: () => Promise<Partial<ConfigHooks>> }>;
    network: () => Promise<{ default: () => Promise<Partial<NetworkHooks>> }>;
    hre: () => Promise<{ default: () => Promise<Partial<HardhatRuntimeEnvironmentHooks>> }>;
    solidity: () => Promise<{ default: () => Promise<Partial<SolidityHooks>> }>;
  };
  tasks: unknown[];
}
