/**
 * One node's operating-system process: started with its output appended to a log file, paused
 * and resumed with SIGSTOP/SIGCONT, and stopped by pid — SIGTERM, then SIGKILL after a grace
 * period — always waiting until the process has exited, so the runner never leaves one behind.
 * An exit nobody asked for is reported to `onUnexpectedExit`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";

/** How long a node may take to exit after SIGTERM before it gets SIGKILL. */
export const STOP_GRACE_MS = 5_000;

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface NodeCommand {
  /** The program run (the node binary, or Node.js for nativekit's own node). */
  readonly command: string;
  readonly args: readonly string[];
}

export class NodeProcess {
  private exit: ProcessExit | undefined;
  private stopping = false;
  readonly exited: Promise<ProcessExit>;

  private constructor(
    private readonly child: ChildProcess,
    readonly pid: number,
    onUnexpectedExit: (exit: ProcessExit) => void,
  ) {
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exit = { code, signal };
        if (!this.stopping) onUnexpectedExit(this.exit);
        resolve(this.exit);
      });
    });
  }

  /** Starts `command`, its stdout and stderr appended to `logFile`; rejects when it cannot be started. */
  static async start(command: NodeCommand, logFile: string, onUnexpectedExit: (exit: ProcessExit) => void): Promise<NodeProcess> {
    const log = fs.openSync(logFile, "a");
    try {
      const child = spawn(command.command, [...command.args], { stdio: ["ignore", log, log] });
      const started = await Promise.race([
        once(child, "spawn").then(() => true),
        once(child, "error").then(([error]) => {
          throw new Error(`cannot start ${command.command}: ${(error as Error).message}`);
        }),
      ]);
      if (started !== true || child.pid === undefined) throw new Error(`cannot start ${command.command}`);
      return new NodeProcess(child, child.pid, onUnexpectedExit);
    } finally {
      fs.closeSync(log); // the child holds its own copy of the descriptor
    }
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  get exitStatus(): ProcessExit | undefined {
    return this.exit;
  }

  pause(): void {
    if (this.running) process.kill(this.pid, "SIGSTOP");
  }

  resume(): void {
    if (this.running) process.kill(this.pid, "SIGCONT");
  }

  /** Ends the process and resolves once it has exited. */
  async stop(graceMs = STOP_GRACE_MS): Promise<ProcessExit> {
    this.stopping = true;
    if (this.exit !== undefined) return this.exit;
    signal(this.pid, "SIGTERM");
    signal(this.pid, "SIGCONT"); // a paused process handles SIGTERM only once it runs again
    const timer = setTimeout(() => signal(this.pid, "SIGKILL"), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone: the exit event follows
  }
}
