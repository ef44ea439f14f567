/**
 * The one way a node starts, for the `node` command, the Hardhat node task and the tests: its
 * chains (built here, or handed over already built), served over HTTP and WebSocket, its peer
 * network started once it listens. The handle it returns holds one ordered shutdown
 * (./shutdown.ts): the server closes first, then the services mounted beside the node, then the
 * node itself, then whatever the caller had opened before (its log file). A start that fails
 * part way undoes what it did and throws a {@link NodeStartError} naming the stage.
 */
import { type Authorize, type GetHandler, type PrefixHandler, startHttpNode } from "./http-server";
import { createWebSocketRpc } from "./ws-server";
import type { NodeChains, NodeChainsOptions } from "./node-chains";
import { ShutdownSequence } from "./shutdown";
import type { Dispatch, OpenSession } from "../rpc/types";

/** What a node serves over HTTP: its JSON-RPC paths and what else the server asks of it. */
export interface ServedNode {
  /** Paths to serve (e.g. `/ext/bc/C/rpc`) and their dispatch functions. */
  routes: Record<string, Dispatch>;
  /** Paths also answered to GET (the health reports). */
  getRoutes?: Record<string, GetHandler>;
  /** The check every request passes (`--api-auth-required`). */
  authorize?: Authorize;
  /** WebSocket paths (e.g. `/ext/bc/C/ws`) and their session openers. */
  wsRoutes?: Record<string, OpenSession>;
  /** Where the server's request lines go (the node's leveled log), when it logs them at all. */
  requestLog?: (line: string) => void;
  /** Called once the HTTP server listens, with its URL (the node's peer network starts here); a throw stops the node. */
  listening?(url: string): Promise<void>;
  /** Releases the node; called after the HTTP server has closed. */
  close?(): Promise<void>;
}

/** A service served beside the node on its port (the vault, the explorer): its paths, and its release. */
export interface MountedService {
  readonly prefixHandlers: Record<string, PrefixHandler>;
  close(): Promise<void>;
}

/** How the node is served, and the steps of its life its caller adds. */
export interface NodeServing {
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Port to bind (default 9650; 0 for a free one). */
  port?: number;
  maxJsonDepth?: number;
  maxBatchSize?: number;
  maxBodyBytes?: number;
  /** Receives the server's request lines (through the node's own `requestLog` when it has one); none without it. */
  log?: (line: string) => void;
  /** Services served beside the node: closed after the server, before the node. */
  services?: readonly MountedService[];
  /** What the caller opened before (its log file): released after the node. */
  shutdown?: ShutdownSequence;
  /** Runs on the node before it listens (`--load-state`); a failure stops the start. */
  prepare?(node: ServedNode): Promise<void>;
  /** Runs in an orderly stop once the server and services have closed, before the node is released (`--dump-state`). */
  beforeRelease?(node: ServedNode): Promise<void>;
}

/** The node to serve: one built here from chain options (the default), or one built already. */
export type NodeToServe = { chains?: NodeChainsOptions; node?: undefined } | { node: ServedNode; chains?: undefined };

export type StartNodeOptions = NodeServing & NodeToServe;

/** Where a start failed: building the chains, preparing the node, listening, or starting the peers once it listened. */
export type NodeStartStage = "chains" | "prepare" | "listen" | "listening";

export class NodeStartError extends Error {
  constructor(
    readonly stage: NodeStartStage,
    readonly reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = "NodeStartError";
  }
}

/** A node that listens. */
export interface StartedNode {
  /** Base URL, without a trailing slash, e.g. `http://127.0.0.1:9650`. */
  readonly url: string;
  /** The interface bound, as given. */
  readonly host: string;
  /** The port bound (the actual one when 0 was asked for). */
  readonly port: number;
  readonly node: ServedNode;
  /** The chains, when they were built here from chain options. */
  readonly chains: NodeChains | undefined;
  /** The node's shutdown: a caller starting more on the node adds its releases here. */
  readonly shutdown: ShutdownSequence;
  /** The orderly stop ({@link ShutdownSequence.stop}). */
  close(): Promise<void>;
}

/** The HTTP side of a {@link NodeChains}: its routes, management checks, request log and peers. */
export function servedChains(chains: NodeChains): ServedNode {
  const { getRoutes, authorize } = chains.management;
  return {
    routes: chains.routes,
    wsRoutes: chains.wsRoutes,
    getRoutes,
    authorize,
    // Request lines go through the node's leveled log, so admin.setLogLevel governs them.
    requestLog: chains.operator.logger.at("info"),
    listening: (url) => chains.startPeers(url),
    close: () => chains.close(),
  };
}

export async function startNode(options: StartNodeOptions = {}): Promise<StartedNode> {
  const shutdown = options.shutdown ?? new ShutdownSequence();
  const failed = async (stage: NodeStartStage, reason: unknown): Promise<never> => {
    await shutdown.abandon();
    throw new NodeStartError(stage, reason);
  };
  let chains: NodeChains | undefined;
  let node: ServedNode;
  try {
    // Loaded only when the chains are built here: a caller serving a node of its own (a stand-in in tests) does not load them.
    node = options.node ?? servedChains((chains = await (await import("./node-chains")).NodeChains.create(options.chains)));
  } catch (error) {
    return failed("chains", error);
  }
  shutdown.add(async () => node.close?.());
  const { beforeRelease, services = [] } = options;
  if (beforeRelease !== undefined) shutdown.addOnStop(() => beforeRelease(node));
  for (const service of services) shutdown.add(() => service.close());
  try {
    await options.prepare?.(node);
  } catch (error) {
    return failed("prepare", error);
  }
  let server;
  try {
    server = await serve(node, options);
  } catch (error) {
    return failed("listen", error);
  }
  shutdown.add(() => server.close());
  try {
    await node.listening?.(server.url);
  } catch (error) {
    return failed("listening", error);
  }
  return { url: server.url, host: server.host, port: server.port, node, chains, shutdown, close: () => shutdown.stop() };
}

/** The HTTP server of `node`, its WebSocket paths on the same port. */
function serve(node: ServedNode, options: NodeServing) {
  const log = options.log === undefined ? undefined : (node.requestLog ?? options.log);
  const limits = { maxJsonDepth: options.maxJsonDepth, maxBatchSize: options.maxBatchSize };
  return startHttpNode({
    prefixHandlers: Object.assign({}, ...(options.services ?? []).map((s) => s.prefixHandlers)) as Record<string, PrefixHandler>,
    host: options.host,
    port: options.port,
    routes: node.routes,
    ...limits,
    maxBodyBytes: options.maxBodyBytes,
    getRoutes: node.getRoutes,
    authorize: node.authorize,
    log,
    upgrade: node.wsRoutes === undefined ? undefined : createWebSocketRpc({ routes: node.wsRoutes, ...limits, log }),
  });
}
