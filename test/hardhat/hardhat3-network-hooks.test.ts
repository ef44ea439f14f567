import { expect } from "chai";
import hre from "hardhat";
import { SolidityError } from "../../src/hardhat/solidity/solidity-error";
import { refusalOf } from "../helpers/refusal";
import { resolveNativekitConfig } from "../../src/hardhat/config";
import { createNetworkHooks } from "../../src/hardhat/hardhat3/network-hooks";
import { sourceEngineThread } from "../helpers/engine-thread";
import { nativeAssetMatchers } from "../../src/hardhat/matchers";
import type { ChaiLike, HookContext, JsonRpcRequest, JsonRpcResponse, NetworkConnection, NetworkHooks } from "../../src/hardhat/hardhat3/types";

/** A fixed gas limit unlike the default (the block gas limit), so its use is visible. */
const CONFIGURED_GAS = 5_000_000;
const ASSET = "0x" + "c3".repeat(32);
/** Init code that reverts with the four bytes 0xdeadbeef: PUSH4 deadbeef, PUSH1 0, MSTORE, PUSH1 4, PUSH1 28, REVERT. */
const REVERTING_INIT_CODE = "0x63deadbeef6000526004601cfd";

/** The hooks' context: the chains on this thread (the default), or in the engine thread (`workerThread: true`). */
function contextWith(workerThread: boolean): HookContext {
  return {
    config: {
      paths: { root: "/project", cache: "/project/cache" },
      nativekit: { ...resolveNativekitConfig({ gas: CONFIGURED_GAS, loggingEnabled: false, workerThread }), inProcessNetworks: ["nativekit"] },
    },
  };
}
const context = contextWith(false);

let nextId = 1;
function connection(networkName = "nativekit"): NetworkConnection {
  return {
    id: nextId++,
    networkName,
    provider: { request: async () => Promise.reject(new Error("the connection's own provider must not be used")) },
    close: async () => {},
  };
}

/** `next` for requests the hooks should have answered themselves. */
async function unexpectedNext(): Promise<JsonRpcResponse> {
  throw new Error("the request went to next");
}

function resultOf(response: JsonRpcResponse): unknown {
  if ("error" in response) throw new Error(`unexpected error response ${JSON.stringify(response.error)}`);
  return response.result;
}

/** One engine thread for the file, run from the sources. */
const engineThread = sourceEngineThread();

