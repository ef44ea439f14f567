/**
 * Nodes of a local peer network as real `nativekit node` processes: a producer and followers
 * bootstrapping from it, each with its own data directory, staking certificate and free
 * ports. Every process is stopped by pid; `stopAll` checks none is left.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { type CliNode, spawnCliNode, startedCliNode, type CliStart } from "./cli-node";
import { alive } from "./processes";

/** A port free now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface PeerNode {
  node: CliNode;
  nodeID: string;
  stakingPort: number;
  dbDir: string;
  /** The flags it was started with (to restart it the same way). */
  args: string[];
}

export class PeerNodes {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-peers-"));
  private readonly started: CliNode[] = [];
  private count = 0;

  /** Starts a node with a data directory, a staking port and `extra` flags. */
  async start(extra: string[] = [], reuse?: PeerNode): Promise<PeerNode> {
    const stakingPort = reuse?.stakingPort ?? (await freePort());
    const dbDir = reuse?.dbDir ?? path.join(this.root, `node${++this.count}`);
    const args = reuse?.args ?? ["--db-dir", dbDir, "--staking-port", String(stakingPort), "--public-ip", "127.0.0.1", "--index-enabled", ...extra];
    const node = await startedCliNode(args);
    this.started.push(node);
    const { nodeID } = await node.call<{ nodeID: string }>("/ext/info", "info.getNodeID", {});
    return { node, nodeID, stakingPort, dbDir, args };
  }

  /** The flags that make a node follow `producer`. */
  static following(producer: PeerNode, nodeID = producer.nodeID): string[] {
    return ["--bootstrap-ips", `127.0.0.1:${producer.stakingPort}`, "--bootstrap-ids", nodeID];
  }

  /** A node that may refuse to start. */
  async tryStart(args: string[]): Promise<CliStart> {
    const start = await spawnCliNode(args);
    if (start.started) this.started.push(start.node);
    return start;
  }

  async stopAll(): Promise<void> {
    for (const node of this.started.splice(0)) {
      try {
        process.kill(node.pid, "SIGCONT");
      } catch {
        // Already gone.
      }
      await node.stop("SIGKILL");
      expect(alive(node.pid), `node ${node.pid} left running`).to.equal(false);
    }
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** Polls `check` until it returns true (or throws after `timeoutMs`). */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  let last: unknown;
  while (Date.now() - started < timeoutMs) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms${last === undefined ? "" : ` (last error: ${String(last)})`}`);
}

export async function isBootstrapped(node: CliNode): Promise<boolean> {
  return (await node.call<{ isBootstrapped: boolean }>("/ext/info", "info.isBootstrapped", { chain: "C" })).isBootstrapped;
}

export interface HealthAnswer {
  healthy: boolean;
  checks: Record<string, { message: unknown; error?: string }>;
}

export function health(node: CliNode): Promise<HealthAnswer> {
  return node.call<HealthAnswer>("/ext/health", "health.health", {});
}
