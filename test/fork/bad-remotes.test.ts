import { expect } from "chai";
import { Engine } from "../../src/engine/engine";
import { ForkRemoteError } from "../../src/engine/errors";
import { HttpRemote, RemoteCallError } from "../../src/engine/fork/remote";
import { rpcResult, startScriptedRemote, type TestServer } from "../helpers/fork";

/** What the promise rejected with. */
async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure");
}

describe("fork: remotes that fail", function () {
  this.timeout(30_000);
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("a remote answering something that is not JSON is an error naming the remote and the call, not retried", async () => {
    server = await startScriptedRemote(async () => ({ body: "<html>bad gateway</html>" }));
    const remote = new HttpRemote({ url: server.url, backoffMs: 1 });
    const error = await failureOf(remote.call("eth_getBalance", ["0x00", "0x1"]));
    expect(error).to.be.instanceOf(ForkRemoteError);
    expect(error.message).to.include(server.url.replace(/\/$/, "")).and.include("(eth_getBalance)").and.include("not JSON");
    expect(server.methods).to.have.length(1);
  });

  it("a remote answering JSON that is not JSON-RPC is an error too", async () => {
    server = await startScriptedRemote(async () => ({ body: JSON.stringify({ hello: "world" }) }));
    const error = await failureOf(new HttpRemote({ url: server.url }).call("eth_chainId", []));
    expect(error.message).to.match(/\(eth_chainId\): the answer is not a JSON-RPC response/);
  });

  it("retries after HTTP 429, honouring Retry-After, until the remote answers", async () => {
    let calls = 0;
    server = await startScriptedRemote(async (_m, body) => (++calls < 3 ? { status: 429, headers: { "retry-after": "0" }, body: "slow down" } : { body: rpcResult(body.id, "0x2a") }));
    expect(await new HttpRemote({ url: server.url, backoffMs: 5_000 }).call("eth_chainId", [])).to.equal("0x2a");
    expect(server.methods).to.have.length(3);
  });

  it("retries a rate-limit JSON-RPC error with backoff; other JSON-RPC errors are the remote's answer", async () => {
    let calls = 0;
    server = await startScriptedRemote(async (method, body) =>
      method === "eth_call"
        ? { body: JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: 3, message: "execution reverted" } }) }
        : ++calls < 2
          ? { body: JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32005, message: "request rate exceeded" } }) }
          : { body: rpcResult(body.id, "0x1") },
    );
    const remote = new HttpRemote({ url: server.url, backoffMs: 1 });
    expect(await remote.call("eth_blockNumber", [])).to.equal("0x1");
    const error = await failureOf(remote.call("eth_call", [{}]));
    expect(error).to.be.instanceOf(RemoteCallError);
    expect(server.methods.filter((m) => m === "eth_call")).to.have.length(1);
  });

  it("gives up on a remote that does not answer after the timeout and the retries", async () => {
    server = await startScriptedRemote(async () => "hang");
    const error = await failureOf(new HttpRemote({ url: server.url, timeoutMs: 100, retries: 2, backoffMs: 1 }).call("eth_chainId", []));
    expect(error).to.be.instanceOf(ForkRemoteError);
    expect(error.message).to.include("no answer within 100 ms");
    expect(server.methods).to.have.length(3);
  });

  it("does not wait out the backoff when nothing listens at the remote's address", async () => {
    const closed = await startScriptedRemote(async () => ({ body: "" }));
    await closed.close();
    const started = Date.now();
    const error = await failureOf(new HttpRemote({ url: closed.url, backoffMs: 10_000 }).call("eth_chainId", []));
    expect(error.message).to.include("ECONNREFUSED");
    expect(Date.now() - started).to.be.below(5_000);
  });

  it("sends concurrent identical requests once", async () => {
    server = await startScriptedRemote(async (_m, body) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { body: rpcResult(body.id, "0x5") };
    });
    const remote = new HttpRemote({ url: server.url });
    const answers = await Promise.all([1, 2, 3, 4].map(() => remote.call("eth_getBalance", ["0xab", "0x1"])));
    expect(answers).to.deep.equal(["0x5", "0x5", "0x5", "0x5"]);
    expect(server.methods).to.have.length(1);
  });

  it("keeps at most maxConcurrent requests in flight", async () => {
    let inFlight = 0;
    let most = 0;
    server = await startScriptedRemote(async (_m, body) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return { body: rpcResult(body.id, "0x0") };
    });
    const remote = new HttpRemote({ url: server.url, maxConcurrent: 3 });
    await Promise.all([...Array(10).keys()].map((i) => remote.call("eth_getBalance", [`0x${i}`, "0x1"])));
    expect(most).to.equal(3);
  });

  it("keeps under the requests-per-second limit", async () => {
    server = await startScriptedRemote(async (_m, body) => ({ body: rpcResult(body.id, "0x0") }));
    const remote = new HttpRemote({ url: server.url, requestsPerSecond: 20 });
    const started = Date.now();
    await Promise.all([0, 1, 2, 3, 4].map((i) => remote.call("eth_getBalance", [`0x${i}`, "0x1"])));
    expect(Date.now() - started).to.be.at.least(190);
  });

  it("refuses to start a fork on a remote whose block is garbage, naming the remote and the call", async () => {
    server = await startScriptedRemote(async (method, body) => ({
      body: rpcResult(body.id, method === "eth_chainId" ? "0xa868" : method === "eth_getBlockByNumber" ? { number: "zz" } : null),
    }));
    const error = await failureOf(Engine.create({ forking: { url: server.url, blockNumber: 1, cacheDir: false } }));
    expect(error).to.be.instanceOf(ForkRemoteError);
    expect(error.message).to.include("(eth_getBlockByNumber)");
  });

  it("a remote refusing a state read (a pruned node) is a fork error naming the remote and the call", async () => {
    const block = { number: "0x1", hash: "0x" + "22".repeat(32), timestamp: "0x1", gasLimit: "0x1c9c380", baseFeePerGas: "0x1" };
    server = await startScriptedRemote(async (method, body) => {
      if (method === "eth_chainId") return { body: rpcResult(body.id, "0x7a69") };
      if (method === "eth_getBlockByNumber") return { body: rpcResult(body.id, block) };
      return { body: JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32000, message: "missing trie node 0xabc" } }) };
    });
    const engine = await Engine.create({ forking: { url: server.url, blockNumber: 1, cacheDir: false }, accounts: [], log: () => {} });
    const { createAddressFromString } = await import("@ethereumjs/util");
    const error = await failureOf(engine.getAccount(createAddressFromString("0x00000000000000000000000000000000000000bb"), engine.head));
    expect(error).to.be.instanceOf(ForkRemoteError);
    expect(error.message).to.match(/^fork remote http:\/\/127\.0\.0\.1:\d+\/ \(eth_get\w+\): missing trie node 0xabc \(code -32000\)$/);
  });

  it("builds no state from a garbage account answer: the read fails, and a later good answer is used whole", async () => {
    let garbage = true;
    const block = { number: "0x1", hash: "0x" + "11".repeat(32), timestamp: "0x1", gasLimit: "0x1c9c380", baseFeePerGas: "0x5d21dba00" };
    server = await startScriptedRemote(async (method, body) => {
      const answers: Record<string, unknown> = {
        eth_chainId: "0x7a69",
        eth_getBlockByNumber: block,
        eth_getBalance: "0x64",
        eth_getTransactionCount: "0x3",
        eth_getCode: garbage ? "not hex" : "0x",
      };
      if (!(method in answers)) return { body: JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32601, message: "method not found" } }) };
      return { body: rpcResult(body.id, answers[method]) };
    });
    const engine = await Engine.create({ forking: { url: server.url, blockNumber: 1, cacheDir: false }, accounts: [] });
    const { createAddressFromString } = await import("@ethereumjs/util");
    const address = createAddressFromString("0x00000000000000000000000000000000000000aa");
    const error = await failureOf(engine.getAccount(address, engine.head));
    expect(error.message).to.include("(eth_getCode): expected hex data");
    garbage = false;
    const account = await engine.getAccount(address, engine.head);
    expect([account.balance, account.nonce]).to.deep.equal([100n, 3n]);
  });
});
