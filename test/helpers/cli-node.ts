/**
 * `nativekit node` as users run it: a child process on a free port, its output collected, and
 * the calls the tests make on it. Each test stops its node by pid and checks it is gone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { alive } from "./processes";

const BIN = path.join(__dirname, "..", "..", "bin", "nativekit.js");

export interface CliNode {
  readonly child: ChildProcess;
  readonly pid: number;
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Everything the node printed so far (stdout and stderr). */
  output(): string;
  /** The result of `method` on `route`; throws the node's error message. */
  call<T = unknown>(route: string, method: string, params?: unknown): Promise<T>;
  /** Sends `signal` and resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A started node, or the output and exit code of one that refused to start. */
export type CliStart = { started: true; node: CliNode } | { started: false; code: number | null; output: string };

/** Spawns `nativekit node --port 0 <args>` and waits until it listens or exits. */
export async function spawnCliNode(args: readonly string[], timeoutMs = 120_000): Promise<CliStart> {
  const child = spawn(process.execPath, [BIN, "node", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const started = Date.now();
  while (!/listening on http/.test(text) && exitCode === undefined && Date.now() - started < timeoutMs) await new Promise((r) => setTimeout(r, 25));
  if (exitCode !== undefined) return { started: false, code: exitCode, output: text };
  const match = /listening on (http:\/\/[^/\s]+)/.exec(text);
  if (match === null) {
    child.kill("SIGKILL");
    await exited;
    throw new Error(`nativekit node did not start within ${timeoutMs} ms:\n${text}`);
  }
  const url = match[1]!;
  let id = 1;
  const node: CliNode = {
    child,
    pid: child.pid!,
    url,
    output: () => text,
    call: async <T>(route: string, method: string, params: unknown = []) => {
      const response = await fetch(`${url}${route}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }),
      });
      const body = (await response.json()) as { result?: T; error?: { message: string } };
      if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
      return body.result as T;
    },
    stop: async (signal = "SIGTERM") => {
      if (exitCode === undefined) child.kill(signal);
      const code = await exited;
      if (alive(child.pid!)) throw new Error(`nativekit node ${child.pid} is still running after ${signal}`);
      return code;
    },
  };
  return { started: true, node };
}

/** A spawned node that must start (throws with its output otherwise). */
export async function startedCliNode(args: readonly string[]): Promise<CliNode> {
  const start = await spawnCliNode(args);
  if (!start.started) throw new Error(`nativekit node exited with ${start.code}:\n${start.output}`);
  return start.node;
}
