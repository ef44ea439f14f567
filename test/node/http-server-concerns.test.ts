/**
 * Behaviours of the HTTP server's concerns (src/node/http/) that http-server.test.ts does not
 * reach: option checks, a malformed request, an invited body, the private-network preflight
 * and HEAD on a GET route.
 */
import { expect } from "chai";
import * as http from "node:http";
import * as net from "node:net";

import { type HttpNode, startHttpNode } from "../../src/node/http-server";

const RPC = "/ext/bc/C/rpc";
const echo = async (method: string) => method;

/** Writes `text` on a raw connection and resolves with everything the server sent until it closed. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}

function request(
  url: string,
  options: { method: string; headers?: Record<string, string | number>; body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; continued: boolean }> {
  return new Promise((resolve, reject) => {
    let continued = false;
    const expectsContinue = options.headers?.Expect === "100-continue";
    const req = http.request(url, { method: options.method, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), continued }),
      );
    });
    req.on("error", reject);
    if (expectsContinue) {
      req.on("continue", () => {
        continued = true;
        req.end(options.body);
      });
    } else {
      req.end(options.body);
    }
  });
}

describe("HTTP node: its concerns (settings, answers, CORS, body limit)", () => {
  let node: HttpNode | undefined;

  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  describe("option checks", () => {
    it("refuses a port outside 0 to 65535, naming it", async () => {
      const error = await startHttpNode({ port: 70000, routes: {} }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(RangeError);
      expect((error as Error).message).to.equal("port must be an integer from 0 to 65535, got 70000");
    });

    it("refuses a maxBatchSize that is not a positive integer, naming it", async () => {
      const error = await startHttpNode({ port: 0, routes: {}, maxBatchSize: 0 }).catch((e: unknown) => e);
      expect((error as Error).message).to.equal("maxBatchSize must be a positive integer, got 0");
    });

    it("refuses a route path that does not start with a slash", async () => {
      const error = await startHttpNode({ port: 0, routes: { "ext/bc/C/rpc": echo } }).catch((e: unknown) => e);
      expect((error as Error).message).to.equal('route paths must start with "/", got "ext/bc/C/rpc"');
    });

    it("refuses a mounted prefix that does not start with a slash", async () => {
      const error = await startHttpNode({ port: 0, routes: {}, prefixHandlers: { v1: () => undefined } }).catch((e: unknown) => e);
      expect((error as Error).message).to.equal('prefixes must start with "/", got "v1"');
    });
  });

  it("answers a malformed HTTP request with 400, a JSON-RPC error, and closes the connection", async () => {
    node = await startHttpNode({ port: 0, routes: { [RPC]: echo } });
    const answer = await rawExchange(node.port, "NOT HTTP AT ALL\r\n\r\n");
    expect(answer).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).to.contain("Connection: close");
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { error: { code: number; message: string } };
    expect(body.error).to.deep.equal({ code: -32600, message: "malformed HTTP request" });
  });

  it("invites a body within the limit announced with Expect: 100-continue, then serves it", async () => {
    node = await startHttpNode({ port: 0, routes: { [RPC]: echo } });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "eth_chainId" });
    const res = await request(node.url + RPC, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Expect: "100-continue" },
      body,
    });
    expect(res.continued).to.equal(true);
    expect(res.status).to.equal(200);
    expect(JSON.parse(res.body)).to.deep.equal({ jsonrpc: "2.0", id: 7, result: "eth_chainId" });
  });

  it("allows a private-network preflight only when the browser asks for it", async () => {
    node = await startHttpNode({ port: 0, routes: { [RPC]: echo } });
    const asked = await request(node.url + RPC, {
      method: "OPTIONS",
      headers: { Origin: "https://example.com", "Access-Control-Request-Private-Network": "true" },
    });
    expect(asked.status).to.equal(204);
    expect(asked.headers["access-control-allow-private-network"]).to.equal("true");
    const notAsked = await request(node.url + RPC, { method: "OPTIONS", headers: { Origin: "https://example.com" } });
    expect(notAsked.status).to.equal(204);
    expect(notAsked.headers["access-control-allow-private-network"]).to.equal(undefined);
  });

  it("answers HEAD on a GET route with the GET answer's status and headers, and no body", async () => {
    node = await startHttpNode({
      port: 0,
      routes: {},
      getRoutes: { "/ext/health": async () => ({ status: 503, body: { healthy: false } }) },
    });
    const res = await request(node.url + "/ext/health", { method: "HEAD" });
    expect(res.status).to.equal(503);
    expect(res.headers["content-type"]).to.equal("application/json");
    expect(res.headers["content-length"]).to.equal(String(Buffer.byteLength(JSON.stringify({ healthy: false }))));
    expect(res.body).to.equal("");
  });
});
