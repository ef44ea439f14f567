import { expect } from "chai";
import WebSocket from "ws";

import { type HttpNode, startHttpNode } from "../../src/node/http-server";
import { createWebSocketRpc, SLOW_CONSUMER_CLOSE_CODE, type WebSocketRpcOptions } from "../../src/node/ws-server";
import { RpcError, RpcErrorCode } from "../../src/rpc/errors";
import type { JsonRpcNotification, OpenSession } from "../../src/rpc/types";

/** A session opener for the transport alone: a few methods, and a push the test triggers. */
function testSessions() {
  const pushes: ((n: JsonRpcNotification) => void)[] = [];
  let closed = 0;
  const open: OpenSession = (push) => {
    pushes.push(push);
    return {
      dispatch: async (method, params) => {
        if (method === "echo") return params;
        if (method === "big") return "x".repeat(1024 * 1024);
        throw new RpcError(RpcErrorCode.MethodNotFound, `the method ${method} does not exist`);
      },
      close: () => closed++,
    };
  };
  return {
    open,
    pushAll: (n: JsonRpcNotification) => pushes.forEach((push) => push(n)),
    get closed() {
      return closed;
    },
  };
}

function connect(url: string): Promise<WebSocket> {
  const client = new WebSocket(url);
  return new Promise((resolve, reject) => {
    client.once("open", () => resolve(client));
    client.once("error", reject);
  });
}

function nextMessage(client: WebSocket): Promise<unknown> {
  return new Promise((resolve) => client.once("message", (data) => resolve(JSON.parse(String(data)))));
}

function closeCode(client: WebSocket): Promise<number> {
  return new Promise((resolve) => client.once("close", (code) => resolve(code)));
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

describe("WebSocket JSON-RPC (ws-server)", () => {
  let node: HttpNode;
  let sessions: ReturnType<typeof testSessions>;
  let clients: WebSocket[];
  let lines: string[];

  async function start(options: Partial<WebSocketRpcOptions> = {}, authorize?: (path: string) => Promise<string | undefined>) {
    sessions = testSessions();
    lines = [];
    node = await startHttpNode({
      port: 0,
      routes: {},
      authorize: authorize === undefined ? undefined : (path) => authorize(path),
      upgrade: createWebSocketRpc({ routes: { "/ext/bc/C/ws": sessions.open }, log: (l) => lines.push(l), ...options }),
    });
  }
  const wsUrl = (path = "/ext/bc/C/ws") => `${node.url.replace(/^http/, "ws")}${path}`;
  const open = async (path?: string) => {
    const client = await connect(wsUrl(path));
    clients.push(client);
    return client;
  };
  const call = async (client: WebSocket, text: string) => {
    const answer = nextMessage(client);
    client.send(text);
    return answer;
  };

  beforeEach(() => {
    clients = [];
  });

  afterEach(async () => {
    for (const client of clients) client.terminate();
    await node.close();
  });

  it("answers a JSON-RPC request with the same framing as HTTP", async () => {
    await start();
    const client = await open();
    expect(await call(client, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "echo", params: [1] }))).to.deep.equal({ jsonrpc: "2.0", id: 7, result: [1] });
  });

  it("answers a batch with one array, in order", async () => {
    await start();
    const client = await open();
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "echo", params: ["a"] },
      { jsonrpc: "2.0", id: 2, method: "nope", params: [] },
    ];
    const answer = (await call(client, JSON.stringify(batch))) as { id: number }[];
    expect(answer.map((a) => a.id)).to.deep.equal([1, 2]);
    expect(answer[1]).to.have.nested.property("error.code", -32601);
  });

  it("answers a message that is not JSON with a -32700 parse error", async () => {
    await start();
    const client = await open();
    expect(await call(client, "{not json")).to.have.nested.property("error.code", -32700);
  });

  it("answers an invalid request object with -32600", async () => {
    await start();
    const client = await open();
    expect(await call(client, JSON.stringify({ id: 1, method: "echo" }))).to.have.nested.property("error.code", -32600);
  });

  it("answers every request of a burst far above the requests it runs at once", async () => {
    await start();
    const client = await open();
    const ids = new Set<number>();
    client.on("message", (data) => ids.add((JSON.parse(String(data)) as { id: number }).id));
    for (let i = 0; i < 500; i++) client.send(JSON.stringify({ jsonrpc: "2.0", id: i, method: "echo", params: [i] }));
    await until(() => ids.size === 500, "500 answers");
  });

  it("pushes notifications exactly as the session gives them, without an id", async () => {
    await start();
    const client = await open();
    const message = nextMessage(client);
    const notification: JsonRpcNotification = { jsonrpc: "2.0", method: "eth_subscription", params: { subscription: "0xab", result: 1 } };
    sessions.pushAll(notification);
    expect(await message).to.deep.equal(notification);
  });

  it("closes the session when the client disconnects", async () => {
    await start();
    const client = await open();
    client.close();
    await until(() => sessions.closed === 1, "the session to close");
  });

  it("refuses an upgrade at a path it does not serve with HTTP 404", async () => {
    await start();
    const error = await connect(wsUrl("/ext/bc/X/ws")).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.include("404");
  });

  it("refuses an upgrade the node's authorization refuses with HTTP 401", async () => {
    await start({}, async () => "missing token");
    const error = await connect(wsUrl()).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.include("401");
  });

  it("refuses connections beyond maxConnections with HTTP 503", async () => {
    await start({ maxConnections: 2 });
    await open();
    await open();
    const error = await connect(wsUrl()).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.include("503");
  });

  it("closes a connection that sends a message above maxFrameBytes with 1009", async () => {
    await start({ maxFrameBytes: 1024 });
    const client = await open();
    const code = closeCode(client);
    client.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: ["x".repeat(2048)] }));
    expect(await code).to.equal(1009);
  });

  it("closes a connection that stops reading once its unsent data passes maxBufferedBytes, with 1008", async () => {
    await start({ maxBufferedBytes: 1024 * 1024 });
    const client = await open();
    let received = 0;
    client.on("message", () => received++);
    const code = closeCode(client);
    client.pause();
    // 64 answers of 1 MiB: far more than the socket buffers hold while the client does not read.
    for (let i = 0; i < 64; i++) client.send(JSON.stringify({ jsonrpc: "2.0", id: i, method: "big", params: [] }));
    await until(() => lines.some((l) => l.includes("does not read")), "the server to notice the slow consumer");
    client.resume();
    expect(await code).to.equal(SLOW_CONSUMER_CLOSE_CODE);
    expect(received).to.be.lessThan(64);
    expect(sessions.closed).to.equal(1);
  });

  it("closes every connection with 1001 when the node stops", async () => {
    await start();
    const client = await open();
    const code = closeCode(client);
    await node.close();
    expect(await code).to.equal(1001);
  });
});
