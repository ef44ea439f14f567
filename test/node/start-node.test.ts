import { expect } from "chai";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { NodeStartError, type ServedNode, startNode } from "../../src/node/start-node";
import { ShutdownSequence } from "../../src/node/shutdown";

/** A node without chains whose steps write to `events`: what startNode does, and in which order. */
function recordingNode(events: string[], listening?: (url: string) => Promise<void>): ServedNode {
  return {
    routes: { "/ext/bc/C/rpc": async (method) => (method === "eth_chainId" ? "0xa868" : null) },
    listening: listening ?? (async () => void events.push("listening")),
    close: async () => void events.push("node closed"),
  };
}

async function chainId(url: string): Promise<unknown> {
  const response = await fetch(`${url}/ext/bc/C/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }) });
  return ((await response.json()) as { result?: unknown }).result;
}

async function refuses(url: string): Promise<boolean> {
  return chainId(url).then(
    () => false,
    () => true,
  );
}

describe("startNode", function () {
  this.timeout(60_000);

  it("builds one node's chains when given none, serves them, and releases them on close", async () => {
    const started = await startNode({ port: 0 });
    expect(started.chains, "the chains it built").to.not.equal(undefined);
    expect(await chainId(started.url)).to.equal("0xa868");
    await started.close();
    expect(await refuses(started.url), "the port still answers after close").to.equal(true);
  });

  it("stops in order: the server, then the services, then the state written, then the node, then the caller's steps", async () => {
    const events: string[] = [];
    const shutdown = new ShutdownSequence();
    shutdown.add(async () => void events.push("log file closed"));
    const started = await startNode({
      port: 0,
      node: recordingNode(events),
      shutdown,
      services: [
        { prefixHandlers: {}, close: async () => void events.push("vault closed") },
        { prefixHandlers: {}, close: async () => void events.push("explorer closed") },
      ],
      beforeRelease: async () => void events.push(`state written (server refuses: ${await refuses(started.url)})`),
    });
    await started.close();
    expect(events).to.deep.equal(["listening", "explorer closed", "vault closed", "state written (server refuses: true)", "node closed", "log file closed"]);
  });

  it("refuses a port in use with a listen-stage error, having released the node and the caller's steps but written no state", async () => {
    const blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const events: string[] = [];
    const shutdown = new ShutdownSequence();
    shutdown.add(async () => void events.push("log file closed"));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const error = await startNode({ port, node: recordingNode(events), shutdown, beforeRelease: async () => void events.push("state written") }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(NodeStartError);
      expect((error as NodeStartError).stage).to.equal("listen");
      expect(((error as NodeStartError).reason as NodeJS.ErrnoException).code).to.equal("EADDRINUSE");
      expect(events).to.deep.equal(["node closed", "log file closed"]);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it("closes the server again when the node fails once it listens (its peers cannot start)", async () => {
    const events: string[] = [];
    let url = "";
    const node = recordingNode(events, async (listeningAt) => {
      url = listeningAt;
      throw new Error("the staking port is taken");
    });
    const prepare = async (served: ServedNode) => void events.push(`prepared ${Object.keys(served.routes).length} route(s)`);
    const error = await startNode({ port: 0, node, prepare }).catch((e: unknown) => e);
    expect((error as NodeStartError).stage).to.equal("listening");
    expect((error as NodeStartError).message).to.equal("the staking port is taken");
    expect(events).to.deep.equal(["prepared 1 route(s)", "node closed"]);
    expect(await refuses(url), "the server still answers").to.equal(true);
  });
});

describe("ShutdownSequence", () => {
  it("stops at the first failing step in an orderly stop, and throws its error", async () => {
    const ran: string[] = [];
    const sequence = new ShutdownSequence();
    sequence.add(async () => void ran.push("first added"));
    sequence.add(async () => {
      throw new Error("cannot close");
    });
    sequence.add(async () => void ran.push("last added"));
    const error = await sequence.stop().catch((e: unknown) => e);
    expect((error as Error).message).to.equal("cannot close");
    expect(ran).to.deep.equal(["last added"]);
  });

  it("runs every step when a start is abandoned, whatever fails, but not the stop-only ones", async () => {
    const ran: string[] = [];
    const sequence = new ShutdownSequence();
    sequence.add(async () => void ran.push("first added"));
    sequence.addOnStop(async () => void ran.push("stop only"));
    sequence.add(async () => {
      throw new Error("cannot close");
    });
    await sequence.abandon();
    expect(ran).to.deep.equal(["first added"]);
  });

  it("releases nothing twice", async () => {
    let closed = 0;
    const sequence = new ShutdownSequence();
    sequence.add(async () => void closed++);
    await sequence.stop();
    await sequence.abandon();
    expect(closed).to.equal(1);
  });
});
