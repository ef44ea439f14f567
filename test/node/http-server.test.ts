import { expect } from "chai";
import * as http from "node:http";

import { RpcError, RpcErrorCode } from "../../src/rpc/errors";
import type { Eip1193Provider, RequestArguments } from "../../src/rpc/types";
import { type HttpNode, providerDispatch, startHttpNode } from "../../src/node/http-server";
import type { Dispatch } from "../../src/rpc/types";

const RPC = "/ext/bc/C/rpc";

/** A tiny EIP-1193 provider standing in for the engine. */
class FakeProvider implements Eip1193Provider {
  readonly requests: RequestArguments[] = [];
  async request(args: RequestArguments): Promise<unknown> {
    this.requests.push(args);
    switch (args.method) {
      case "eth_chainId":
        return "0xa868";
      case "eth_call":
        throw new RpcError(RpcErrorCode.ExecutionReverted, "execution reverted", "0xdeadbeef");
      case "boom":
        throw new Error("engine exploded");
      case "echo":
        return args.params;
      default:
        throw new RpcError(RpcErrorCode.MethodNotFound, `the method ${args.method} does not exist/is not available`);
    }
  }
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
}

/** One HTTP request with node:http, to control headers, agents and bodies exactly. */
function request(
  url: string,
  options: { method?: string; headers?: Record<string, string | number>; body?: string | Buffer; agent?: http.Agent } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? "POST", headers: options.headers, agent: options.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            reusedSocket: req.reusedSocket,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const JSON_HEADERS = { "Content-Type": "application/json" };

describe("HTTP node (startHttpNode)", () => {
  let node: HttpNode | undefined;
  let provider: FakeProvider;

  async function start(extra: { maxBodyBytes?: number; maxBatchSize?: number; log?: (l: string) => void; routes?: Record<string, Dispatch> } = {}) {
    provider = new FakeProvider();
    node = await startHttpNode({
      host: "127.0.0.1",
      port: 0,
      routes: extra.routes ?? { [RPC]: providerDispatch(provider), "/ext/bc/C/cvm": async () => "cvm" },
      maxBodyBytes: extra.maxBodyBytes,
      maxBatchSize: extra.maxBatchSize,
      log: extra.log,
    });
    return node;
  }

  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  it("serves a single JSON-RPC call with 200, a JSON content type and a CORS header", async () => {
    const n = await start();
    const res = await fetch(`${n.url}${RPC}`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.equal("application/json");
    expect(res.headers.get("access-control-allow-origin")).to.equal("*");
    expect(await res.json()).to.deep.equal({ jsonrpc: "2.0", id: 1, result: "0xa868" });
  });

  it("reports the bound port and a base URL when asked for port 0", async () => {
    const n = await start();
    expect(n.port).to.be.greaterThan(0);
    expect(n.host).to.equal("127.0.0.1");
    expect(n.url).to.equal(`http://127.0.0.1:${n.port}`);
  });

  it("serves a batch with results in request order", async () => {
    const n = await start();
    const res = await request(`${n.url}${RPC}`, {
      headers: JSON_HEADERS,
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
        { jsonrpc: "2.0", id: 2, method: "echo", params: ["x"] },
      ]),
    });
    expect(res.status).to.equal(200);
    expect(JSON.parse(res.body)).to.deep.equal([
      { jsonrpc: "2.0", id: 1, result: "0xa868" },
      { jsonrpc: "2.0", id: 2, result: ["x"] },
    ]);
  });

  it("answers a notification with 204 and no body, still running it", async () => {
    const n = await start();
    const res = await request(`${n.url}${RPC}`, {
      headers: JSON_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", method: "echo", params: [] }),
    });
    expect(res.status).to.equal(204);
    expect(res.body).to.equal("");
    expect(provider.requests.map((r) => r.method)).to.deep.equal(["echo"]);
  });

  it("answers malformed JSON with HTTP 200 and a -32700 parse error", async () => {
    const n = await start();
    const res = await request(`${n.url}${RPC}`, { headers: JSON_HEADERS, body: "{not json" });
    expect(res.status).to.equal(200);
    const out = JSON.parse(res.body);
    expect(out.id).to.equal(null);
    expect(out.error.code).to.equal(-32700);
  });

  it("answers an invalid request object with -32600", async () => {
    const n = await start();
    const res = await request(`${n.url}${RPC}`, { headers: JSON_HEADERS, body: JSON.stringify({ id: 1, method: "eth_chainId" }) });
    expect(JSON.parse(res.body).error.code).to.equal(-32600);
  });

  it("passes an RpcError with data through to the HTTP client", async () => {
    const n = await start();
    const res = await request(`${n.url}${RPC}`, {
      headers: JSON_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "eth_call", params: [{}, "latest"] }),
    });
    expect(JSON.parse(res.body)).to.deep.equal({
      jsonrpc: "2.0",
      id: 9,
      error: { code: 3, message: "execution reverted", data: "0xdeadbeef" },
    });
  });

  it("turns an engine exception that is not an RpcError into -32603 without a stack trace", async () => {
    const n = await start();
    const res = await request(`${n.url}${RPC}`, {
      headers: JSON_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "boom" }),
    });
    expect(JSON.parse(res.body).error).to.deep.equal({ code: -32603, message: "engine exploded" });
    expect(res.body).to.not.contain("at ");
  });

  it("routes each path to its own dispatcher and tolerates a trailing slash and a query string", async () => {
    const n = await start();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "cvm.getAtomicTxStatus", params: { txID: "x" } });
    const cvm = await request(`${n.url}/ext/bc/C/cvm/`, { headers: JSON_HEADERS, body });
    expect(JSON.parse(cvm.body).result).to.equal("cvm");
    const rpc = await request(`${n.url}${RPC}/?x=1`, {
      headers: JSON_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
    });
    expect(JSON.parse(rpc.body).result).to.equal("0xa868");
  });

  it("answers an unknown path with 404 and a JSON body naming the path and the served paths", async () => {
    const n = await start();
    const res = await request(`${n.url}/ext/bc/X`, {
      headers: JSON_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "xvm.getBalance" }),
    });
    expect(res.status).to.equal(404);
    expect(res.headers["content-type"]).to.equal("application/json");
    const out = JSON.parse(res.body);
    expect(out.error.message).to.contain("/ext/bc/X");
    expect(out.error.message).to.contain(RPC);
    expect(out.error.data).to.deep.equal({ path: "/ext/bc/X", servedPaths: [RPC, "/ext/bc/C/cvm"] });
  });

  it("answers GET with 405, an Allow header naming POST and a JSON error", async () => {
    const n = await start();
    const res = await request(`${n.url}${RPC}`, { method: "GET" });
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.contain("POST");
    expect(JSON.parse(res.body).error.message).to.contain("POST");
  });

  it("answers a CORS preflight (OPTIONS) with 204 and permissive CORS headers", async () => {
    const n = await start();
    const res = await request(`${n.url}${RPC}`, {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:3000",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });
    expect(res.status).to.equal(204);
    expect(res.headers["access-control-allow-origin"]).to.equal("*");
    expect(res.headers["access-control-allow-methods"]).to.contain("POST");
    expect(res.headers["access-control-allow-headers"]).to.contain("content-type");
  });

  it("answers a non-JSON content type with 415 and a message saying what to send", async () => {
    const n = await start();
    const res = await request(`${n.url}${RPC}`, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
    });
    expect(res.status).to.equal(415);
    expect(JSON.parse(res.body).error.message).to.contain("Content-Type: application/json");
  });

  it("accepts application/json with a charset parameter", async () => {
    const n = await start();
    const res = await request(`${n.url}${RPC}`, {
      headers: { "Content-Type": "Application/JSON; charset=UTF-8" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
    });
    expect(res.status).to.equal(200);
  });

  it("answers a body over the limit with 413 and a -32005 error naming the limit", async () => {
    const n = await start({ maxBodyBytes: 1024 });
    const res = await request(`${n.url}${RPC}`, { headers: JSON_HEADERS, body: " ".repeat(5000) });
    expect(res.status).to.equal(413);
    const out = JSON.parse(res.body);
    expect(out.error.code).to.equal(-32005);
    expect(out.error.message).to.contain("1024 bytes");
    expect(provider.requests).to.have.length(0);
  });

  it("stops reading a chunked upload once it passes the limit, answers 413 and closes the connection", async () => {
    const n = await start({ maxBodyBytes: 1024 });
    const res = await new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      const req = http.request(`${n.url}${RPC}`, { method: "POST", headers: JSON_HEADERS, agent: false }, (r) => {
        r.resume();
        r.on("end", () => resolve({ status: r.statusCode ?? 0, connection: r.headers.connection }));
      });
      req.on("error", reject);
      // Keep streaming: the server must answer without waiting for the end of the upload.
      const timer = setInterval(() => req.write(" ".repeat(4096)), 5);
      req.on("close", () => clearInterval(timer));
      req.on("response", () => {
        clearInterval(timer);
        req.destroy();
      });
      req.write(" ".repeat(4096));
    });
    expect(res.status).to.equal(413);
    expect(res.connection).to.equal("close");
  });

  it("refuses an oversize upload announced with Expect: 100-continue before the body is sent", async () => {
    const n = await start({ maxBodyBytes: 1024 });
    const send = (size: number) =>
      new Promise<{ status: number; continued: boolean; body: string }>((resolve, reject) => {
        let continued = false;
        const req = http.request(`${n.url}${RPC}`, {
          method: "POST",
          agent: false,
          headers: { ...JSON_HEADERS, "Content-Length": size, Expect: "100-continue" },
        });
        req.on("continue", () => {
          continued = true;
          const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" });
          req.end(body.padEnd(size, " "));
        });
        req.on("response", (r) => {
          const chunks: Buffer[] = [];
          r.on("data", (c: Buffer) => chunks.push(c));
          r.on("end", () => resolve({ status: r.statusCode ?? 0, continued, body: Buffer.concat(chunks).toString() }));
        });
        req.on("error", reject);
        req.flushHeaders();
      });
    const refused = await send(5000);
    expect(refused.status).to.equal(413);
    expect(refused.continued).to.equal(false);
    const accepted = await send(100);
    expect(accepted.continued).to.equal(true);
    expect(JSON.parse(accepted.body).result).to.equal("0xa868");
  });

  it("applies the maxBatchSize option to batches", async () => {
    const n = await start({ maxBatchSize: 40 });
    const batch = Array.from({ length: 41 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_chainId" }));
    const res = await request(`${n.url}${RPC}`, { headers: JSON_HEADERS, body: JSON.stringify(batch) });
    expect(JSON.parse(res.body).error.message).to.contain("limit of 40");
  });

  it("passes absent params to the provider as [] and given params unchanged", async () => {
    const n = await start();
    await request(`${n.url}${RPC}`, { headers: JSON_HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo" }) });
    await request(`${n.url}${RPC}`, {
      headers: JSON_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "echo", params: { a: 1 } }),
    });
    expect(provider.requests).to.deep.equal([
      { method: "echo", params: [] },
      { method: "echo", params: { a: 1 } },
    ]);
  });

  it("keeps connections alive so a client reuses one socket for several calls", async () => {
    const n = await start();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" });
      const first = await request(`${n.url}${RPC}`, { headers: JSON_HEADERS, body, agent });
      const second = await request(`${n.url}${RPC}`, { headers: JSON_HEADERS, body, agent });
      const third = await request(`${n.url}/nope`, { headers: JSON_HEADERS, body, agent });
      const fourth = await request(`${n.url}${RPC}`, { headers: JSON_HEADERS, body, agent });
      expect(first.reusedSocket).to.equal(false);
      expect(second.reusedSocket).to.equal(true);
      expect(third.status).to.equal(404);
      expect(fourth.reusedSocket, "a rejected request leaves the connection usable").to.equal(true);
      expect(JSON.parse(fourth.body).result).to.equal("0xa868");
    } finally {
      agent.destroy();
    }
  });

  it("close() resolves promptly while a keep-alive connection is open, and the port stops answering", async () => {
    const n = await start();
    const agent = new http.Agent({ keepAlive: true });
    try {
      await request(`${n.url}${RPC}`, {
        headers: JSON_HEADERS,
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
        agent,
      });
      const started = Date.now();
      await n.close();
      expect(Date.now() - started).to.be.lessThan(1000);
      let failed = false;
      try {
        await request(`${n.url}${RPC}`, { headers: JSON_HEADERS, body: "{}" });
      } catch {
        failed = true;
      }
      expect(failed, "the server still answered after close()").to.equal(true);
      await n.close(); // idempotent
    } finally {
      agent.destroy();
    }
  });

  it("rejects with EADDRINUSE when the port is already taken", async () => {
    const n = await start();
    let error: NodeJS.ErrnoException | undefined;
    try {
      const other = await startHttpNode({ port: n.port, routes: {} });
      await other.close();
    } catch (e) {
      error = e as NodeJS.ErrnoException;
    }
    expect(error?.code).to.equal("EADDRINUSE");
  });

  it("logs each JSON-RPC method called and each rejected HTTP request", async () => {
    const lines: string[] = [];
    const n = await start({ log: (l) => lines.push(l) });
    await request(`${n.url}${RPC}`, {
      headers: JSON_HEADERS,
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
        { jsonrpc: "2.0", id: 2, method: "eth_call" },
      ]),
    });
    await request(`${n.url}/nope`, { method: "GET" });
    expect(lines[0]).to.equal("eth_chainId");
    expect(lines[1]).to.contain("eth_call").and.to.contain("execution reverted");
    expect(lines[2]).to.equal("404 GET /nope");
  });
});
