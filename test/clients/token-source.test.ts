import { expect } from "chai";

import { createTransport, withTokenSource } from "../../src/clients";

import { type FakeNode, rejectionOf, startFakeNode } from "./fake-node";

describe("clients/token-source: the bearer token a service sends to an auth-required node", () => {
  let node: FakeNode;
  before(async () => {
    node = await startFakeNode();
  });
  after(() => node.close());
  beforeEach(() => node.reset());

  const unauthorized = { status: 401, body: "unauthorized" } as const;

  it("sends a fixed token with every call", async () => {
    node.on("/ext/info", "info.getNetworkID", { result: { networkID: "12345" } });
    const transport = withTokenSource(createTransport({ url: node.url }), "fixed.token.value");
    await transport.call("/ext/info", "info.getNetworkID");
    await transport.call("/ext/info", "info.getNetworkID");
    expect(node.calls("info.getNetworkID").map((r) => r.headers.authorization)).to.deep.equal(["Bearer fixed.token.value", "Bearer fixed.token.value"]);
  });

  it("asks a token function once and reuses its token", async () => {
    node.on("/ext/info", "info.getNetworkID", { result: { networkID: "12345" } });
    let asked = 0;
    const transport = withTokenSource(createTransport({ url: node.url }), async () => `token-${++asked}`);
    await Promise.all([transport.call("/ext/info", "info.getNetworkID"), transport.call("/ext/info", "info.getNetworkID")]);
    expect(asked).to.equal(1);
    expect(node.calls("info.getNetworkID").map((r) => r.headers.authorization)).to.deep.equal(["Bearer token-1", "Bearer token-1"]);
  });

  it("asks for a fresh token and sends the call again once when the node answers 401", async () => {
    node.on("/ext/info", "info.getNetworkID", unauthorized, { result: { networkID: "12345" } });
    let asked = 0;
    const transport = withTokenSource(createTransport({ url: node.url }), async () => `token-${++asked}`);
    expect(await transport.call("/ext/info", "info.getNetworkID")).to.deep.equal({ networkID: "12345" });
    expect(node.calls("info.getNetworkID").map((r) => r.headers.authorization)).to.deep.equal(["Bearer token-1", "Bearer token-2"]);
  });

  it("passes a second 401 on instead of asking for tokens without end", async () => {
    node.on("/ext/info", "info.getNetworkID", unauthorized);
    let asked = 0;
    const transport = withTokenSource(createTransport({ url: node.url }), async () => `token-${++asked}`);
    const error = await rejectionOf(transport.call("/ext/info", "info.getNetworkID"));
    expect(error.message).to.include("401");
    expect(asked).to.equal(2);
  });

  it("refuses an empty token or one with spaces before sending anything", async () => {
    expect(() => withTokenSource(createTransport({ url: node.url }), "")).to.throw(TypeError, /non-empty string without spaces/);
    const transport = withTokenSource(createTransport({ url: node.url }), async () => "two words");
    const error = await rejectionOf(transport.call("/ext/info", "info.getNetworkID"));
    expect(error).to.be.instanceOf(TypeError);
    expect(node.requests).to.have.length(0);
  });

  it("asks again after the token function failed", async () => {
    node.on("/ext/info", "info.getNetworkID", { result: { networkID: "12345" } });
    let asked = 0;
    const transport = withTokenSource(createTransport({ url: node.url }), async () => {
      asked++;
      if (asked === 1) throw new Error("auth.newToken failed");
      return "token-2";
    });
    expect((await rejectionOf(transport.call("/ext/info", "info.getNetworkID"))).message).to.equal("auth.newToken failed");
    await transport.call("/ext/info", "info.getNetworkID");
    expect(node.calls("info.getNetworkID")[0]!.headers.authorization).to.equal("Bearer token-2");
  });

  it("calls refused together share one fresh token", async () => {
    let refused = 0;
    node.on("/ext/info", "info.getNetworkID", (request) => (request.headers.authorization === "Bearer token-1" && ++refused <= 3 ? unauthorized : { result: { networkID: "12345" } }));
    let asked = 0;
    const transport = withTokenSource(createTransport({ url: node.url }), async () => `token-${++asked}`);
    await Promise.all([1, 2, 3].map(() => transport.call("/ext/info", "info.getNetworkID")));
    expect(asked).to.equal(2);
  });
});
