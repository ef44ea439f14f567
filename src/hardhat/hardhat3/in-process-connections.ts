/**
 * nativekit's own connections to its in-process networks under Hardhat 3.
 *
 * Why: Hardhat 3 knows two kinds of network, and the nativekit network is declared `http`
 * (config-hooks.ts), so Hardhat's network manager gives each of its connections an HTTP provider.
 * That provider loads undici, Hardhat's HTTP client, for a network that never sends a byte: in a
 * test run of the Hardhat 3 suite benchmark that was 0.06–0.07 s of main-thread time before the
 * first test. So `network.create()` and `network.getOrCreate()` of an in-process network are
 * answered here, the way Hardhat's network manager answers them for its own networks:
 * - the connection is built at the end of the `newConnection` handler chain, so every plugin's
 *   handler decorates it as usual (hardhat-ethers' `ethers`, the network helpers, Ignition, viem);
 * - its provider hands each request to the `onRequest` handler chain, where the network hooks
 *   (network-hooks.ts) answer it from the connection's chain, instead of to an HTTP client;
 * - `close()` runs the `closeConnection` handler chain, then closes the provider.
 * Everything else stays with Hardhat's network manager: other networks, config overrides (which
 * Hardhat resolves through every plugin's config hooks), the deprecated `connect()` and
 * `createServer()`. The network hooks answer those connections to an in-process network too,
 * through the HTTP provider, as before.
 */
import { EventEmitter } from "node:events";
import type {
  CreatedRuntime,
  Hardhat3NetworkConfig,
  Hardhat3NetworkHookChains,
  Hardhat3NetworkManager,
  HookContext,
  JsonRpcRequest,
  JsonRpcResponse,
  NetworkConnection,
  NetworkConnectionParams,
} from "./types";

/** The event Hardhat's own providers emit after an `evm_revert` (hardhat's EDR_NETWORK_REVERT_SNAPSHOT_EVENT). */
export const REVERT_SNAPSHOT_EVENT = "hardhatNetworkRevertSnapshot";

/** The network Hardhat connects when neither the call nor `--network` names one (hardhat's DEFAULT_NETWORK_NAME). */
const DEFAULT_NETWORK_NAME = "default";

/**
 * Connection ids of their own, far above the ones Hardhat's network manager counts from 0, so a
 * plugin that keys something by id never sees one id for two connections.
 */
const FIRST_CONNECTION_ID = 1 << 20;

/**
 * A refused request, as Hardhat's providers throw it (hardhat's ProviderError): the JSON-RPC
 * code and data on the error, and the marker Hardhat's JSON-RPC server and error reporting use
 * to tell a provider's refusal from a crash.
 */
export class InProcessProviderError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "ProviderError";
    Object.defineProperty(this, "_isProviderError", { value: true, enumerable: false, writable: false, configurable: false });
  }
}

/** An EIP-1193 provider whose requests go to the `onRequest` handler chain (Hardhat's EthereumProvider shape). */
export class InProcessProvider extends EventEmitter {
  private nextRequestId = 1;
  private closed = false;

  constructor(
    private readonly networkName: string,
    private readonly answer: (request: JsonRpcRequest) => Promise<JsonRpcResponse>,
  ) {
    super();
  }

  async request({ method, params }: { method: string; params?: unknown[] | object }): Promise<unknown> {
    if (this.closed) throw new Error(`The connection to the ${this.networkName} network has been closed: make a new one with network.create().`);
    if (params !== undefined && !Array.isArray(params)) throw new InProcessProviderError(`The params of ${method} must be an array`, -32602);
    const response = await this.answer({ jsonrpc: "2.0", id: this.nextRequestId++, method, params: params ?? [] });
    if ("error" in response) throw new InProcessProviderError(response.error.message, response.error.code, response.error.data);
    // loadFixture's snapshots are invalid once any snapshot is reverted to: Hardhat's providers say so.
    if (method === "evm_revert") this.emit(REVERT_SNAPSHOT_EVENT);
    return response.result;
  }

  send(method: string, params?: unknown[]): Promise<unknown> {
    return this.request({ method, params });
  }

