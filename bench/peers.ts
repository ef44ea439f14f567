/**
 * The benchmarked peers and their processes: how each is started, where it answers, and
 * how it is stopped. Every process started here is tracked, and only those are ever
 * signalled (by their own pid), including when the benchmark fails or is interrupted.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { performance } from "node:perf_hooks";

import { JsonRpcHttpClient, TransportError } from "./rpc-client";

export const REPO_ROOT = path.resolve(__dirname, "..");

export type PeerName = "nativekit" | "hardhat" | "anvil";

export const PEER_NAMES: readonly PeerName[] = ["nativekit", "hardhat", "anvil"];

export interface PeerSpec {
  name: PeerName;
  /** Human description, e.g. "nativekit node (ts-node)". */
  description: string;
  /** The executable; the same Node.js as the benchmark's unless given. */
  command?: string;
  /** Arguments to `command`. */
  args(port: number): string[];
  /** URL of the JSON-RPC endpoint once listening on `port`. */
  url(port: number): string;
  /** Chain ID the peer is expected to answer with. */
  chainId: bigint;
}

/** `nativekit node`, run as its bin script would be: compiled `dist/` if built, ts-node otherwise. */
export function nativekitPeer(): PeerSpec {
  const compiledMain = path.join(REPO_ROOT, "dist", "src", "cli", "main.js");
  const compiled = fs.existsSync(compiledMain);
  let entry = "TypeScript sources via ts-node";
  if (compiled) {
    const stale = sourcesNewerThan(path.join(REPO_ROOT, "src"), fs.statSync(compiledMain).mtimeMs);
    entry =
      stale === 0
        ? "compiled dist/"
        : `compiled dist/ -- WARNING: ${stale} file(s) in src/ changed since it was built; run "npm run build"`;
  }
  return {
    name: "nativekit",
    description: `node bin/nativekit.js node (${entry})`,
    args: (port) => [path.join(REPO_ROOT, "bin", "nativekit.js"), "node", "--port", String(port), "--host", "127.0.0.1"],
    url: (port) => `http://127.0.0.1:${port}/ext/bc/C/rpc`,
    chainId: 43112n,
  };
}

/**
 * `hardhat node` of this repository (Hardhat 2, EDR network), through Hardhat's own bin
 * script: what `npx hardhat node` runs, without npx's own start-up on top.
 */
export function hardhatPeer(): PeerSpec {
  const pkg = require.resolve("hardhat/package.json", { paths: [REPO_ROOT] });
  const bin = path.join(path.dirname(pkg), (require(pkg) as { bin: { hardhat: string } }).bin.hardhat);
  const version = (require(pkg) as { version: string }).version;
  return {
    name: "hardhat",
    description: `hardhat ${version} node (EDR)`,
    args: (port) => [bin, "node", "--port", String(port), "--hostname", "127.0.0.1"],
    url: (port) => `http://127.0.0.1:${port}/`,
    chainId: 31337n,
  };
}

/** The standard test mnemonic: its first account is the one the workloads send from. */
const TEST_MNEMONIC = "test test test test test test test test test test test junk";

/**
 * anvil (Foundry): its binary ships inside the platform's npm package, a dev dependency
 * (`@foundry-rs/anvil-linux-amd64`: the project's machines are Linux x64, and the registry this
 * project installs from holds no other platform's package, so the `@foundry-rs/anvil` wrapper,
 * which names them all, cannot be locked), so nothing is downloaded at run time. Started directly (not through the package's Node.js
 * wrapper), so the pid the benchmark signals is anvil's own.
 */
export function anvilPeer(): PeerSpec {
  const arch = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch] ?? process.arch;
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let pkg: string;
  try {
    pkg = require.resolve(`${platformPackage}/package.json`, { paths: [REPO_ROOT] });
  } catch {
    throw new Error(`anvil: the package ${platformPackage} is not installed (the benchmark's anvil peer needs it: "npm install -D ${platformPackage}")`);
  }
  const meta = require(pkg) as { version: string; bin: { anvil: string } };
  return {
    name: "anvil",
    description: `anvil ${meta.version} (${platformPackage})`,
    command: path.join(path.dirname(pkg), meta.bin.anvil),
    // One funded, unlocked account of the standard mnemonic: all the workloads use.
    args: (port) => ["--host", "127.0.0.1", "--port", String(port), "--silent", "--mnemonic", TEST_MNEMONIC, "--accounts", "1", "--balance", "10000"],
    url: (port) => `http://127.0.0.1:${port}/`,
    chainId: 31337n,
  };
}

