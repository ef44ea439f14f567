/**
 * The runner's operations (the reference's PingService and ControlService) over at most one
 * network: argument checks, defaults and the reference's refusals, then the network's work. The
 * operations that change the network run one at a time; status, uris and the status stream read
 * it as it is.
 *
 * Defaults (the reference's): 5 nodes named node1…node5; nativekit's own node as the executable;
 * HTTP ports 9650, 9652, … and staking ports 9651, 9653, …; network ID 12345; the network's
 * directory `<rootDataDir or the system's temporary directory>/network-runner-root-data/
 * network_<timestamp>`; start and waitforhealthy give up after 3 and 2 minutes.
 *
 * Where nativekit differs: `health` asks every node once and answers healthy or not (the
 * reference waits until healthy, as `waitforhealthy` does); a paused node is left out of health;
 * `waitforhealthy` refuses at once when a node has exited instead of waiting out its deadline.
 */
import os from "node:os";
import path from "node:path";
import { alreadyBootstrapped, invalidArgument, notBootstrapped, RunnerError, RunnerMessages } from "./errors";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { NodeProcessNetwork, type NodeRequest, type RunnerLog } from "./node-process-network";
import type {
  AddNodeRequest,
  ClusterInfo,
  ClusterInfoResponse,
  NodeNameRequest,
  PingResponse,
  RestartNodeRequest,
  RpcVersionResponse,
  StartRequest,
  StartResponse,
  StreamStatusRequest,
  UrisResponse,
} from "./messages";
import { checkExecPath, LOCAL_NETWORK_ID, nativekitExecutable, parseNodeConfig } from "./node-config";

