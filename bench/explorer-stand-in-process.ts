/**
 * The explorer benchmark's stand-in node (explorer-stand-in.ts) in a process of its own, so the
 * explorer under test runs in a process that holds only the explorer, as users run it. In the
 * benchmark's process, the generated index (at 1,000,000 containers the process's RSS was 3.3 GB
 * of bytes and pre-made JSON) shared the explorer's heap, which its collections then had to walk,
 * and serving the index's pages counted as the explorer's CPU.
 *
 * The child generates the index itself (the generation is deterministic in its two sizes), serves
 * it on a free loopback port, and takes the number of containers to serve over its IPC channel.
 * It is ended by its id when the benchmark closes it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { generateStandInChain, startStandInNode } from "./explorer-stand-in";

type ToChild = { kind: "serve"; containers: number };
type FromChild = { kind: "log"; line: string } | { kind: "ready"; url: string; generateMs: number } | { kind: "served"; containers: number };

export interface StandInNodeProcess {
  url: string;
  pid: number;
  /** How long the child took to generate the index. */
  generateMs: number;
  /** Serves the first `containers` of the index from now on (resolves once the child does). */
  serve(containers: number): Promise<void>;
  /** Ends the child by its id and waits for it to exit. */
  close(): Promise<void>;
}

/** Starts the child: `containers` transactions from `accounts` senders, the first `served` of them served. */
export async function startStandInNodeProcess(containers: number, accounts: number, served: number, log: (line: string) => void): Promise<StandInNodeProcess> {
  const child = spawn(process.execPath, ["--max-old-space-size=8192", "-r", "ts-node/register/transpile-only", __filename, String(containers), String(accounts), String(served)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = await new Promise<{ url: string; generateMs: number }>((resolve, reject) => {
    child.on("message", (message: FromChild) => {
      if (message.kind === "log") log(message.line);
      if (message.kind === "ready") resolve(message);
    });
    void exited.then((code) => reject(new Error(`the stand-in node's process exited (code ${code}) before it served`)));
  });
  return {
    url: ready.url,
    pid: child.pid!,
    generateMs: ready.generateMs,
    serve: (count) => sendAndAwait(child, { kind: "serve", containers: count }),
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGTERM");
      await exited;
    },
  };
}

function sendAndAwait(child: ChildProcess, message: ToChild): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (answer: FromChild) => {
      if (answer.kind === "served" && answer.containers === message.containers) {
        child.off("message", onMessage);
        resolve();
      }
    };
    child.on("message", onMessage);
    child.send(message, (error) => error && reject(error));
  });
}

/** The child's side: generate, serve, answer `serve` messages; SIGTERM or a closed channel ends it. */
async function runChild([containers, accounts, served]: number[]): Promise<void> {
  const send = (message: FromChild) => process.send!(message);
  const started = performance.now();
  const chain = generateStandInChain(containers!, accounts!, (line) => send({ kind: "log", line }));
  const generateMs = performance.now() - started;
  const node = await startStandInNode(chain, served!);
  const stop = () => void node.close().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("disconnect", stop);
  process.on("message", (message: ToChild) => {
    if (message.kind !== "serve") return;
    node.served = message.containers;
    send({ kind: "served", containers: message.containers });
  });
  send({ kind: "ready", url: node.url, generateMs });
}

if (require.main === module) void runChild(process.argv.slice(2).map(Number));
