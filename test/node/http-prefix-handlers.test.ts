import { expect } from "chai";
import { startHttpNode } from "../../src/node/http-server";

describe("HTTP server: services mounted under a path prefix", () => {
  it("hands every method under the prefix to its handler, and keeps the JSON-RPC routes", async () => {
    const server = await startHttpNode({
      port: 0,
      routes: { "/ext/echo": async (method) => method },
      prefixHandlers: { "/v1/thing": (req, res) => res.writeHead(200, { "Content-Type": "text/plain" }).end(`${req.method} ${req.url}`) },
    });
    try {
      expect(await (await fetch(`${server.url}/v1/thing/abc?x=1`, { method: "PUT" })).text()).to.equal("PUT /v1/thing/abc?x=1");
      expect(await (await fetch(`${server.url}/v1/thing`)).text()).to.equal("GET /v1/thing");
      expect((await fetch(`${server.url}/v1/thingamajig`)).status).to.equal(404);
      const rpc = await fetch(`${server.url}/ext/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hi" }) });
      expect(((await rpc.json()) as { result: string }).result).to.equal("hi");
    } finally {
      await server.close();
    }
  });

  it("checks authorize before the mounted handler", async () => {
    const server = await startHttpNode({ port: 0, routes: {}, authorize: async () => "no token", prefixHandlers: { "/v1/thing": (_req, res) => res.end("reached") } });
    try {
      expect((await fetch(`${server.url}/v1/thing`)).status).to.equal(401);
    } finally {
      await server.close();
    }
  });
});
