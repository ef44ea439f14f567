/**
 * Hardhat 3's network hooks: every request of a connection to a nativekit network is answered by
 * an in-process chain of that connection's own, so each `network.create()` gets a fresh chain
 * (Hardhat 3's semantics for simulated networks) and `getOrCreate` shares one; the chain goes
 * with its connection when the connection closes. Requests of other networks pass through. The
 * chains live on this thread, or with `workerThread: true` in the engine thread (engine-thread.ts).
 *
 * The handler answers before Hardhat's own request handlers (a plugin's handlers run before the
 * built-in ones), as the Hardhat 2 plugin replaced the provider: the engine fills senders, gas
 * prices and nonces itself, as Hardhat's network does. A transaction that names no gas limit
 * gets the configured one (`nativekit.gas`, the block gas limit by default) instead of an
 * eth_estimateGas first, as Hardhat's network does.
 */
import { loadInProcessEngine } from "../in-process-engine-loader";
import { type Observed, observedChainOptions, observesAnything, type ObservationRequest } from "./chain-observers";
import { type EngineThread, sharedEngineThread } from "./engine-thread";
import { reportObserved, wantedObservations } from "./observation-hooks";
import type { ProjectSolidityTraces } from "../solidity/project-traces";
import { callerStack, isExecutingMethod } from "../solidity/solidity-error";
import type { Hardhat3Modules, Hardhat3NativekitConfig, HookContext, JsonRpcRequest, JsonRpcResponse, NetworkConnection, NetworkHooks } from "./types";

