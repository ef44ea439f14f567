/**
 * One node of the runner's network: its settings (name, executable, flags, directories, staking
 * identity), its process and what the runner last learnt of it (healthy, paused, the node ID it
 * reports). Starting it spawns the process and waits until health.health says healthy; a node
 * that exits meanwhile, or stays unhealthy past the deadline, fails the start with the last
 * lines of its log.
 */
import fs from "node:fs";
import path from "node:path";
import { createHealthClient, createInfoClient, createTransport } from "../../clients";
import { RunnerError } from "./errors";
import { status as GrpcStatus } from "@grpc/grpc-js";
import type { NodeInfo } from "./messages";
import { commandOf, type NodeDirs, type NodeFlags, portsOf } from "./node-config";
import { NodeProcess, type ProcessExit } from "./node-process";

/** The file in a node's log directory receiving its stdout and stderr. */
export const OUTPUT_LOG = "output.log";
/** Time allowed for one health.health or info.getNodeID call. */
const CALL_TIMEOUT_MS = 2_000;
/** Pause between two health polls while a node starts. */
const POLL_MS = 100;
/** Lines of a node's log quoted when it fails. */
const TAIL_LINES = 20;

export interface RunnerNodeSettings {
  readonly name: string;
  readonly execPath: string;
  readonly flags: NodeFlags;
  readonly dirs: NodeDirs;
  /** The ID derived from its staking certificate. */
  readonly expectedId: string;
}

export class RunnerNode {
  private process: NodeProcess | undefined;
  private reportedId: string | undefined;
  healthy = false;
  paused = false;

  constructor(
    public settings: RunnerNodeSettings,
    private readonly onUnexpectedExit: (node: RunnerNode, exit: ProcessExit) => void,
  ) {}

  get name(): string {
    return this.settings.name;
  }

  get uri(): string {
    return `http://127.0.0.1:${portsOf(this.settings.flags).httpPort}`;
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }

  get running(): boolean {
    return this.process?.running === true;
  }

  get logFile(): string {
    return path.join(this.settings.dirs.logDir, OUTPUT_LOG);
  }

  /** Spawns the process (the dirs must exist). */
  async spawn(): Promise<void> {
    const command = commandOf(this.settings.execPath, this.settings.flags);
    this.paused = false;
    this.healthy = false;
    this.process = await NodeProcess.start(command, this.logFile, (exit) => {
      this.healthy = false;
      this.onUnexpectedExit(this, exit);
    });
  }

  /** Polls health.health until healthy, then checks the node ID it reports. */
  async waitUntilHealthy(deadline: number): Promise<void> {
    for (;;) {
      const exit = this.process?.exitStatus;
      if (exit !== undefined) throw this.failure(`exited (${describeExit(exit)}) before it was healthy`);
      if (await this.checkHealth()) break;
      if (Date.now() >= deadline) throw this.failure("was not healthy in time", GrpcStatus.DEADLINE_EXCEEDED);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const { nodeID } = await createInfoClient({ transport: this.transport() }).getNodeID();
    if (nodeID !== this.settings.expectedId) {
      throw this.failure(`reports ${nodeID}, but its staking certificate makes it ${this.settings.expectedId}`);
    }
    this.reportedId = nodeID;
  }

  /** Asks health.health once; a node that does not answer is unhealthy. */
  async checkHealth(): Promise<boolean> {
    if (!this.running) return (this.healthy = false);
    try {
      this.healthy = (await createHealthClient({ transport: this.transport() }).health()).healthy;
    } catch {
      this.healthy = false;
    }
    return this.healthy;
  }

  pause(): void {
    this.process?.pause();
    this.paused = true;
  }

  resume(): void {
    this.process?.resume();
    this.paused = false;
  }

  /** Ends the process (if any) and waits for its exit. */
  async stop(): Promise<void> {
    const process = this.process;
    this.healthy = false;
    this.paused = false;
    await process?.stop();
  }

  info(): NodeInfo {
    return {
      name: this.name,
      execPath: this.settings.execPath,
      uri: this.uri,
      id: this.reportedId ?? this.settings.expectedId,
      logDir: this.settings.dirs.logDir,
      dbDir: this.settings.dirs.dbDir,
      pluginDir: "",
      whitelistedSubnets: "",
      config: Buffer.from(JSON.stringify(this.settings.flags)).toString("base64"),
      paused: this.paused,
    };
  }

  /** A start failure naming the node, with the end of its log. */
  failure(what: string, code: GrpcStatus = GrpcStatus.UNKNOWN): RunnerError {
    return new RunnerError(code, `${this.name} ${what}; last lines of ${this.logFile}:\n${tail(this.logFile)}`);
  }

  private transport() {
    return createTransport({ url: this.uri, timeoutMs: CALL_TIMEOUT_MS });
  }
}

export function describeExit(exit: ProcessExit): string {
  return exit.signal !== null ? `signal ${exit.signal}` : `code ${exit.code}`;
}

function tail(file: string): string {
  try {
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    return lines.slice(-TAIL_LINES).join("\n");
  } catch {
    return "(no output)";
  }
}
