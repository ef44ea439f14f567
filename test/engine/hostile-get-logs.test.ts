/**
 * Hostile input, logs queries (issue 26): eth_getLogs had no block-range or result cap, so one
 * query over thousands of blocks and tens of thousands of logs kept every other client waiting
 * for seconds. The engine now refuses (-32005, naming the limit and what to do) a query spanning
 * more blocks than `maxBlocksPerLogsRequest` or matching more logs than `maxLogsPerRequest`;
 * `nativekit node` sets them (flags `--api-max-blocks-per-request`, `--api-max-logs-per-request`)
 * and the in-process (Hardhat) network keeps none unless configured.
 */
import { expect } from "chai";

import { DEFAULT_API_MAX_BLOCKS_PER_REQUEST, DEFAULT_API_MAX_LOGS_PER_REQUEST } from "../../src/cli/node-flags";
import { PATHS } from "../../src/network/paths";
import { providerDispatch, startHttpNode } from "../../src/node/http-server";
import { RpcHarness__factory } from "../../typechain-types";
import { rejection, startChain, type TestChain } from "../helpers/chain";
import { startedCliNode } from "../helpers/cli-node";
import { medianLatencyMs, whileHammered } from "../helpers/latency";
import { refusalOf } from "../helpers/refusal";

const hexq = (n: bigint | number) => "0x" + n.toString(16);
/** Logs each transaction emits, and transactions sent: 15 000 logs, more than the default limit of 10 000. */
const LOGS_PER_TRANSACTION = 500;
const TRANSACTIONS = 30;