/** The answer of a request the engine refused: its JSON-RPC code, message and data, unchanged. */
function errorResponse(request: JsonRpcRequest, error: unknown): JsonRpcResponse {
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof code !== "number" || typeof message !== "string") throw error;
  return { jsonrpc: "2.0", id: request.id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** eth_sendTransaction without a gas limit gets the fixed one, when the config has one. */
function withDefaultGas(request: JsonRpcRequest, gas: "auto" | number): unknown[] | undefined {
  const params = Array.isArray(request.params) ? request.params : request.params === undefined ? undefined : [request.params];
  if (gas === "auto" || request.method !== "eth_sendTransaction" || params === undefined) return params;
  const [transaction, ...rest] = params as [Record<string, unknown> | undefined, ...unknown[]];
  if (typeof transaction !== "object" || transaction === null || transaction.gas !== undefined) return params;
  return [{ ...transaction, gas: `0x${gas.toString(16)}` }, ...rest];
}

function isInProcess(context: HookContext, connection: NetworkConnection): boolean {
  return context.config.nativekit.inProcessNetworks.includes(connection.networkName);
}

/**
 * Hardhat 3 knows two kinds of network, `edr-simulated` and `http`, and a plugin cannot add a
 * third; the nativekit network is declared `http` (so Hardhat starts no simulator of its own for
 * it). Plugins that ask a connection what kind it is decide by that whether its state lasts:
 * Ignition records deployments on disk for an `http` network and reuses them on the next run
 * with the same chain ID, where a fresh in-process chain has none of those contracts. So, once
 * every plugin has set the connection up (hardhat-ethers keeps the config it was given: remote
 * accounts), the connection's config says what the network is: a simulated one.
 */
function markSimulated(connection: NetworkConnection): void {
  if (connection.networkConfig !== undefined) connection.networkConfig = { ...connection.networkConfig, type: "edr-simulated" };
}

/** A connection's chain: on Hardhat's own thread, or in the engine thread (`workerThread: true`). */
interface ConnectionChain {
  request(method: string, params: unknown[] | undefined): Promise<unknown>;
  close(): void;
  /** What the chain observed for --coverage or --gas-stats since the last take (undefined: nothing). */
  takeObserved(): Observed | undefined;
}

async function chainOnThisThread(config: Hardhat3NativekitConfig, observe: ObservationRequest, cacheDirectory: string | undefined): Promise<ConnectionChain> {
  const { createNativeProvider, networkEngineOptions, keptSignatures } = await loadInProcessEngine();
  const log = config.loggingEnabled ? (line: string) => console.log(line) : () => {};
  // The signatures of earlier runs, kept in the project's cache directory (signature-cache.ts).
  const options = { ...networkEngineOptions(config, log), signatureMemo: keptSignatures(cacheDirectory) };
  if (!observesAnything(observe)) {
    const provider = await createNativeProvider(options);
    return { request: (method, params) => provider.request({ method, params }), close: () => {}, takeObserved: () => undefined };
  }
  const observed = await observedChainOptions(options, observe);
  const provider = await createNativeProvider(observed.options);
  return { request: (method, params) => provider.request({ method, params }), close: () => {}, takeObserved: observed.take };
}

/** The in-process chains of a run's connections, and the project's stack traces, behind Hardhat 3's network hooks. */
class InProcessNetworks {
  private readonly chains = new WeakMap<NetworkConnection, Promise<ConnectionChain>>();
  private readonly traces = new Map<string, Promise<ProjectSolidityTraces>>();
  private matchersRegistered: Promise<void> | undefined;

  constructor(
    private readonly modules: Pick<Hardhat3Modules, "importChai">,
    private readonly thread: () => EngineThread,
  ) {}

  async newConnection(context: HookContext, next: (context: HookContext) => Promise<NetworkConnection>): Promise<NetworkConnection> {
    // As hardhat-ethers-chai-matchers registers its own: once, when a test first connects.
    this.matchersRegistered ??= this.registerMatchers();
    await this.matchersRegistered;
    const connection = await next(context);
    if (isInProcess(context, connection)) {
      markSimulated(connection);
      // The chain starts now, not on the first request: its start overlaps what the test does
      // between network.create() and its first call. A failure surfaces on that call.
      this.chainOf(context, connection).catch(() => {});
    }
    return connection;
  }

  async onRequest(
    context: HookContext,
    connection: NetworkConnection,
    request: JsonRpcRequest,
    next: (context: HookContext, connection: NetworkConnection, request: JsonRpcRequest) => Promise<JsonRpcResponse>,
  ): Promise<JsonRpcResponse> {
    if (!isInProcess(context, connection)) return next(context, connection, request);
    const stack = isExecutingMethod(request.method) ? callerStack() : undefined;
    const chain = await this.chainOf(context, connection);
    let response: JsonRpcResponse | undefined;
    let failure: unknown;
    try {
      const result = await chain.request(request.method, withDefaultGas(request, context.config.nativekit.gas));
      response = { jsonrpc: "2.0", id: request.id, result: result ?? null };
    } catch (error) {
      failure = error;
    }
    // What the request ran reaches --coverage and --gas-stats before its answer does, failed
    // requests included (a reverted transaction covered lines too).
    const observed = chain.takeObserved();
    if (observed !== undefined) await reportObserved(context, observed);
    if (response !== undefined) return response;
    return this.failureResponse(context, request, failure, stack);
  }

  async closeConnection(context: HookContext, connection: NetworkConnection, next: (context: HookContext, connection: NetworkConnection) => Promise<void>): Promise<void> {
    const chain = this.chains.get(connection);
    this.chains.delete(connection);
    chain?.then((opened) => opened.close()).catch(() => {});
    return next(context, connection);
  }

  /** A failed execution is thrown with its Solidity stack trace, as Hardhat's network throws it; else the error answer. */
  private async failureResponse(context: HookContext, request: JsonRpcRequest, failure: unknown, stack: ReturnType<typeof callerStack> | undefined): Promise<JsonRpcResponse> {
    const artifactsDir = context.config.paths.artifacts;
    if (stack !== undefined && artifactsDir !== undefined) {
      const traced = (await this.tracesOf(artifactsDir)).errorFor(failure, stack);
      if (traced !== failure) throw traced;
    }
    return errorResponse(request, failure);
  }

  /** The project's stack traces, loaded on the first failure (the build infos' readers are not needed before). */
  private tracesOf(artifactsDir: string): Promise<ProjectSolidityTraces> {
    let loaded = this.traces.get(artifactsDir);
    if (loaded === undefined) {
      loaded = loadInProcessEngine().then(({ ProjectSolidityTraces }) => new ProjectSolidityTraces(artifactsDir));
      this.traces.set(artifactsDir, loaded);
    }
    return loaded;
  }

  private async registerMatchers(): Promise<void> {
    const chai = await this.modules.importChai();
    if (chai === undefined) return;
    const { nativeAssetMatchers } = await import("../matchers");
    chai.use(nativeAssetMatchers as never);
  }

  private async openChain(context: HookContext): Promise<ConnectionChain> {
    const config = context.config.nativekit;
    const observe = await wantedObservations(context);
    if (config.workerThread) return this.thread().open(config, observesAnything(observe) ? observe : undefined);
    return chainOnThisThread(config, observe, context.config.paths.cache);
  }

  private chainOf(context: HookContext, connection: NetworkConnection): Promise<ConnectionChain> {
    let chain = this.chains.get(connection);
    if (chain === undefined) {
      chain = this.openChain(context);
      this.chains.set(connection, chain);
    }
    return chain;
  }
}

export function createNetworkHooks(modules: Pick<Hardhat3Modules, "importChai">, thread: () => EngineThread = sharedEngineThread): Partial<NetworkHooks> {
  const networks = new InProcessNetworks(modules, thread);
  return {
    newConnection: (context, next) => networks.newConnection(context, next),
    onRequest: (context, connection, request, next) => networks.onRequest(context, connection, request, next),
    closeConnection: (context, connection, next) => networks.closeConnection(context, connection, next),
  };
}
