import { expect } from "chai";
import { SolidityError } from "../../src/hardhat/solidity/solidity-error";
import { refusalOf } from "../helpers/refusal";
import path from "node:path";
import { gasMeasurementOf, type CodeNamer } from "../../src/hardhat/hardhat3/gas-stats";
import { createNetworkHooks } from "../../src/hardhat/hardhat3/network-hooks";
import type { GasMeasurement, Hardhat3HookManager, HookContext, NetworkConnection, NetworkHooks } from "../../src/hardhat/hardhat3/types";
import type { IdentifiedContract } from "../../src/hardhat/solidity/contract-identifier";
import { encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding/precompile";
import { CoverageHits__factory, ForwardingProxy__factory } from "../../typechain-types";
import { sourceEngineThread } from "../helpers/engine-thread";
import { hookContext, hookSender, inProcessConnection, unexpectedNext } from "../helpers/hardhat3-hooks";

/** This repository's build (Hardhat 2's build infos): the contracts the measurements name. */
const ARTIFACTS = path.join(__dirname, "..", "..", "artifacts");
const HITS = "contracts/test/CoverageHits.sol:CoverageHits";
const PROXY = "contracts/test/ForwardingProxy.sol:ForwardingProxy";
const coverageHits = CoverageHits__factory.createInterface();

/** Hardhat's hook manager under `--gas-stats` (or without it), recording what reaches onGasMeasurement. */
function gasStatsRun(listening: boolean): { hooks: Hardhat3HookManager; measured: GasMeasurement[] } {
  const measured: GasMeasurement[] = [];
  const hooks: Hardhat3HookManager = {
    hasHandlers: async (_category, hook) => listening && hook === "onGasMeasurement",
    runParallelHandlers: async (_category: "network", hook: "onCoverageData" | "onGasMeasurement", params: [string[]] | [GasMeasurement]) => {
      if (hook !== "onGasMeasurement") throw new Error(`${hook} has no handler in this run`);
      measured.push(params[0] as GasMeasurement);
      return [];
    },
  };
  return { hooks, measured };
}

function contextWith(workerThread: boolean, hooks: Hardhat3HookManager): HookContext {
  return hookContext(workerThread, hooks, ARTIFACTS);
}

const connection = inProcessConnection;

const engineThread = sourceEngineThread();

describe("Hardhat 3 --gas-stats on the nativekit network", function () {
  this.timeout(60_000);
  after(async () => engineThread.terminate());

  for (const workerThread of [false, true]) {
    describe(workerThread ? "in the engine thread (workerThread: true)" : "on Hardhat's thread", () => {
      let run: ReturnType<typeof gasStatsRun>;
      let hooks: NetworkHooks;
      let context: HookContext;
      let conn: NetworkConnection;
      const { send, result } = hookSender(() => hooks, () => context, () => conn);
      const gasUsedBy = async (hash: unknown) => Number(((await result("eth_getTransactionReceipt", [hash])) as { gasUsed: string }).gasUsed);
      let sender: string;
      let contract: string;
      let deploymentGas: number;

      beforeEach(async () => {
        run = gasStatsRun(true);
        hooks = createNetworkHooks({ importChai: async () => undefined }, () => engineThread) as NetworkHooks;
        context = contextWith(workerThread, run.hooks);
        conn = connection();
        [sender] = (await result("eth_accounts", [])) as string[];
        const hash = (await result("eth_sendTransaction", [{ from: sender, data: CoverageHits__factory.bytecode }])) as string;
        contract = ((await result("eth_getTransactionReceipt", [hash])) as { contractAddress: string }).contractAddress;
        deploymentGas = await gasUsedBy(hash);
      });

      afterEach(async () => hooks.closeConnection(context, conn, async () => {}));

      it("measures a deployment by contract, with its gas and the deployed code's size", async () => {
        const code = (await result("eth_getCode", [contract, "latest"])) as string;
        expect(run.measured).to.deep.equal([{ type: "deployment", contractFqn: HITS, gas: deploymentGas, runtimeSize: (code.length - 2) / 2 }]);
      });

      it("measures a transaction and an eth_call by contract and function, and no gas estimate", async () => {
        run.measured.length = 0;
        const hash = await result("eth_sendTransaction", [{ from: sender, to: contract, data: coverageHits.encodeFunctionData("store", [42n]) }]);
        await result("eth_call", [{ from: sender, to: contract, data: coverageHits.encodeFunctionData("stored") }, "latest"]);
        await result("eth_estimateGas", [{ from: sender, to: contract, data: coverageHits.encodeFunctionData("store", [1n]) }]);
        expect(run.measured.map((m) => (m.type === "function" ? [m.contractFqn, m.functionSig, m.proxyChain] : m.type))).to.deep.equal([
          [HITS, "store(uint256)", []],
          [HITS, "stored()", []],
        ]);
        expect(run.measured[0]!.gas).to.equal(await gasUsedBy(hash));
        expect(run.measured[1]!.gas).to.be.greaterThan(21_000);
      });

      it("measures a function that calls the nativeAssetCall precompile, and not a transaction to the precompile itself", async () => {
        const asset = "0x" + "c3".repeat(32);
        await result("nativekit_setAssetBalance", [contract, asset, "0x64"]);
        await result("nativekit_setAssetBalance", [sender, asset, "0x64"]);
        run.measured.length = 0;
        const hash = await result("eth_sendTransaction", [{ from: sender, to: contract, data: coverageHits.encodeFunctionData("forward", [sender, BigInt(asset), 10n]) }]);
        await result("eth_sendTransaction", [{ from: sender, to: NATIVE_ASSET_CALL_ADDRESS, data: encodeNativeAssetCallInput({ to: "0x000000000000000000000000000000000000bEEF", assetId: asset, amount: 1n }) }]);
        expect(run.measured).to.deep.equal([{ type: "function", contractFqn: HITS, functionSig: "forward(address,uint256,uint256)", gas: await gasUsedBy(hash), proxyChain: [] }]);
      });

      it("measures a call through a proxy as the implementation's function, with the proxy chain", async () => {
        const deploy = ForwardingProxy__factory.createInterface().encodeDeploy([contract]);
        const hash = await result("eth_sendTransaction", [{ from: sender, data: ForwardingProxy__factory.bytecode + deploy.slice(2) }]);
        const proxy = ((await result("eth_getTransactionReceipt", [hash])) as { contractAddress: string }).contractAddress;
        run.measured.length = 0;
        await result("eth_sendTransaction", [{ from: sender, to: proxy, data: coverageHits.encodeFunctionData("store", [5n]) }]);
        expect(run.measured.map((m) => (m.type === "function" ? [m.contractFqn, m.functionSig, m.proxyChain] : m.type))).to.deep.equal([[HITS, "store(uint256)", [PROXY, HITS]]]);
      });

      it("measures no failed transaction or call", async () => {
        run.measured.length = 0;
        const failing = coverageHits.encodeFunctionData("failAfterHit");
        // Each fails with its Solidity stack trace (the context knows the build infos).
        await refusalOf(send("eth_call", [{ to: contract, data: failing }, "latest"]), SolidityError);
        await refusalOf(send("eth_sendTransaction", [{ from: sender, to: contract, data: failing, gas: "0x30000" }]), SolidityError);
        expect(run.measured).to.deep.equal([]);
      });
    });
  }

  it("measures nothing in a run without --gas-stats", async () => {
    const run = gasStatsRun(false);
    const hooks = createNetworkHooks({ importChai: async () => undefined }, () => engineThread) as NetworkHooks;
    const context = contextWith(false, run.hooks);
    const conn = connection();
    const response = await hooks.onRequest(context, conn, { jsonrpc: "2.0", id: 1, method: "eth_accounts", params: [] }, unexpectedNext);
    const [from] = (response as { result: string[] }).result;
    await hooks.onRequest(context, conn, { jsonrpc: "2.0", id: 2, method: "eth_sendTransaction", params: [{ from, data: CoverageHits__factory.bytecode }] }, unexpectedNext);
    expect(run.measured).to.deep.equal([]);
    await hooks.closeConnection(context, conn, async () => {});
  });
});

describe("gas measurements of execution reports", () => {
  const bytes = (...values: number[]) => Uint8Array.from(values);
  /** A build that knows the code [1] (contract A, function 0xaabbccdd = f()) and [2] (proxy P, no functions). */
  function contract(fqn: string, functions: Record<string, string>, runtimeSize = 10): IdentifiedContract {
    return { fqn, compilerFqn: fqn, runtimeSize, functionSignature: (selector: Uint8Array) => functions[Buffer.from(selector).toString("hex")] } as IdentifiedContract;
  }
  const build: CodeNamer = {
    identify: (code, kind) => {
      if (kind === "creation") return code[0] === 1 ? contract("c/A.sol:A", {}) : undefined;
      if (code.length === 1 && code[0] === 1) return contract("c/A.sol:A", { aabbccdd: "f()" });
      if (code.length === 1 && code[0] === 2) return contract("c/P.sol:P", {});
      return undefined;
    },
  };
  const call = (code: Uint8Array, input: Uint8Array, proxyChain: Uint8Array[] = []) => ({ kind: "call" as const, input, code, proxyChain, gasUsed: 30_000n });

  it("names a deployment by its creation code (constructor arguments after it) and keeps the deployed size", () => {
    expect(gasMeasurementOf({ kind: "create", input: bytes(1, 9, 9), runtimeSize: 7, gasUsed: 100_000n }, build)).to.deep.equal({ type: "deployment", contractFqn: "c/A.sol:A", gas: 100_000, runtimeSize: 7 });
  });

  it("measures nothing for code the build does not know, a selector without a function, or call data shorter than a selector", () => {
    expect(gasMeasurementOf({ kind: "create", input: bytes(3), runtimeSize: 1, gasUsed: 1n }, build)).to.equal(undefined);
    expect(gasMeasurementOf(call(bytes(3), bytes(0xaa, 0xbb, 0xcc, 0xdd)), build)).to.equal(undefined);
    expect(gasMeasurementOf(call(bytes(1), bytes(0xaa, 0xbb, 0xcc, 0xde)), build)).to.equal(undefined);
    expect(gasMeasurementOf(call(bytes(1), bytes(0xaa, 0xbb, 0xcc)), build)).to.equal(undefined);
    expect(gasMeasurementOf(call(new Uint8Array(0), bytes(0xaa, 0xbb, 0xcc, 0xdd)), build)).to.equal(undefined);
  });

  it("names a proxied call by the implementation, and a proxy the build does not know as EDR does", () => {
    const selector = bytes(0xaa, 0xbb, 0xcc, 0xdd);
    expect(gasMeasurementOf(call(bytes(2), selector, [bytes(2), bytes(1)]), build)).to.deep.equal({ type: "function", contractFqn: "c/A.sol:A", functionSig: "f()", gas: 30_000, proxyChain: ["c/P.sol:P", "c/A.sol:A"] });
    expect(gasMeasurementOf(call(bytes(4), selector, [bytes(4), bytes(2), bytes(1)]), build)).to.deep.equal({ type: "function", contractFqn: "c/A.sol:A", functionSig: "f()", gas: 30_000, proxyChain: ["<UnrecognizedContract>", "c/P.sol:P", "c/A.sol:A"] });
    expect(gasMeasurementOf(call(bytes(2), selector, [bytes(2), bytes(4)]), build)).to.equal(undefined);
  });
});