describe("hostile input: eth_getLogs bounded in blocks and results", function () {
  this.timeout(180_000);

  describe("an engine with the node's default limits", () => {
    let chain: TestChain;
    /** The block of the last transaction with logs: the range 0 to it holds every log. */
    let lastLogBlock: number;

    before(async () => {
      chain = await startChain({ maxBlocksPerLogsRequest: DEFAULT_API_MAX_BLOCKS_PER_REQUEST, maxLogsPerRequest: DEFAULT_API_MAX_LOGS_PER_REQUEST });
      const harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
      const numbers = Array.from({ length: LOGS_PER_TRANSACTION }, (_, i) => i);
      for (let i = 0; i < TRANSACTIONS; i++) await (await harness.ping(numbers)).wait();
      lastLogBlock = Number(await chain.rpc("eth_blockNumber"));
      // Enough empty blocks after them for a range wider than the block limit.
      await chain.rpc("hardhat_mine", [hexq(DEFAULT_API_MAX_BLOCKS_PER_REQUEST)]);
    });

    const getLogs = (filter: Record<string, unknown>) => chain.rpc("eth_getLogs", [filter]) as Promise<unknown[]>;

    it("refuses a range wider than the block limit with -32005, naming the limit and what to do", async () => {
      const head = Number(await chain.rpc("eth_blockNumber"));
      const error = await rejection(getLogs({ fromBlock: "0x0", toBlock: "latest" }));
      expect(error.code).to.equal(-32005);
      expect(error.message).to.contain(`spans ${head + 1} blocks (0 to ${head})`);
      expect(error.message).to.contain(`limit of ${DEFAULT_API_MAX_BLOCKS_PER_REQUEST} blocks per request`);
      expect(error.message).to.contain("narrower range");
      expect(error.data).to.deep.equal({ limit: DEFAULT_API_MAX_BLOCKS_PER_REQUEST });
    });

    it("refuses a query matching more logs than the result limit with -32005, naming the limit", async () => {
      const error = await rejection(getLogs({ fromBlock: "0x0", toBlock: hexq(lastLogBlock) }));
      expect(error.code).to.equal(-32005);
      expect(error.message).to.contain(`limit of ${DEFAULT_API_MAX_LOGS_PER_REQUEST} logs per request`);
      expect(error.message).to.contain("narrower block range");
      expect(error.data).to.deep.equal({ limit: DEFAULT_API_MAX_LOGS_PER_REQUEST });
    });

    it("answers the same query split into ranges within both limits", async () => {
      const middle = Math.floor(lastLogBlock / 2);
      const first = await getLogs({ fromBlock: "0x0", toBlock: hexq(middle) });
      const second = await getLogs({ fromBlock: hexq(middle + 1), toBlock: hexq(lastLogBlock) });
      expect(first.length + second.length).to.equal(LOGS_PER_TRANSACTION * TRANSACTIONS);
    });

    it("applies both limits to eth_getFilterLogs", async () => {
      const wide = await chain.rpc("eth_newFilter", [{ fromBlock: "0x0" }]);
      expect((await rejection(chain.rpc("eth_getFilterLogs", [wide]))).message).to.contain(`${DEFAULT_API_MAX_BLOCKS_PER_REQUEST} blocks per request`);
      const many = await chain.rpc("eth_newFilter", [{ fromBlock: "0x0", toBlock: hexq(lastLogBlock) }]);
      const error = await rejection(chain.rpc("eth_getFilterLogs", [many]));
      expect(error.code).to.equal(-32005);
      expect(error.message).to.contain(`${DEFAULT_API_MAX_LOGS_PER_REQUEST} logs per request`);
    });

    it("keeps eth_blockNumber fast while a client hammers eth_getLogs over every log", async () => {
      // Served over HTTP, so a cheap request really waits behind the hostile one on the event loop.
      const server = await startHttpNode({ port: 0, routes: { [PATHS.contractRpc]: providerDispatch(chain.native) } });
      const post = async (method: string, params: unknown[]) => {
        const response = await fetch(`${server.url}${PATHS.contractRpc}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        return (await response.json()) as { result?: unknown; error?: { code: number } };
      };
      try {
        let refused = 0;
        const median = await whileHammered(
          async () => {
            const answer = await post("eth_getLogs", [{ fromBlock: "0x0", toBlock: hexq(lastLogBlock) }]);
            if (answer.error?.code === -32005) refused++;
          },
          () => medianLatencyMs(() => post("eth_blockNumber", [])),
          1,
        );
        console.log(`      eth_blockNumber median while a client asks for ${LOGS_PER_TRANSACTION * TRANSACTIONS} logs: ${median.toFixed(1)} ms`);
        expect(refused).to.be.above(0);
        expect(median).to.be.below(50);
      } finally {
        await server.close();
      }
    });
  });

  it("an engine without limits in its options (Hardhat's network) answers any range", async () => {
    const chain = await startChain();
    await chain.rpc("hardhat_mine", [hexq(DEFAULT_API_MAX_BLOCKS_PER_REQUEST + 10)]);
    expect(await chain.rpc("eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest" }])).to.deep.equal([]);
  });

  it("nativekit node refuses a range wider than its default, and takes --api-max-blocks-per-request", async () => {
    const node = await startedCliNode(["--silent"]);
    try {
      await node.call(PATHS.contractRpc, "hardhat_mine", [hexq(DEFAULT_API_MAX_BLOCKS_PER_REQUEST)]);
      const error = await refusalOf(node.call(PATHS.contractRpc, "eth_getLogs", [{ fromBlock: "earliest", toBlock: "latest" }]), Error);
      expect(error.message).to.contain(`limit of ${DEFAULT_API_MAX_BLOCKS_PER_REQUEST} blocks per request (api-max-blocks-per-request)`);
    } finally {
      await node.stop();
    }

    const flagged = await startedCliNode(["--silent", "--api-max-blocks-per-request", "3", "--api-max-logs-per-request", "5"]);
    try {
      await flagged.call(PATHS.contractRpc, "hardhat_mine", ["0x4"]);
      const error = await refusalOf(flagged.call(PATHS.contractRpc, "eth_getLogs", [{ fromBlock: "0x1", toBlock: "0x4" }]), Error);
      expect(error.message).to.contain("spans 4 blocks (1 to 4), more than this node's limit of 3 blocks per request");
      expect(await flagged.call(PATHS.contractRpc, "eth_getLogs", [{ fromBlock: "0x2", toBlock: "0x4" }])).to.deep.equal([]);
    } finally {
      await flagged.stop();
    }
  });
});