/** The protocol version the reference runner reports (RPCVersion). */
export const RPC_VERSION = 1;
export const DEFAULT_NUM_NODES = 5;
export const DEFAULT_START_TIMEOUT_MS = 3 * 60_000;
export const WAIT_FOR_HEALTHY_TIMEOUT_MS = 2 * 60_000;
/** Push interval of the status stream when the request gives none. */
export const DEFAULT_PUSH_INTERVAL_MS = 5_000;
const ROOT_DATA_DIR_PREFIX = "network-runner-root-data";
const NODE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export class RunnerControl {
  private network: NodeProcessNetwork | undefined;
  /** The network a start is bringing up, until it is healthy. */
  private starting: NodeProcessNetwork | undefined;
  /** The cluster as the last stop left it (the reference answers it to later stops). */
  private lastClusterInfo: ClusterInfo | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly log: RunnerLog) {}

  /** Process IDs of the nodes now running (tests check none outlives a stop). */
  get nodePids(): number[] {
    return this.network?.pids ?? [];
  }

  /** Process IDs of the nodes of a start not finished yet. */
  get startingPids(): number[] {
    return this.starting?.pids ?? [];
  }

  ping(): PingResponse {
    return { pid: process.pid };
  }

  rpcVersion(): RpcVersionResponse {
    return { version: RPC_VERSION };
  }

  start(request: StartRequest): Promise<StartResponse> {
    return this.exclusive(async () => {
      if (this.network !== undefined) throw alreadyBootstrapped();
      const numNodes = request.numNodes ?? DEFAULT_NUM_NODES;
      if (numNodes < 1) throw new RunnerError(GrpcStatus.INVALID_ARGUMENT, RunnerMessages.notEnoughNodes);
      const execPath = request.execPath === "" ? nativekitExecutable() : request.execPath;
      checkExecPath(execPath);
      const globalFlags = parseNodeConfig(request.globalNodeConfig, "globalNodeConfig");
      const custom = Object.entries(request.customNodeConfigs).sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }));
      const nodes: NodeRequest[] =
        custom.length > 0
          ? custom.map(([name, config]) => ({ name: checkNodeName(name), flags: parseNodeConfig(config, `customNodeConfigs[${JSON.stringify(name)}]`) }))
          : Array.from({ length: numNodes }, (_, i) => ({ name: `node${i + 1}` }));
      const rootDataDir = path.join(request.rootDataDir || os.tmpdir(), ROOT_DATA_DIR_PREFIX, `network_${timestamp()}`);
      this.log("info", `starting ${nodes.length} node(s) of ${execPath} in ${rootDataDir}`);
      const started = Date.now();
      const network = new NodeProcessNetwork({
        rootDataDir,
        logRootDir: request.logRootDir || undefined,
        execPath,
        networkId: request.networkId === 0 ? LOCAL_NETWORK_ID : request.networkId,
        ports: { dynamicPorts: request.dynamicPorts === true, reassignPortsIfUsed: request.reassignPortsIfUsed === true },
        globalFlags,
        logLevel: request.logLevel,
        healthTimeoutMs: request.healthTimeoutMs === 0 ? DEFAULT_START_TIMEOUT_MS : request.healthTimeoutMs,
        log: this.log,
        pid: process.pid,
      });
      this.starting = network;
      try {
        await network.addNodes(nodes);
      } finally {
        this.starting = undefined;
      }
      this.network = network;
      this.log("info", `network healthy after ${Date.now() - started} ms: ${this.network.nodeNames.join(", ")}`);
      return { clusterInfo: this.network.clusterInfo(), chainIds: [] };
    });
  }

  health(): Promise<ClusterInfoResponse> {
    return this.exclusive(async () => {
      const network = this.started();
      await network.checkHealth();
      return { clusterInfo: network.clusterInfo() };
    });
  }

  waitForHealthy(signal?: AbortSignal): Promise<ClusterInfoResponse> {
    return this.exclusive(async () => {
      const network = this.started();
      await network.waitForHealthy(WAIT_FOR_HEALTHY_TIMEOUT_MS, signal);
      return { clusterInfo: network.clusterInfo() };
    });
  }

  uris(): UrisResponse {
    const info = this.started().clusterInfo();
    return { uris: Object.values(info.nodeInfos).map((n) => n.uri).sort() };
  }

  status(): ClusterInfoResponse {
    return { clusterInfo: this.started().clusterInfo() };
  }

  addNode(request: AddNodeRequest): Promise<ClusterInfoResponse> {
    return this.exclusive(async () => {
      const network = this.started();
      const name = request.name === "" ? network.nextNodeName() : checkNodeName(request.name);
      if (request.execPath !== "") checkExecPath(request.execPath);
      const flags = parseNodeConfig(request.nodeConfig, "nodeConfig");
      await network.addNodes([{ name, flags, ...(request.execPath === "" ? {} : { execPath: request.execPath }) }]);
      return { clusterInfo: network.clusterInfo() };
    });
  }

  removeNode(request: NodeNameRequest): Promise<ClusterInfoResponse> {
    return this.onNode(request, (network, name) => network.removeNode(name));
  }

  restartNode(request: RestartNodeRequest): Promise<ClusterInfoResponse> {
    return this.onNode(request, async (network, name) => {
      if (request.execPath !== undefined && request.execPath !== "") checkExecPath(request.execPath);
      await network.restartNode(name, request.execPath);
    });
  }

  pauseNode(request: NodeNameRequest): Promise<ClusterInfoResponse> {
    return this.onNode(request, async (network, name) => network.pauseNode(name));
  }

  resumeNode(request: NodeNameRequest): Promise<ClusterInfoResponse> {
    return this.onNode(request, (network, name) => network.resumeNode(name));
  }

  /** Stops the network if there is one; answers the cluster as it was left (null if never started). */
  stop(): Promise<ClusterInfoResponse> {
    return this.exclusive(async () => {
      const network = this.network;
      if (network !== undefined) {
        await network.stop();
        this.lastClusterInfo = network.clusterInfo();
        this.network = undefined;
      }
      return { clusterInfo: this.lastClusterInfo };
    });
  }

  /**
   * Stops everything at once for the runner's exit: a network still starting is stopped without
   * waiting for its start (which then fails), then the started one.
   */
  async shutdown(): Promise<void> {
    await this.starting?.stop();
    await this.stop();
  }

  /**
   * Sends the cluster now and then every push interval (nanoseconds, the reference's Go
   * duration; 0 means 5 s) until `signal` aborts. Before a start it sends the last stopped
   * cluster, or null.
   */
  async streamStatus(request: StreamStatusRequest, send: (response: ClusterInfoResponse) => void, signal: AbortSignal): Promise<void> {
    const nanoseconds = BigInt(request.pushInterval || "0");
    if (nanoseconds < 0n) throw invalidArgument("pushInterval must not be negative");
    const intervalMs = nanoseconds === 0n ? DEFAULT_PUSH_INTERVAL_MS : Math.max(1, Number(nanoseconds / 1_000_000n));
    while (!signal.aborted) {
      send({ clusterInfo: this.network?.clusterInfo() ?? this.lastClusterInfo });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      });
    }
  }

  private onNode(request: NodeNameRequest, work: (network: NodeProcessNetwork, name: string) => Promise<void>): Promise<ClusterInfoResponse> {
    return this.exclusive(async () => {
      const network = this.started();
      network.node(request.name); // refuses an unknown name before any work
      await work(network, request.name);
      return { clusterInfo: network.clusterInfo() };
    });
  }

  private started(): NodeProcessNetwork {
    if (this.network === undefined) throw notBootstrapped();
    return this.network;
  }

  /** Runs `work` after every operation queued before it. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

function checkNodeName(name: string): string {
  if (!NODE_NAME.test(name)) throw invalidArgument(`invalid node name ${JSON.stringify(name)}: letters, digits, "_", "." and "-", at most 64, starting with a letter or digit`);
  return name;
}

/** 20261124_004512_123: sortable, and unique for starts more than a millisecond apart. */
function timestamp(): string {
  const iso = new Date().toISOString(); // 2026-11-24T00:45:12.123Z
  return `${iso.slice(0, 10).replace(/-/g, "")}_${iso.slice(11, 19).replace(/:/g, "")}_${iso.slice(20, 23)}`;
}