  sendAsync(request: { id?: number | string; method: string; params?: unknown[] }, callback: (error: Error | null, response?: unknown) => void): void {
    this.request({ method: request.method, params: request.params }).then(
      (result) => callback(null, { jsonrpc: "2.0", id: request.id, result }),
      (error: { code?: unknown; message?: unknown; stack?: unknown; name?: unknown }) =>
        callback(null, {
          jsonrpc: "2.0",
          id: request.id,
          error: { code: typeof error.code === "number" ? error.code : -1, message: String(error.message), data: { stack: error.stack, name: error.name } },
        }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.removeAllListeners();
  }
}

/** A connection to an in-process network, with the fields Hardhat's own connections have. */
class InProcessConnection implements NetworkConnection {
  readonly provider: InProcessProvider;

  constructor(
    readonly id: number,
    readonly networkName: string,
    readonly chainType: string | undefined,
    public networkConfig: Hardhat3NetworkConfig,
    hooks: Hardhat3NetworkHookChains,
    private readonly closeWith: (connection: InProcessConnection) => Promise<void>,
  ) {
    this.provider = new InProcessProvider(networkName, (request) => hooks.runHandlerChain("network", "onRequest", [this, request], unanswered));
    // As Hardhat's connections: `const { close } = connection` works.
    this.close = this.close.bind(this);
  }

  close(): Promise<void> {
    return this.closeWith(this);
  }
}

/** The end of the `onRequest` chain: reached only if no handler answered, which the network hooks always do. */
async function unanswered(_context: HookContext, connection: NetworkConnection, request: JsonRpcRequest): Promise<JsonRpcResponse> {
  throw new Error(`No handler answered ${request.method} on the in-process network ${connection.networkName}: is the nativekit plugin in the config's plugins?`);
}

/** A network and chain type resolved as Hardhat resolves them, with the network's config. */
interface ResolvedTarget {
  networkName: string;
  chainType: string | undefined;
  networkConfig: Hardhat3NetworkConfig;
}

/**
 * `hre.network` with `create()` and `getOrCreate()` of the in-process networks answered by
 * nativekit; every other call, and every other member, is Hardhat's own.
 */
export function withInProcessConnections(runtime: CreatedRuntime & { network: Hardhat3NetworkManager }, hooks: Hardhat3NetworkHookChains): Hardhat3NetworkManager {
  const builtin = runtime.network;
  const shared = new Map<string, Promise<NetworkConnection>>();
  let nextId = FIRST_CONNECTION_ID;

  /** The target when nativekit connects it: an in-process network, no config override, the network's own chain type. */
  function inProcessTarget(networkOrParams: string | NetworkConnectionParams | undefined): ResolvedTarget | undefined {
    const params = typeof networkOrParams === "string" ? { network: networkOrParams } : (networkOrParams ?? {});
    if (params.override !== undefined && Object.keys(params.override).length > 0) return undefined;
    const networkName = params.network ?? (runtime.globalOptions.network || DEFAULT_NETWORK_NAME);
    if (!runtime.config.nativekit.inProcessNetworks.includes(networkName)) return undefined;
    const networkConfig = runtime.config.networks?.[networkName];
    if (networkConfig === undefined) return undefined;
    const chainType = params.chainType ?? networkConfig.chainType ?? runtime.config.defaultChainType;
    if (chainType === networkConfig.chainType) return { networkName, chainType, networkConfig };
    // Another chain type than the network's own needs Hardhat's config resolution: Hardhat's path.
    if (networkConfig.chainType === undefined && chainType === runtime.config.defaultChainType) return { networkName, chainType, networkConfig: { ...networkConfig, chainType } };
    return undefined;
  }

  async function connect(target: ResolvedTarget): Promise<NetworkConnection> {
    const closeWith = async (connection: InProcessConnection) =>
      hooks.runHandlerChain("network", "closeConnection", [connection], async (_context, closing) => (closing as InProcessConnection).provider.close());
    return hooks.runHandlerChain(
      "network",
      "newConnection",
      [],
      async () => new InProcessConnection(nextId++, target.networkName, target.chainType, target.networkConfig, hooks, closeWith),
    );
  }

  async function create(networkOrParams?: string | NetworkConnectionParams): Promise<NetworkConnection> {
    const target = inProcessTarget(networkOrParams);
    return target === undefined ? builtin.create(networkOrParams) : connect(target);
  }

  async function getOrCreate(networkOrParams?: string | NetworkConnectionParams): Promise<NetworkConnection> {
    const target = inProcessTarget(networkOrParams);
    // Hardhat refuses any override here, even an empty one: its path says so.
    if (target === undefined || (typeof networkOrParams === "object" && "override" in networkOrParams)) return builtin.getOrCreate(networkOrParams);
    const key = `${target.networkName}\u0000${target.chainType ?? ""}`;
    let connection = shared.get(key);
    if (connection === undefined) {
      connection = connect(target);
      shared.set(key, connection);
      // A failed connection is not kept: the next call tries again, as with Hardhat's cache.
      connection.catch(() => shared.delete(key));
    }
    return connection;
  }

  // Every other member (connect, createServer, what a later Hardhat adds) is Hardhat's own, called on Hardhat's object.
  return new Proxy(builtin, {
    get(target, property) {
      if (property === "create") return create;
      if (property === "getOrCreate") return getOrCreate;
      const value: unknown = Reflect.get(target, property, target);
      // A proxy must answer a fixed property (Hardhat's wasConnectCalled) with that very value.
      const descriptor = Reflect.getOwnPropertyDescriptor(target, property);
      if (descriptor !== undefined && descriptor.configurable === false && descriptor.writable === false) return value;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
