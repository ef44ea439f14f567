import { expect } from "chai";

import {
  createTransport,
  NodeApiError,
  NodeConnectionError,
  NodeHttpError,
  NodeResponseError,
  NodeTimeoutError,
  parseJsonLossless,
} from "../../src/clients";
import { closedPort, type FakeNode, rejectionOf, startFakeNode } from "./fake-node";

describe("clients/transport", () => {
  let node: FakeNode;
  before(async () => {
    node = await startFakeNode();
  });
  after(() => node.close());
  beforeEach(() => node.reset());

  describe("requests", () => {
    it("posts a JSON-RPC 2.0 request to the base URL plus the path", async () => {
      node.on("/ext/info", "info.getNetworkName", { result: { networkName: "local" } });
      const transport = createTransport({ url: node.url });
      const result = await transport.call("/ext/info", "info.getNetworkName", { a: 1 });
      expect(result).to.deep.equal({ networkName: "local" });
      const [request] = node.requests;
      expect(request!.path).to.equal("/ext/info");
      expect(request!.body).to.include({ jsonrpc: "2.0", method: "info.getNetworkName" });
      expect(request!.body.id).to.be.a("number");
      expect(request!.params).to.deep.equal({ a: 1 });
      expect(request!.headers["content-type"]).to.equal("application/json");
    });

    it("sends an empty params object when none is given (the reference node requires the member)", async () => {
      node.on("/ext/info", "info.getNetworkID", { result: { networkID: "12345" } });
      await createTransport({ url: node.url }).call("/ext/info", "info.getNetworkID");
      expect(node.requests[0]!.params).to.deep.equal({});
    });

    it("sends the configured headers, e.g. a bearer token", async () => {
      node.on("/ext/info", "info.getNetworkID", { result: { networkID: 1 } });
      await createTransport({ url: node.url, headers: { Authorization: "Bearer tok3n" } }).call("/ext/info", "info.getNetworkID");
      expect(node.requests[0]!.headers.authorization).to.equal("Bearer tok3n");
    });

    it("accepts a base URL with a trailing slash", async () => {
      node.on("/ext/info", "info.getNetworkID", { result: { networkID: 1 } });
      const transport = createTransport({ url: `${node.url}/` });
      expect(transport.url).to.equal(node.url);
      await transport.call("/ext/info", "info.getNetworkID");
      expect(node.requests[0]!.path).to.equal("/ext/info");
    });

    it("rejects a URL that already names an API path, showing the base URL to use", () => {
      expect(() => createTransport({ url: "http://127.0.0.1:9650/ext/bc/C/rpc" })).to.throw(
        TypeError,
        '"http://127.0.0.1:9650"',
      );
    });

    it("uses the fetch function given in the options", async () => {
      const seen: string[] = [];
      const transport = createTransport({
        url: "http://node.invalid:9650",
        fetch: async (input, init) => {
          seen.push(`${input} ${String(init.body)}`);
          return new Response(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { ok: true } }), { status: 200 });
        },
      });
      expect(await transport.call("/ext/info", "info.x")).to.deep.equal({ ok: true });
      expect(seen[0]).to.match(/^http:\/\/node\.invalid:9650\/ext\/info \{"jsonrpc":"2.0","id":1,"method":"info.x"/);
    });
  });

  describe("node errors", () => {
    it("throws NodeApiError with the node's code, message (verbatim) and data, and names method and path", async () => {
      node.on("/ext/bc/X", "xvm.send", { error: { code: -32000, message: "insufficient funds", data: { need: "5" } } });
      const error = await rejectionOf(createTransport({ url: node.url }).call("/ext/bc/X", "xvm.send", {}));
      expect(error).to.be.instanceOf(NodeApiError);
      const apiError = error as NodeApiError;
      expect(apiError.message).to.equal("xvm.send failed: insufficient funds (code -32000)");
      expect(apiError.code).to.equal(-32000);
      expect(apiError.nodeMessage).to.equal("insufficient funds");
      expect(apiError.data).to.deep.equal({ need: "5" });
      expect(apiError.method).to.equal("xvm.send");
      expect(apiError.path).to.equal("/ext/bc/X");
    });
  });

  describe("HTTP and network errors", () => {
    it("reports a 404 with the path and a hint to switch naming for a missing seed path", async () => {
      const error = await rejectionOf(createTransport({ url: node.url }).call("/ext/bc/C/cvm", "cvm.getUTXOs", {}));
      expect(error).to.be.instanceOf(NodeHttpError);
      expect((error as NodeHttpError).status).to.equal(404);
      expect(error.message).to.contain("cvm.getUTXOs failed: HTTP 404 Not Found: nothing is served at /ext/bc/C/cvm");
      expect(error.message).to.contain('naming: "reference"');
      expect(error.message).to.contain("404 page not found");
    });

    it("gives no naming hint on a 404 when the node lists its paths and the other naming's path is not among them", async () => {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "no JSON-RPC endpoint at /ext/bc/C/cvm", data: { path: "/ext/bc/C/cvm", servedPaths: ["/ext/bc/C/rpc"] } },
      });
      node.on("/ext/bc/C/cvm", "cvm.getUTXOs", { status: 404, body, contentType: "application/json" });
      const error = await rejectionOf(createTransport({ url: node.url }).call("/ext/bc/C/cvm", "cvm.getUTXOs", {}));
      expect(error.message).to.not.contain("naming");
      expect(error.message).to.contain("the node said: no JSON-RPC endpoint at /ext/bc/C/cvm (code -32600)");
      expect((error as NodeHttpError).rpcError?.code).to.equal(-32600);
    });

    it("reports a 5xx status with the start of its body", async () => {
      node.on("/ext/info", "info.getNetworkID", { status: 502, body: "<html>bad gateway</html>", contentType: "text/html" });
      const error = await rejectionOf(createTransport({ url: node.url }).call("/ext/info", "info.getNetworkID"));
      expect(error).to.be.instanceOf(NodeHttpError);
      expect(error.message).to.match(/^info\.getNetworkID failed: HTTP 502 Bad Gateway from http:\/\/127\.0\.0\.1:\d+\/ext\/info; body: "<html>bad gateway<\/html>"$/);
    });

    it("reports a 401 with how to pass a bearer token", async () => {
      node.on("/ext/info", "info.getNetworkID", { status: 401, body: "unauthorized" });
      const error = await rejectionOf(createTransport({ url: node.url }).call("/ext/info", "info.getNetworkID"));
      expect(error.message).to.contain('Authorization: "Bearer <token>"');
    });

    it("reports a 200 answer that is not JSON as NodeResponseError", async () => {
      node.on("/ext/info", "info.getNetworkID", { status: 200, body: "<html>welcome</html>", contentType: "text/html" });
      const error = await rejectionOf(createTransport({ url: node.url }).call("/ext/info", "info.getNetworkID"));
      expect(error).to.be.instanceOf(NodeResponseError);
      expect(error.message).to.contain("not JSON (text/html)");
    });

    it("reports a refused connection as 'cannot reach the node at … — is it running?'", async () => {
      const port = await closedPort();
      const error = await rejectionOf(createTransport({ url: `http://127.0.0.1:${port}` }).call("/ext/info", "info.getNetworkID"));
      expect(error).to.be.instanceOf(NodeConnectionError);
      expect(error.message).to.contain(`info.getNetworkID failed: cannot reach the node at http://127.0.0.1:${port} — is it running?`);
      expect((error as NodeConnectionError).reason).to.equal("ECONNREFUSED");
    });

    it("gives up after timeoutMs with NodeTimeoutError", async () => {
      node.on("/ext/info", "info.getNetworkID", { hang: true });
      const started = Date.now();
      const error = await rejectionOf(createTransport({ url: node.url, timeoutMs: 50 }).call("/ext/info", "info.getNetworkID"));
      expect(error).to.be.instanceOf(NodeTimeoutError);
      expect(error.message).to.contain("within 50 ms");
      expect(Date.now() - started).to.be.below(2000);
    });

    it("rejects with the abort reason when the caller's signal aborts", async () => {
      node.on("/ext/info", "info.getNetworkID", { hang: true });
      const controller = new AbortController();
      const pending = createTransport({ url: node.url }).call("/ext/info", "info.getNetworkID", {}, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error("user cancelled")), 10);
      expect((await rejectionOf(pending)).message).to.equal("user cancelled");
    });
  });

  describe("parseJsonLossless", () => {
    it("turns integers beyond 2^53 into exact decimal strings", () => {
      expect(parseJsonLossless('{"balance":18446744073709551615,"small":42}')).to.deep.equal({
        balance: "18446744073709551615",
        small: 42,
      });
    });

    it("leaves digits inside strings and non-integer numbers alone", () => {
      expect(parseJsonLossless('["12345678901234567890\\"1234567890123456789", 1.2345678901234567e30]')).to.deep.equal([
        '12345678901234567890"1234567890123456789',
        1.2345678901234567e30,
      ]);
    });
  });
});
