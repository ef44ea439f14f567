import { expect } from "chai";
import { createNetworkHooks } from "../../src/hardhat/hardhat3/network-hooks";
import type { GasMeasurement, Hardhat3HookManager, HookContext, NetworkConnection, NetworkHooks } from "../../src/hardhat/hardhat3/types";
import { CoverageHits__factory } from "../../typechain-types";
import { sourceEngineThread } from "../helpers/engine-thread";
import { hookContext, hookSender, inProcessConnection, unexpectedNext } from "../helpers/hardhat3-hooks";

const coverageHits = CoverageHits__factory.createInterface();
/** The tag CoverageHits sends for `n`, as Hardhat's coverage data names it (hex, no 0x). */
const tag = (n: number) => n.toString(16).padStart(64, "0");

/** Init code deploying 24 577 zero bytes, one over the contract size limit: PUSH3 0x006001, PUSH1 0, RETURN. */
const OVERSIZED_INIT_CODE = "0x620060016000f3";

/** Hardhat's hook manager as `--coverage` leaves it (or a run without it), recording what reaches onCoverageData. */
function coverageRun(listening: boolean): { hooks: Hardhat3HookManager; reported: string[][] } {
  const reported: string[][] = [];
  const hooks: Hardhat3HookManager = {
    hasHandlers: async (_category, hook) => listening && hook === "onCoverageData",
    runParallelHandlers: async (_category: "network", hook: "onCoverageData" | "onGasMeasurement", params: [string[]] | [GasMeasurement]) => {
      if (hook !== "onCoverageData") throw new Error(`${hook} has no handler in this run`);
      reported.push([...(params[0] as string[])].sort());
      return [];
    },
  };
  return { hooks, reported };
}

function contextWith(workerThread: boolean, hooks: Hardhat3HookManager): HookContext {
  return hookContext(workerThread, hooks);
}

const connection = inProcessConnection;

/** One engine thread for the file, run from the sources. */
const engineThread = sourceEngineThread();

describe("Hardhat 3 --coverage on the nativekit network", function () {
  this.timeout(60_000);
  after(async () => engineThread.terminate());

  for (const workerThread of [false, true]) {
    describe(workerThread ? "in the engine thread (workerThread: true)" : "on Hardhat's thread", () => {
      let run: ReturnType<typeof coverageRun>;
      let hooks: NetworkHooks;
      let context: HookContext;
      let conn: NetworkConnection;
      const { send, result } = hookSender(() => hooks, () => context, () => conn);
      let sender: string;
      let contract: string;

      beforeEach(async () => {
        run = coverageRun(true);
        hooks = createNetworkHooks({ importChai: async () => undefined }, () => engineThread) as NetworkHooks;
        context = contextWith(workerThread, run.hooks);
        conn = connection();
        [sender] = (await result("eth_accounts", [])) as string[];
        const hash = (await result("eth_sendTransaction", [{ from: sender, data: CoverageHits__factory.bytecode }])) as string;
        contract = ((await result("eth_getTransactionReceipt", [hash])) as { contractAddress: string }).contractAddress;
      });

      afterEach(async () => hooks.closeConnection(context, conn, async () => {}));

      it("reports the deployment's hits to onCoverageData before answering it", () => {
        expect(run.reported).to.deep.equal([[tag(100)]]);
      });

      it("reports a transaction's hits with its answer, and nothing for requests that run no code", async () => {
        run.reported.length = 0;
        await result("eth_blockNumber", []);
        await result("eth_sendTransaction", [{ from: sender, to: contract, data: coverageHits.encodeFunctionData("store", [42n]) }]);
        expect(run.reported).to.deep.equal([[tag(1), tag(2)]]);
      });

      it("reports the hits of an eth_call, of a gas estimate and of a reverting call, whose error it still answers", async () => {
        run.reported.length = 0;
        await result("eth_call", [{ to: contract, data: coverageHits.encodeFunctionData("repeat", [3n]) }, "latest"]);
        await result("eth_estimateGas", [{ from: sender, to: contract, data: coverageHits.encodeFunctionData("store", [1n]) }]);
        const failed = await send("eth_call", [{ to: contract, data: coverageHits.encodeFunctionData("failAfterHit") }, "latest"]);
        expect("error" in failed && failed.error.message).to.equal("execution reverted: after the hit");
        expect(run.reported).to.deep.equal([[tag(4)], [tag(1), tag(3)], [tag(5)]]);
      });

      it("deploys a contract over the size limit, as Hardhat's network allows under --coverage (instrumented code is bigger)", async () => {
        const hash = (await result("eth_sendTransaction", [{ from: sender, data: OVERSIZED_INIT_CODE }])) as string;
        expect(((await result("eth_getTransactionReceipt", [hash])) as { status: string }).status).to.equal("0x1");
      });

      it("answers the instrumentation's calls as Hardhat's network does (the return data before a hit stays)", async () => {
        const answer = await result("eth_call", [{ to: contract, data: coverageHits.encodeFunctionData("returnDataAfterHit", [7n]) }, "latest"]);
        expect(BigInt(answer as string)).to.equal(96n);
      });
    });
  }

  describe("a run without --coverage", () => {
    for (const workerThread of [false, true]) {
      it(`collects nothing and runs the calls as any call ${workerThread ? "in the engine thread" : "on Hardhat's thread"}`, async () => {
        const run = coverageRun(false);
        const hooks = createNetworkHooks({ importChai: async () => undefined }, () => engineThread) as NetworkHooks;
        const context = contextWith(workerThread, run.hooks);
        const conn = connection();
        const call = async (method: string, params: unknown[]) => {
          const response = await hooks.onRequest(context, conn, { jsonrpc: "2.0", id: 1, method, params }, unexpectedNext);
          if ("error" in response) throw new Error(JSON.stringify(response.error));
          return response.result;
        };
        const [from] = (await call("eth_accounts", [])) as string[];
        const hash = (await call("eth_sendTransaction", [{ from, data: CoverageHits__factory.bytecode }])) as string;
        const { contractAddress } = (await call("eth_getTransactionReceipt", [hash])) as { contractAddress: string };
        // An empty account's call clears the return data: the probe is not there.
        expect(BigInt((await call("eth_call", [{ to: contractAddress, data: coverageHits.encodeFunctionData("returnDataAfterHit", [7n]) }, "latest"])) as string)).to.equal(0n);
        expect(run.reported).to.deep.equal([]);
        // And the contract size limit holds.
        const oversized = await hooks.onRequest(context, conn, { jsonrpc: "2.0", id: 2, method: "eth_sendTransaction", params: [{ from, data: OVERSIZED_INIT_CODE }] }, unexpectedNext);
        const receipt = "result" in oversized ? ((await call("eth_getTransactionReceipt", [oversized.result])) as { status: string }) : undefined;
        expect(receipt === undefined || receipt.status === "0x0", "an oversized deployment succeeded").to.equal(true);
        await hooks.closeConnection(context, conn, async () => {});
      });
    }
  });
});
