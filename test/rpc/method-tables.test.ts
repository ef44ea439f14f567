import { expect } from "chai";

import { RpcApi } from "../../src/rpc/api";
import type { NamedParams } from "../../src/rpc/named-params";
import { rejection } from "../helpers/chain";

interface Greeter {
  greeting: string;
}

function greet(greeter: Greeter, params: NamedParams): { text: string } {
  return { text: `${greeter.greeting}, ${params.string("name")}` };
}

function add(_context: undefined, [a, b]: unknown[]): number {
  return Number(a) + Number(b ?? 0);
}

function failWithStack(): never {
  throw new Error("from the method");
}

describe("RpcApi method tables: every method under the full name written in its table", () => {
  it("serves a named method under exactly the names written, with the table's context", async () => {
    const api = new RpcApi().namedMethods<Greeter>({ greeting: "hello" }, { "xvm.greet": greet, "avm.greet": greet });
    expect(await api.dispatch("avm.greet", { name: "ada" })).to.deep.equal({ text: "hello, ada" });
    expect(await api.dispatch("xvm.greet", [{ name: "bob" }])).to.deep.equal({ text: "hello, bob" });
    expect(api.methods).to.deep.equal(["avm.greet", "xvm.greet"]);
  });

  it("does not prefix a table's names with the API's namespaces", () => {
    const api = new RpcApi({ namespaces: ["info"] }).namedMethods<Greeter>({ greeting: "hi" }, { "info.greet": greet });
    expect(api.methods).to.deep.equal(["info.greet"]);
  });

  it("checks a positional method's number of parameters as `positional` does", async () => {
    const api = new RpcApi().positionalMethods(undefined, { eth_add: [[1, 2], add] });
    expect(await api.dispatch("eth_add", [2, 3])).to.equal(5);
    expect(await rejection(api.dispatch("eth_add", []))).to.deep.include({ code: -32602, message: "eth_add expects 1 to 2 parameters, got 0" });
  });

  it("refuses a table name declared twice on one path", () => {
    const api = new RpcApi().positionalMethods(undefined, { eth_add: [2, add] });
    expect(() => api.positionalMethods(undefined, { eth_add: [2, add] })).to.throw("method eth_add is declared twice");
  });

  it("leaves the method's own name in the stack of what it throws", async () => {
    const api = new RpcApi().positionalMethods(undefined, { eth_fail: [0, failWithStack] });
    const error = (await rejection(api.dispatch("eth_fail", []))) as unknown as Error;
    expect(error.stack).to.contain("failWithStack");
  });

  it("hands each method what a scoped API's `around` holds while the method runs", async () => {
    const held: string[] = [];
    let turn = 0;
    const api = RpcApi.scoped<number>({ around: (work) => work(++turn) }).positionalMethods(held, {
      note: [0, (log: string[], _params: unknown[], scope: number) => log.push(`turn ${scope}`)],
    });
    await api.dispatch("note", []);
    await api.dispatch("note", []);
    expect(held).to.deep.equal(["turn 1", "turn 2"]);
  });

  it("an API cannot claim a scope that no `around` hands it", () => {
    // @ts-expect-error: a scope comes only with RpcApi.scoped and its `around` (tsc fails here if that ever changes)
    const api = new RpcApi<number>({});
    expect(api.methods).to.deep.equal([]);
  });
});