describe("Hardhat 3 network hooks", () => {
  after(async () => engineThread.terminate());

  for (const workerThread of [true, false]) describe(`onRequest on an in-process network, ${workerThread ? "in the engine thread (workerThread: true)" : "on Hardhat's thread"}`, () => {
    const context = contextWith(workerThread);
    const hooks = createNetworkHooks({ importChai: async () => undefined }, () => engineThread) as NetworkHooks;
    const shared = connection();
    let id = 100;
    const send = (conn: NetworkConnection, method: string, params?: JsonRpcRequest["params"]) => hooks.onRequest(context, conn, { jsonrpc: "2.0", id: id++, method, params }, unexpectedNext);
    const call = async (conn: NetworkConnection, method: string, params?: JsonRpcRequest["params"]) => resultOf(await send(conn, method, params));
    let sender: string;

    before(async () => {
      [sender] = (await call(shared, "eth_accounts", [])) as string[];
    });

    after(async () => {
      await hooks.closeConnection(context, shared, async () => {});
    });

    it("answers eth_chainId with the default chain ID 0xa868, with the request's id", async () => {
      const response = await hooks.onRequest(context, shared, { jsonrpc: "2.0", id: "abc", method: "eth_chainId", params: [] }, unexpectedNext);
      expect(response).to.deep.equal({ jsonrpc: "2.0", id: "abc", result: "0xa868" });
    });

    it("answers an unknown method with a JSON-RPC error response carrying the code and message", async () => {
      const response = await hooks.onRequest(context, shared, { jsonrpc: "2.0", id: 9, method: "nativekit_noSuchMethod", params: [] }, unexpectedNext);
      expect(response).to.deep.equal({ jsonrpc: "2.0", id: 9, error: { code: -32601, message: "the method nativekit_noSuchMethod does not exist/is not available" } });
    });

    it("answers a reverting eth_call with an error response carrying the revert data", async () => {
      const response = await send(shared, "eth_call", [{ from: sender, data: REVERTING_INIT_CODE }, "latest"]);
      expect(response).to.deep.include({ jsonrpc: "2.0" });
      expect("error" in response && response.error).to.deep.equal({ code: 3, message: "execution reverted", data: "0xdeadbeef" });
    });

    it("answers a failing eth_sendTransaction with an error response carrying the revert data", async () => {
      const response = await send(shared, "eth_sendTransaction", [{ from: sender, data: REVERTING_INIT_CODE }]);
      expect("error" in response && response.error).to.deep.equal({ code: 3, message: "execution reverted", data: "0xdeadbeef" });
    });

    it("throws a failed call of a contract the build infos have with its Solidity stack trace, the revert data kept", async () => {
      const withArtifacts: HookContext = { config: { ...context.config, paths: { ...context.config.paths, artifacts: hre.config.paths.artifacts } } };
      const sendTo = (method: string, params: JsonRpcRequest["params"]) => hooks.onRequest(withArtifacts, shared, { jsonrpc: "2.0", id: id++, method, params }, unexpectedNext);
      const deployment = resultOf(await sendTo("eth_sendTransaction", [{ from: sender, data: (await hre.artifacts.readArtifact("Failing")).bytecode }])) as string;
      const { contractAddress } = resultOf(await sendTo("eth_getTransactionReceipt", [deployment])) as { contractAddress: string };
      const data = (await hre.ethers.getContractFactory("Failing")).interface.encodeFunctionData("failWithReason");
      const error = await refusalOf(sendTo("eth_call", [{ from: sender, to: contractAddress, data }, "latest"]), SolidityError);
      expect(error.message).to.equal("VM Exception while processing transaction: reverted with reason string 'You can't withdraw yet'");
      expect(error.stack!.split("\n")[1]).to.equal("    at Failing.failWithReason (contracts/test/StackTraces.sol:18)");
      expect(error.code).to.equal(3);
      expect(error.data).to.match(/^0x08c379a0/);
    });

    it("sends an eth_sendTransaction without gas with the configured gas", async () => {
      const hash = (await call(shared, "eth_sendTransaction", [{ from: sender, to: sender, value: "0x1" }])) as string;
      const transaction = (await call(shared, "eth_getTransactionByHash", [hash])) as { gas: string };
      expect(BigInt(transaction.gas)).to.equal(BigInt(CONFIGURED_GAS));
    });

    it("keeps the gas an eth_sendTransaction names", async () => {
      const hash = (await call(shared, "eth_sendTransaction", [{ from: sender, to: sender, value: "0x1", gas: "0x7530" }])) as string;
      const transaction = (await call(shared, "eth_getTransactionByHash", [hash])) as { gas: string };
      expect(BigInt(transaction.gas)).to.equal(30_000n);
    });

    it("gives each connection a chain of its own", async () => {
      const first = connection();
      const second = connection();
      try {
        await call(first, "evm_mine", []);
        await call(first, "nativekit_setAssetBalance", [sender, ASSET, "0x2a"]);
        expect(await call(first, "eth_blockNumber", [])).to.equal("0x1");
        expect(await call(second, "eth_blockNumber", [])).to.equal("0x0");
        expect(BigInt((await call(first, "eth_getAssetBalance", [sender, "latest", ASSET])) as string)).to.equal(42n);
        expect(BigInt((await call(second, "eth_getAssetBalance", [sender, "latest", ASSET])) as string)).to.equal(0n);
      } finally {
        await hooks.closeConnection(context, first, async () => {});
        await hooks.closeConnection(context, second, async () => {});
      }
    });

    it("gives a connection a fresh chain after closeConnection, and calls next there", async () => {
      const conn = connection();
      await call(conn, "evm_mine", []);
      expect(await call(conn, "eth_blockNumber", [])).to.equal("0x1");
      const closed: NetworkConnection[] = [];
      await hooks.closeConnection(context, conn, async (_context, c) => void closed.push(c));
      expect(closed).to.deep.equal([conn]);
      expect(await call(conn, "eth_blockNumber", [])).to.equal("0x0");
      await hooks.closeConnection(context, conn, async () => {});
    });
  });

  describe("onRequest on another network", () => {
    it("passes the request to next untouched and returns next's response", async () => {
      const hooks = createNetworkHooks({ importChai: async () => undefined }, () => engineThread) as NetworkHooks;
      const other = connection("localhost");
      const request: JsonRpcRequest = { jsonrpc: "2.0", id: 3, method: "eth_sendTransaction", params: [{ from: "0x" + "11".repeat(20), to: "0x" + "22".repeat(20) }] };
      const snapshot = structuredClone(request);
      const seen: unknown[][] = [];
      const answer: JsonRpcResponse = { jsonrpc: "2.0", id: 3, result: "from next" };
      const response = await hooks.onRequest(context, other, request, async (...args) => {
        seen.push(args);
        return answer;
      });
      expect(response).to.equal(answer);
      expect(seen).to.have.length(1);
      expect(seen[0]![0]).to.equal(context);
      expect(seen[0]![1]).to.equal(other);
      expect(seen[0]![2]).to.equal(request);
      expect(request).to.deep.equal(snapshot); // no gas filled in
    });
  });

  describe("newConnection", () => {
    function fakeChai() {
      const used: unknown[] = [];
      const chai: ChaiLike = { use: (plugin) => used.push(plugin) };
      return { chai, used };
    }

    it("returns next's connection, and registers the matchers on the project's chai once across connections", async () => {
      const { chai, used } = fakeChai();
      let imports = 0;
      const hooks = createNetworkHooks({ importChai: async () => (imports++, chai) }, () => engineThread) as NetworkHooks;
      const made: NetworkConnection[] = [];
      const next = async (ctx: HookContext) => {
        expect(ctx).to.equal(context);
        const conn = connection("localhost");
        made.push(conn);
        return conn;
      };
      const returned = [await hooks.newConnection(context, next), await hooks.newConnection(context, next), await hooks.newConnection(context, next)];
      expect(returned).to.deep.equal(made);
      expect(made).to.have.length(3);
      expect(used).to.deep.equal([nativeAssetMatchers]);
      expect(imports).to.equal(1);
    });

    it("declares an in-process connection a simulated network (so Ignition keeps no deployments of it) and leaves others as they are", async () => {
      const hooks = createNetworkHooks({ importChai: async () => undefined }, () => engineThread) as NetworkHooks;
      const httpConfig = () => ({ type: "http", url: "http://nativekit.in-process.invalid", accounts: "remote" });
      const inProcess = await hooks.newConnection(context, async () => ({ ...connection(), networkConfig: httpConfig() }));
      const remote = await hooks.newConnection(context, async () => ({ ...connection("localhost"), networkConfig: httpConfig() }));
      expect(inProcess.networkConfig).to.deep.equal({ ...httpConfig(), type: "edr-simulated" });
      expect(remote.networkConfig).to.deep.equal(httpConfig());
      // The engine it started at once is the one its requests reach.
      const answer = await hooks.onRequest(context, inProcess, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }, unexpectedNext);
      expect(answer).to.deep.equal({ jsonrpc: "2.0", id: 1, result: "0x0" });
      await hooks.closeConnection(context, inProcess, async () => {});
    });

    it("registers the matchers once when connections open concurrently", async () => {
      const { chai, used } = fakeChai();
      const hooks = createNetworkHooks({ importChai: async () => chai }, () => engineThread) as NetworkHooks;
      await Promise.all([1, 2, 3].map(() => hooks.newConnection(context, async () => connection("localhost"))));
      expect(used).to.have.length(1);
    });

    it("opens connections when the project has no chai", async () => {
      const hooks = createNetworkHooks({ importChai: async () => undefined }, () => engineThread) as NetworkHooks;
      const conn = connection("localhost");
      expect(await hooks.newConnection(context, async () => conn)).to.equal(conn);
      expect(await hooks.newConnection(context, async () => conn)).to.equal(conn);
    });
  });
});
