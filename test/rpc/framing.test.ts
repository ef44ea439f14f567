import { expect } from "chai";

import { RpcError, RpcErrorCode } from "../../src/rpc/errors";
import { handleJsonRpcBody, handleJsonRpcBodyInParts } from "../../src/rpc/framing";
import { JsonText } from "../../src/rpc/json-text";
import type { Dispatch } from "../../src/rpc/types";

/** A dispatcher that echoes its call, records it, and fails on a few method names. */
function fakeDispatch(): Dispatch & { calls: { method: string; params: unknown }[] } {
  const calls: { method: string; params: unknown }[] = [];
  const dispatch = async (method: string, params: unknown): Promise<unknown> => {
    calls.push({ method, params });
    switch (method) {
      case "revert":
        throw new RpcError(RpcErrorCode.ExecutionReverted, "execution reverted", "0x08c379a0");
      case "unknown":
        throw new RpcError(RpcErrorCode.MethodNotFound, "the method unknown does not exist/is not available");
      case "crash":
        throw new TypeError("cannot read properties of undefined");
      case "throwString":
        throw "plain string failure";
      case "codeObject":
        throw { code: -32000, message: "nonce too low", data: { expected: 3 } };
      case "nothing":
        return undefined;
      case "bigint":
        return 1n;
      default:
        return { method, params };
    }
  };
  return Object.assign(dispatch, { calls });
}

const call = (body: unknown) => JSON.stringify(body);
const parse = (text: string | undefined) => JSON.parse(text ?? "null");

