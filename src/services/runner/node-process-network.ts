/**
 * The network a `start` makes, a network of node processes: each node its own process with its
 * own directory `<root>/<name>/{db,logs,staking}`, ports and staking identity. The first node
 * runs without bootstrap flags; every other node, started with the network or added later, bootstraps from
 * the first node still in the network (nativekit's first node produces the blocks the others
 * follow; the reference runner names every earlier node instead). Nodes start in parallel and
 * the operation returns once each answers health.health with healthy.
 *
 * `healthy` is what the runner last learnt: set by `checkHealth` (which asks every running node
 * that is not paused) and cleared at once when a node exits without being asked to.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { failedPrecondition, nodeNotFound, RunnerError } from "./errors";
import { status as GrpcStatus } from "@grpc/grpc-js";
import type { ClusterInfo } from "./messages";
import { type Bootstrapper, nodeFlags, type NodeDirs, type NodeFlags, portsOf, PUBLIC_IP } from "./node-config";
import type { ProcessExit } from "./node-process";
import { choosePorts, type PortChoice } from "./ports";
import { describeExit, RunnerNode } from "./runner-node";
import { ensureStakingFiles } from "./staking";

export type RunnerLog = (level: "debug" | "info" | "warn" | "error", message: string) => void;

export interface NetworkSettings {
  /** The network's directory (nodes' data under it). */
  readonly rootDataDir: string;
  /** Where the nodes' log directories go (default: inside each node's directory). */
  readonly logRootDir?: string;
  readonly execPath: string;
  readonly networkId: number;
  readonly ports: PortChoice;
  readonly globalFlags: NodeFlags;
  readonly logLevel?: string;
  /** How long starting nodes may take to be healthy. */
  readonly healthTimeoutMs: number;
  readonly log: RunnerLog;
  /** Process ID reported in the cluster info (the runner's). */
  readonly pid: number;
}

/** A node to create: its name, and optionally its own executable and flags. */
export interface NodeRequest {
  readonly name: string;
  readonly execPath?: string;
  readonly flags?: NodeFlags;
}

export class NodeProcessNetwork {
  private readonly nodes = new Map<string, RunnerNode>();
  private healthy = false;
  /** Set by `stop`: nodes still being started are stopped as soon as they exist. */
  private stopped = false;

  constructor(readonly settings: NetworkSettings) {}

  get nodeNames(): string[] {
    return [...this.nodes.keys()].sort();
  }

  /** The nodes' processes now running (by pid). */
  get pids(): number[] {
    return [...this.nodes.values()].flatMap((n) => (n.running && n.pid !== undefined ? [n.pid] : []));
  }

  node(name: string): RunnerNode {
    const node = this.nodes.get(name);
    if (node === undefined) throw nodeNotFound(name);
    return node;
  }

  /** `nodeN` for the smallest N not taken. */
  nextNodeName(): string {
    for (let i = 1; ; i++) if (!this.nodes.has(`node${i}`)) return `node${i}`;
  }

  clusterInfo(): ClusterInfo {
    const nodeInfos = Object.fromEntries(this.nodeNames.map((name) => [name, this.nodes.get(name)!.info()]));
    return {
      nodeNames: this.nodeNames,
      nodeInfos,
      pid: this.settings.pid,
      rootDataDir: this.settings.rootDataDir,
      healthy: this.healthy,
      attachedPeerInfos: {},
      customChainsHealthy: true,
      customChains: {},
      subnets: {},
      networkId: this.settings.networkId,
      logRootDir: this.settings.logRootDir ?? this.settings.rootDataDir,
    };
  }

  /**
   * Creates, starts and waits for `requests` (names must be free). On failure the new nodes are
   * stopped and forgotten, and the error names the node that failed.
   */
  async addNodes(requests: readonly NodeRequest[]): Promise<void> {
    for (const request of requests) {
      if (this.nodes.has(request.name)) throw new RunnerError(GrpcStatus.ALREADY_EXISTS, `node name ${JSON.stringify(request.name)} is already in use`);
    }
    const taken = [...this.nodes.values()].map((n) => portsOf(n.settings.flags));
    const ports = await choosePorts(requests.length, this.settings.ports, taken);
    const staking = await Promise.all(requests.map((r) => ensureStakingFiles(path.join(this.nodeDir(r.name), "staking"))));
    const created: RunnerNode[] = [];
    let bootstrapper = this.bootstrapper();
    for (const [i, request] of requests.entries()) {
      const dirs = await this.makeDirs(request.name);
      const flags = nodeFlags({
        ports: ports[i]!,
        dirs,
        networkId: this.settings.networkId,
        bootstrappers: bootstrapper === undefined ? [] : [bootstrapper],
        staking: staking[i]!,
        logLevel: this.settings.logLevel,
        configs: [this.settings.globalFlags, request.flags ?? {}],
      });
      const settings = { name: request.name, execPath: request.execPath ?? this.settings.execPath, flags, dirs, expectedId: staking[i]!.nodeId };
      const node = new RunnerNode(settings, (n, exit) => this.unexpectedExit(n, exit));
      bootstrapper ??= { ip: `${PUBLIC_IP}:${portsOf(flags).stakingPort}`, id: staking[i]!.nodeId };
      this.nodes.set(request.name, node);
      created.push(node);
    }
    try {
      await Promise.all(created.map((n) => n.spawn()));
      if (this.stopped) throw new RunnerError(GrpcStatus.ABORTED, "the network was stopped while its nodes were starting");
      this.settings.log("info", `started ${created.map((n) => `${n.name} (pid ${n.pid}, ${n.uri})`).join(", ")}`);
      const deadline = Date.now() + this.settings.healthTimeoutMs;
      await Promise.all(created.map((n) => n.waitUntilHealthy(deadline)));
    } catch (error) {
      await Promise.all(created.map((n) => n.stop()));
      for (const n of created) this.nodes.delete(n.name);
      throw error;
    }
    await this.checkHealth();
  }

