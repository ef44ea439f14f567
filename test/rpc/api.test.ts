import { expect } from "chai";

import { RpcApi } from "../../src/rpc/api";
import { RpcError, RpcErrorCode } from "../../src/rpc/errors";
import { rejection } from "../helpers/chain";

class DomainRefusal extends Error {}

describe("RpcApi: a method table on one path", () => {
  it("serves a named method under each namespace it declares", async () => {
    const api = new RpcApi({ namespaces: ["xvm", "avm"] }).named("echo", (p) => ({ value: p.string("value") }));
    expect(await api.dispatch("xvm.echo", { value: "a" })).to.deep.equal({ value: "a" });
    expect(await api.dispatch("avm.echo", [{ value: "b" }])).to.deep.equal({ value: "b" });
    expect(api.methods).to.deep.equal(["avm.echo", "xvm.echo"]);
  });

  it("answers an unknown method with -32601 and the path's hint", async () => {
    const api = new RpcApi({ namespaces: ["info"], unknownMethodHint: "this path serves info.*" });
    expect(await rejection(api.dispatch("info.nope", {}))).to.deep.include({
      code: RpcErrorCode.MethodNotFound,
      message: "the method info.nope does not exist/is not available (this path serves info.*)",
    });
  });

  it("checks the number of positional parameters", async () => {
    const api = new RpcApi().positional("eth_getBalance", [1, 2], ([a, b]) => [a, b ?? "latest"]);
    expect(await api.dispatch("eth_getBalance", ["0x1"])).to.deep.equal(["0x1", "latest"]);
    expect(await rejection(api.dispatch("eth_getBalance", []))).to.deep.include({ code: -32602, message: "eth_getBalance expects 1 to 2 parameters, got 0" });
    expect(await rejection(api.dispatch("eth_getBalance", { a: 1 }))).to.deep.include({ code: -32602, message: "eth_getBalance expects its params as an array" });
  });

  it("maps domain errors with its mapper and leaves RpcErrors and unknown errors as they are", async () => {
    const api = new RpcApi({ mapError: (e) => (e instanceof DomainRefusal ? new RpcError(RpcErrorCode.ServerError, `refused: ${e.message}`) : undefined) })
      .positional("domain", 0, () => {
        throw new DomainRefusal("no");
      })
      .positional("rpc", 0, () => {
        throw new RpcError(3, "execution reverted", "0x");
      })
      .positional("bug", 0, () => {
        throw new TypeError("oops");
      });
    expect(await rejection(api.dispatch("domain", []))).to.deep.include({ code: -32000, message: "refused: no" });
    expect(await rejection(api.dispatch("rpc", []))).to.deep.include({ code: 3, data: "0x" });
    expect(await rejection(api.dispatch("bug", []))).to.be.instanceOf(TypeError);
  });

  it("runs every call through `around`, parameter checks included", async () => {
    const order: string[] = [];
    const api = new RpcApi({
      around: async (work) => {
        order.push("enter");
        try {
          return await work();
        } finally {
          order.push("leave");
        }
      },
    }).positional("m", 1, ([v]) => order.push(`run ${String(v)}`));
    await api.dispatch("m", ["x"]);
    await rejection(api.dispatch("m", []));
    expect(order).to.deep.equal(["enter", "run x", "leave", "enter", "leave"]);
  });

  it("maps what `around` itself throws (a shared state that refuses to run) with the same mapper", async () => {
    const api = new RpcApi({
      around: () => Promise.reject(new DomainRefusal("stopped")),
      mapError: (e) => (e instanceof DomainRefusal ? new RpcError(RpcErrorCode.InternalError, `the simulator ${e.message}`) : undefined),
    }).positional("m", 0, () => "never");
    expect(await rejection(api.dispatch("m", []))).to.deep.include({ code: -32603, message: "the simulator stopped" });
  });

  it("includes another API's methods, served as that API serves them", async () => {
    const inner = new RpcApi({ mapError: () => new RpcError(-32000, "mapped by inner") }).positional("evm_mine", 0, () => {
      throw new DomainRefusal("x");
    });
    const path = new RpcApi().positional("eth_chainId", 0, () => "0x1").include(inner);
    expect(await path.dispatch("eth_chainId", [])).to.equal("0x1");
    expect(await rejection(path.dispatch("evm_mine", []))).to.deep.include({ message: "mapped by inner" });
    expect(() => path.include(inner)).to.throw("method evm_mine is declared twice");
  });
});