describe("JSON-RPC framing (handleJsonRpcBody)", () => {
  it("answers a single call with its result and the same numeric id", async () => {
    const out = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 7, method: "eth_chainId", params: [] }), fakeDispatch()));
    expect(out).to.deep.equal({ jsonrpc: "2.0", id: 7, result: { method: "eth_chainId", params: [] } });
  });

  it("echoes string and null ids exactly", async () => {
    const d = fakeDispatch();
    expect(parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: "abc-1", method: "m" }), d)).id).to.equal("abc-1");
    const nullId = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: null, method: "m" }), d));
    expect(nullId).to.have.property("id", null);
    expect(nullId).to.have.property("result");
  });

  it("passes object params as given and absent or null params as undefined", async () => {
    const d = fakeDispatch();
    await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 1, method: "cvm.getUTXOs", params: { addresses: ["X-a"] } }), d);
    await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 2, method: "eth_blockNumber" }), d);
    await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 3, method: "eth_blockNumber", params: null }), d);
    expect(d.calls).to.deep.equal([
      { method: "cvm.getUTXOs", params: { addresses: ["X-a"] } },
      { method: "eth_blockNumber", params: undefined },
      { method: "eth_blockNumber", params: undefined },
    ]);
  });

  it("answers a batch with one response per call, in request order, running calls one after another", async () => {
    const d = fakeDispatch();
    const out = parse(
      await handleJsonRpcBody(
        call([
          { jsonrpc: "2.0", id: 1, method: "a" },
          { jsonrpc: "2.0", id: "two", method: "revert" },
          { jsonrpc: "2.0", id: 3, method: "c", params: [1] },
        ]),
        d,
      ),
    );
    expect(out.map((r: { id: unknown }) => r.id)).to.deep.equal([1, "two", 3]);
    expect(out[0].result.method).to.equal("a");
    expect(out[1].error.code).to.equal(3);
    expect(out[2].result.params).to.deep.equal([1]);
    expect(d.calls.map((c) => c.method)).to.deep.equal(["a", "revert", "c"]);
  });

  it("runs a notification (no id member) but returns no response", async () => {
    const d = fakeDispatch();
    const out = await handleJsonRpcBody(call({ jsonrpc: "2.0", method: "evm_mine" }), d);
    expect(out).to.equal(undefined);
    expect(d.calls).to.have.length(1);
  });

  it("returns nothing for a batch of only notifications, even failing ones", async () => {
    const d = fakeDispatch();
    const out = await handleJsonRpcBody(
      call([
        { jsonrpc: "2.0", method: "a" },
        { jsonrpc: "2.0", method: "crash" },
      ]),
      d,
    );
    expect(out).to.equal(undefined);
    expect(d.calls).to.have.length(2);
  });

  it("leaves notifications out of a mixed batch", async () => {
    const out = parse(
      await handleJsonRpcBody(
        call([
          { jsonrpc: "2.0", method: "a" },
          { jsonrpc: "2.0", id: 2, method: "b" },
        ]),
        fakeDispatch(),
      ),
    );
    expect(out).to.have.length(1);
    expect(out[0].id).to.equal(2);
  });

  it("answers invalid JSON with a parse error (-32700) and id null", async () => {
    const out = parse(await handleJsonRpcBody('{"jsonrpc":"2.0","id":1,"method":', fakeDispatch()));
    expect(out.id).to.equal(null);
    expect(out.error.code).to.equal(-32700);
    expect(out.error.message).to.match(/^parse error/);
  });

  it("rejects a request without jsonrpc 2.0 with -32600 naming the member, echoing its id", async () => {
    const missing = parse(await handleJsonRpcBody(call({ id: 4, method: "m" }), fakeDispatch()));
    expect(missing).to.deep.include({ id: 4 });
    expect(missing.error.code).to.equal(-32600);
    expect(missing.error.message).to.contain('"jsonrpc"');
    const wrong = parse(await handleJsonRpcBody(call({ jsonrpc: "1.0", id: 5, method: "m" }), fakeDispatch()));
    expect(wrong.error.code).to.equal(-32600);
    expect(wrong.error.message).to.contain('"2.0"');
  });

  it("rejects a non-string method with -32600 and does not dispatch it", async () => {
    const d = fakeDispatch();
    const out = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 1, method: 42 }), d));
    expect(out.error.code).to.equal(-32600);
    expect(out.error.message).to.contain('"method" must be a string');
    expect(d.calls).to.have.length(0);
  });

  it("rejects params that are neither array nor object with -32600", async () => {
    const out = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 1, method: "m", params: "bar" }), fakeDispatch()));
    expect(out.error.code).to.equal(-32600);
    expect(out.error.message).to.contain('"params" must be an array or an object');
  });

  it("rejects an id that is neither string, number nor null, answering with id null", async () => {
    const out = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: { x: 1 }, method: "m" }), fakeDispatch()));
    expect(out.id).to.equal(null);
    expect(out.error.code).to.equal(-32600);
    expect(out.error.message).to.contain('"id"');
  });

  it("answers each non-object batch item with its own -32600 error", async () => {
    const out = parse(await handleJsonRpcBody("[1, 2]", fakeDispatch()));
    expect(out).to.have.length(2);
    for (const r of out) {
      expect(r.id).to.equal(null);
      expect(r.error.code).to.equal(-32600);
    }
  });

  it("answers an empty batch with a single -32600 error object", async () => {
    const out = parse(await handleJsonRpcBody("[]", fakeDispatch()));
    expect(out).to.not.be.an("array");
    expect(out.error.code).to.equal(-32600);
    expect(out.error.message).to.contain("empty batch");
  });

  it("rejects a batch above the configured limit with an error naming the limit, dispatching nothing", async () => {
    const d = fakeDispatch();
    const batch = Array.from({ length: 41 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "m" }));
    const out = parse(await handleJsonRpcBody(call(batch), d, { maxBatchSize: 40 }));
    expect(out.error.code).to.equal(-32600);
    expect(out.error.message).to.contain("limit of 40");
    expect(d.calls).to.have.length(0);
    const ok = parse(await handleJsonRpcBody(call(batch.slice(0, 40)), d, { maxBatchSize: 40 }));
    expect(ok).to.have.length(40);
  });

  it("accepts batches of up to 1000 calls by default", async () => {
    const batch = Array.from({ length: 1001 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "m" }));
    expect(parse(await handleJsonRpcBody(call(batch.slice(0, 1000)), fakeDispatch()))).to.have.length(1000);
    expect(parse(await handleJsonRpcBody(call(batch), fakeDispatch())).error.message).to.contain("limit of 1000");
  });

  it("passes an RpcError's code, message and data through", async () => {
    const out = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 1, method: "revert" }), fakeDispatch()));
    expect(out).to.deep.equal({
      jsonrpc: "2.0",
      id: 1,
      error: { code: 3, message: "execution reverted", data: "0x08c379a0" },
    });
  });

  it("passes a dispatcher's -32601 for an unknown method through", async () => {
    const out = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 1, method: "unknown" }), fakeDispatch()));
    expect(out.error.code).to.equal(-32601);
  });

  it("passes through any thrown object with a numeric code and a string message", async () => {
    const out = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 1, method: "codeObject" }), fakeDispatch()));
    expect(out.error).to.deep.equal({ code: -32000, message: "nonce too low", data: { expected: 3 } });
  });

  it("turns any other exception into -32603 with its message and no stack trace", async () => {
    const out = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 1, method: "crash" }), fakeDispatch()));
    expect(out.error).to.deep.equal({ code: -32603, message: "cannot read properties of undefined" });
    const str = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 2, method: "throwString" }), fakeDispatch()));
    expect(str.error).to.deep.equal({ code: -32603, message: "plain string failure" });
  });

  it("answers an undefined result with result null", async () => {
    const out = parse(await handleJsonRpcBody(call({ jsonrpc: "2.0", id: 1, method: "nothing" }), fakeDispatch()));
    expect(out).to.deep.equal({ jsonrpc: "2.0", id: 1, result: null });
  });

  it("answers a result that cannot be serialized with -32603 for that call only", async () => {
    const out = parse(
      await handleJsonRpcBody(
        call([
          { jsonrpc: "2.0", id: 1, method: "bigint" },
          { jsonrpc: "2.0", id: 2, method: "ok" },
        ]),
        fakeDispatch(),
      ),
    );
    expect(out[0].error.code).to.equal(-32603);
    expect(out[1].result.method).to.equal("ok");
  });

  it("puts a result given as JSON text in the response as it is, in parts, in a batch too", async () => {
    const text = '[{"a":1},{"b":"two"}]';
    const dispatch: Dispatch = async () => new JsonText(['[{"a":1},', '{"b":"two"}]']);
    const single = await handleJsonRpcBody(call({ jsonrpc: "2.0", id: "x", method: "eth_getLogs", params: [] }), dispatch);
    expect(single).to.equal(`{"jsonrpc":"2.0","id":"x","result":${text}}`);
    const parts = await handleJsonRpcBodyInParts(call({ jsonrpc: "2.0", id: "x", method: "eth_getLogs", params: [] }), dispatch);
    expect(parts).to.deep.equal(['{"jsonrpc":"2.0","id":"x","result":', '[{"a":1},', '{"b":"two"}]', "}"]);
    const batch = parse(await handleJsonRpcBody(call([{ jsonrpc: "2.0", id: 1, method: "m" }, { jsonrpc: "2.0", id: 2, method: "m" }]), dispatch));
    expect(batch).to.deep.equal([1, 2].map((id) => ({ jsonrpc: "2.0", id, result: [{ a: 1 }, { b: "two" }] })));
  });

  it("JSON text serialized anywhere else gives the same value", () => {
    expect(JSON.parse(JSON.stringify({ result: new JsonText(['{"n":', "[1,2]}"]) }))).to.deep.equal({ result: { n: [1, 2] } });
  });
});