  async removeNode(name: string): Promise<void> {
    const node = this.node(name);
    await node.stop();
    this.nodes.delete(name);
    this.settings.log("info", `removed ${name}`);
    await this.checkHealth();
  }

  /** Stops the node and starts it again on its db dir and identity, optionally with another executable. */
  async restartNode(name: string, execPath?: string): Promise<void> {
    const node = this.node(name);
    await node.stop();
    if (execPath !== undefined && execPath !== "") node.settings = { ...node.settings, execPath };
    await node.spawn();
    this.settings.log("info", `restarted ${name} (pid ${node.pid})`);
    await node.waitUntilHealthy(Date.now() + this.settings.healthTimeoutMs);
    await this.checkHealth();
  }

  pauseNode(name: string): void {
    const node = this.node(name);
    if (node.paused) throw failedPrecondition(`node ${JSON.stringify(name)} is already paused`);
    if (!node.running) throw failedPrecondition(`node ${JSON.stringify(name)} is not running`);
    node.pause();
    this.settings.log("info", `paused ${name} (SIGSTOP to pid ${node.pid})`);
  }

  async resumeNode(name: string): Promise<void> {
    const node = this.node(name);
    if (!node.paused) throw failedPrecondition(`node ${JSON.stringify(name)} is not paused`);
    node.resume();
    this.settings.log("info", `resumed ${name} (SIGCONT to pid ${node.pid})`);
    await this.checkHealth();
  }

  /** Asks every running node that is not paused; healthy when all answer healthy and none has exited. */
  async checkHealth(): Promise<boolean> {
    const nodes = [...this.nodes.values()];
    const answers = await Promise.all(nodes.map((n) => (n.paused ? Promise.resolve(true) : n.checkHealth())));
    this.healthy = nodes.length > 0 && answers.every((a) => a);
    return this.healthy;
  }

  /** Polls until healthy; a DEADLINE_EXCEEDED error after `timeoutMs`, at once when a node has exited. */
  async waitForHealthy(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await this.checkHealth())) {
      if (signal?.aborted === true) throw new RunnerError(GrpcStatus.CANCELLED, "wait for healthy cancelled");
      const exited = [...this.nodes.values()].filter((n) => !n.running).map((n) => n.name);
      if (exited.length > 0) throw failedPrecondition(`the network cannot become healthy: ${exited.join(", ")} exited (restartnode starts it again, removenode drops it)`);
      if (Date.now() >= deadline) {
        const unhealthy = [...this.nodes.values()].filter((n) => !n.paused && !n.healthy).map((n) => n.name);
        throw new RunnerError(GrpcStatus.DEADLINE_EXCEEDED, `the network was not healthy within ${timeoutMs} ms (unhealthy: ${unhealthy.join(", ") || "no nodes"})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** Ends every node's process and waits for all to exit (also while nodes are starting). */
  async stop(): Promise<void> {
    this.stopped = true;
    const pids = this.pids;
    await Promise.all([...this.nodes.values()].map((n) => n.stop()));
    this.healthy = false;
    this.settings.log("info", `stopped the network (pids ${pids.join(", ") || "none"})`);
  }

  private unexpectedExit(node: RunnerNode, exit: ProcessExit): void {
    this.healthy = false;
    this.settings.log("warn", `${node.name} (pid ${node.pid}) exited unexpectedly (${describeExit(exit)}); see ${node.logFile}`);
  }

  /** The first node still in the network, which later nodes bootstrap from. */
  private bootstrapper(): Bootstrapper | undefined {
    const first = this.nodes.values().next();
    if (first.done === true) return undefined;
    const node = first.value;
    return { ip: `${PUBLIC_IP}:${portsOf(node.settings.flags).stakingPort}`, id: node.settings.expectedId };
  }

  private nodeDir(name: string): string {
    return path.join(this.settings.rootDataDir, name);
  }

  private async makeDirs(name: string): Promise<NodeDirs> {
    const dirs: NodeDirs = {
      dbDir: path.join(this.nodeDir(name), "db"),
      logDir: this.settings.logRootDir === undefined ? path.join(this.nodeDir(name), "logs") : path.join(this.settings.logRootDir, name),
      stakingDir: path.join(this.nodeDir(name), "staking"),
    };
    await Promise.all([fs.mkdir(dirs.dbDir, { recursive: true }), fs.mkdir(dirs.logDir, { recursive: true })]);
    return dirs;
  }
}