/** Counts the .ts files under `dir` modified after `since` (ms since the epoch). */
export function sourcesNewerThan(dir: string, since: number): number {
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) n += sourcesNewerThan(full, since);
    else if (entry.name.endsWith(".ts") && fs.statSync(full).mtimeMs > since) n++;
  }
  return n;
}

/** Asks the OS for a free TCP port on loopback (bind port 0, read it, release it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

const OUTPUT_TAIL_CHARS = 4000;
const STOP_GRACE_MS = 10_000;

/** A started peer process. */
export class PeerProcess {
  readonly child: ChildProcess;
  readonly client: JsonRpcHttpClient;
  readonly spawnedAt: number;
  private tail = "";
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;

  constructor(
    readonly spec: PeerSpec,
    readonly port: number,
  ) {
    this.client = new JsonRpcHttpClient(spec.url(port));
    this.spawnedAt = performance.now();
    this.child = spawn(spec.command ?? process.execPath, spec.args(port), {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "0" },
    });
    live.add(this);
    // Drain both streams (a full pipe would stall the peer), keeping the end for diagnostics.
    const keep = (chunk: Buffer) => {
      this.tail = (this.tail + chunk.toString("utf8")).slice(-OUTPUT_TAIL_CHARS);
    };
    this.child.stdout?.on("data", keep);
    this.child.stderr?.on("data", keep);
    this.exited = new Promise<void>((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.exitInfo = { code, signal };
        live.delete(this);
        resolve();
      });
      this.child.once("error", (e) => {
        this.tail += `\n[spawn error] ${e.message}`;
        this.exitInfo = { code: null, signal: null };
        live.delete(this);
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** The last lines the process printed (stdout and stderr interleaved). */
  outputTail(): string {
    return this.tail;
  }

  describeExit(): string {
    if (this.exitInfo === undefined) return "still running";
    return this.exitInfo.signal !== null ? `killed by ${this.exitInfo.signal}` : `exited with code ${this.exitInfo.code}`;
  }

  /**
   * Polls `eth_chainId` every `intervalMs` until it is answered, and resolves to the time
   * from spawn to that answer, in ms. Fails if the process exits or `timeoutMs` passes.
   */
  async waitUntilServing(intervalMs = 20, timeoutMs = 90_000): Promise<number> {
    for (;;) {
      const attemptAt = performance.now();
      try {
        const chainId = await this.client.call<string>("eth_chainId");
        const elapsed = performance.now() - this.spawnedAt;
        if (BigInt(chainId) !== this.spec.chainId) {
          throw new Error(`${this.spec.name} answered eth_chainId ${chainId}, expected ${this.spec.chainId}`);
        }
        return elapsed;
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
      }
      if (this.hasExited) {
        throw new Error(`${this.spec.name} ${this.describeExit()} before serving; its output:\n${this.tail}`);
      }
      if (performance.now() - this.spawnedAt > timeoutMs) {
        throw new Error(`${this.spec.name} did not answer eth_chainId within ${timeoutMs} ms; its output:\n${this.tail}`);
      }
      const wait = intervalMs - (performance.now() - attemptAt);
      if (wait > 0) await sleep(wait);
    }
  }

  /** Sends SIGTERM to this process (by its pid) and waits for it to exit; SIGKILL after a grace period. */
  async stop(): Promise<void> {
    this.client.close();
    if (this.hasExited) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => {
      if (!this.hasExited) this.child.kill("SIGKILL");
    }, STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Processes started and not yet exited. */
const live = new Set<PeerProcess>();

/** Stops every process this benchmark started that is still running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((p) => p.stop()));
}

/** Last resort when the benchmark process itself exits: signal what is left, synchronously. */
process.on("exit", () => {
  for (const p of live) {
    try {
      p.child.kill("SIGTERM");
    } catch {
      // already gone
    }
  }
});

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Starts `spec` on a free port and waits until it answers; resolves to the process and its start-up time. */
export async function startPeer(spec: PeerSpec): Promise<{ peer: PeerProcess; startupMs: number }> {
  const port = await freePort();
  const peer = new PeerProcess(spec, port);
  try {
    const startupMs = await peer.waitUntilServing();
    return { peer, startupMs };
  } catch (e) {
    await peer.stop();
    throw e;
  }
}
