import { expect } from "chai";
import { id } from "ethers";

import { RpcHarness__factory, type RpcHarness } from "../../typechain-types";
import { rejection, startChain, type TestChain } from "../helpers/chain";

type Log = { address: string; topics: string[]; data: string; blockNumber: string; blockHash: string; logIndex: string; transactionHash: string };
const STORED = id("Stored(address,uint256)");
const PUT = id("Put(address,uint256,uint256)");
const PING = id("Ping(uint256)");
const topicOf = (v: bigint | number | string) =>
  typeof v === "string" ? "0x" + v.slice(2).toLowerCase().padStart(64, "0") : "0x" + v.toString(16).padStart(64, "0");
const hexq = (n: bigint | number) => "0x" + n.toString(16);

/**
 * Fixed history: two harnesses A and B.
 * block 3: A.store(1) by signer0; block 4: B.store(2) by signer1; block 5: A.put(7, 70) by signer0;
 * block 6: B.put(8, 80) by signer1; block 7: A.ping([1, 2, 3]).
 */
describe("standard JSON-RPC: logs and filters", () => {
  let chain: TestChain;
  let a: RpcHarness;
  let b: RpcHarness;
  let A: string;
  let B: string;
  let s0: string;
  let s1: string;

  const getLogs = (filter: Record<string, unknown>) => chain.rpc("eth_getLogs", [filter]) as Promise<Log[]>;
  const wait = async (p: Promise<{ wait(): Promise<unknown> }>) => (await p).wait();

  before(async () => {
    chain = await startChain();
    a = await new RpcHarness__factory(chain.signers[0]!).deploy();
    b = await new RpcHarness__factory(chain.signers[1]!).deploy();
    A = (await a.getAddress()).toLowerCase();
    B = (await b.getAddress()).toLowerCase();
    s0 = chain.signers[0]!.address.toLowerCase();
    s1 = chain.signers[1]!.address.toLowerCase();
    expect(await chain.rpc("eth_blockNumber")).to.equal("0x2");
    await wait(a.store(1));
    await wait(b.connect(chain.signers[1]!).store(2));
    await wait(a.put(7, 70));
    await wait(b.connect(chain.signers[1]!).put(8, 80));
    await wait(a.ping([1, 2, 3]));
  });

  describe("eth_getLogs", () => {
    it("with an empty filter returns the logs of the latest block only", async () => {
      const logs = await getLogs({});
      expect(logs.map((l) => l.blockNumber)).to.deep.equal(["0x7", "0x7", "0x7"]);
    });

    it("from earliest to latest returns every log in chain order", async () => {
      const logs = await getLogs({ fromBlock: "earliest", toBlock: "latest" });
      expect(logs.map((l) => l.blockNumber)).to.deep.equal(["0x3", "0x4", "0x5", "0x6", "0x7", "0x7", "0x7"]);
      expect(logs.map((l) => l.topics[0])).to.deep.equal([STORED, STORED, PUT, PUT, PING, PING, PING]);
    });

    it("filters by a single address", async () => {
      const logs = await getLogs({ fromBlock: "0x0", address: B });
      expect(logs.map((l) => l.address)).to.deep.equal([B, B]);
      expect(logs.map((l) => l.blockNumber)).to.deep.equal(["0x4", "0x6"]);
    });

    it("filters by an array of addresses (any of them)", async () => {
      const logs = await getLogs({ fromBlock: "0x0", address: [A, B] });
      expect(logs).to.have.length(7);
      const none = await getLogs({ fromBlock: "0x0", address: ["0x" + "99".repeat(20)] });
      expect(none).to.deep.equal([]);
    });

    it("matches addresses regardless of letter case (checksummed input)", async () => {
      const logs = await getLogs({ fromBlock: "0x0", address: await b.getAddress() });
      expect(logs).to.have.length(2);
    });

    it("filters by the first topic (event signature)", async () => {
      const logs = await getLogs({ fromBlock: "0x0", topics: [PUT] });
      expect(logs.map((l) => l.address)).to.deep.equal([A, B]);
    });

    it("filters by a later topic with null as a wildcard for earlier positions", async () => {
      const logs = await getLogs({ fromBlock: "0x0", topics: [null, topicOf(s1)] });
      expect(logs.map((l) => l.blockNumber)).to.deep.equal(["0x4", "0x6"]);
    });

    it("matches any of an OR-array at one position", async () => {
      const logs = await getLogs({ fromBlock: "0x0", topics: [[STORED, PUT]] });
      expect(logs).to.have.length(4);
      const keys = await getLogs({ fromBlock: "0x0", topics: [PUT, null, [topicOf(7), topicOf(8), topicOf(9)]] });
      expect(keys.map((l) => l.address)).to.deep.equal([A, B]);
    });

    it("combines positions with AND", async () => {
      const logs = await getLogs({ fromBlock: "0x0", topics: [STORED, topicOf(s0), topicOf(1)] });
      expect(logs).to.have.length(1);
      expect(logs[0]!.address).to.equal(A);
      expect(await getLogs({ fromBlock: "0x0", topics: [STORED, topicOf(s0), topicOf(2)] })).to.deep.equal([]);
    });

    it("does not match logs with fewer topics than the filter constrains", async () => {
      // Ping has only the signature topic; a constraint at position 1 excludes it even as a wildcard array.
      const logs = await getLogs({ fromBlock: "0x0", topics: [PING, topicOf(s0)] });
      expect(logs).to.deep.equal([]);
    });

    it("an empty array at a position is a wildcard, as on geth", async () => {
      expect(await getLogs({ fromBlock: "0x0", topics: [[], topicOf(s1)] })).to.have.length(2);
    });

    it("restricts to a fromBlock/toBlock range, both ends inclusive", async () => {
      const logs = await getLogs({ fromBlock: "0x4", toBlock: "0x5" });
      expect(logs.map((l) => l.blockNumber)).to.deep.equal(["0x4", "0x5"]);
      expect(await getLogs({ fromBlock: "0x5", toBlock: "0x5" })).to.have.length(1);
    });

    it("selects one block by blockHash", async () => {
      const block = (await chain.rpc("eth_getBlockByNumber", ["0x6", false])) as { hash: string };
      const logs = await getLogs({ blockHash: block.hash });
      expect(logs).to.have.length(1);
      expect(logs[0]).to.include({ blockHash: block.hash, blockNumber: "0x6", address: B });
    });

    it("rejects blockHash together with fromBlock/toBlock, and an unknown blockHash", async () => {
      const block = (await chain.rpc("eth_getBlockByNumber", ["0x6", false])) as { hash: string };
      expect((await rejection(getLogs({ blockHash: block.hash, fromBlock: "0x1" }))).message).to.match(/blockHash/);
      expect((await rejection(getLogs({ blockHash: "0x" + "77".repeat(32) }))).message).to.match(/not known|not found/);
    });

    it("rejects fromBlock after toBlock with -32602", async () => {
      const error = await rejection(getLogs({ fromBlock: "0x5", toBlock: "0x4" }));
      expect(error.code).to.equal(-32602);
    });

    it("a log has address, topics, data and its full position", async () => {
      const [log] = await getLogs({ fromBlock: "0x5", toBlock: "0x5" });
      const receipt = (await chain.rpc("eth_getTransactionReceipt", [log!.transactionHash])) as { logs: Log[] };
      expect(receipt.logs[0]).to.deep.equal(log);
      expect(log!.data).to.equal(topicOf(70));
      expect(log!.topics).to.deep.equal([PUT, topicOf(s0), topicOf(7)]);
    });
  });

  describe("filters", () => {
    it("eth_newFilter + eth_getFilterChanges returns only logs mined since the last poll", async () => {
      const filter = (await chain.rpc("eth_newFilter", [{ address: A }])) as string;
      expect(await chain.rpc("eth_getFilterChanges", [filter])).to.deep.equal([]);
      await wait(a.store(10));
      const first = (await chain.rpc("eth_getFilterChanges", [filter])) as Log[];
      expect(first).to.have.length(1);
      expect(first[0]!.topics[2]).to.equal(topicOf(10));
      expect(await chain.rpc("eth_getFilterChanges", [filter])).to.deep.equal([]);
      await wait(b.store(11)); // other address: not reported
      expect(await chain.rpc("eth_getFilterChanges", [filter])).to.deep.equal([]);
    });

    it("eth_getFilterChanges reports the logs of every block mined since the last poll, not just the newest", async () => {
      const filter = (await chain.rpc("eth_newFilter", [{ address: A, topics: [STORED] }])) as string;
      await wait(a.store(21));
      await wait(a.store(22));
      await wait(a.store(23));
      const changes = (await chain.rpc("eth_getFilterChanges", [filter])) as Log[];
      expect(changes.map((l) => l.topics[2])).to.deep.equal([topicOf(21), topicOf(22), topicOf(23)]);
    });

    it("a filter with an explicit toBlock stops reporting past it", async () => {
      const head = BigInt((await chain.rpc("eth_blockNumber")) as string);
      const filter = (await chain.rpc("eth_newFilter", [{ fromBlock: hexq(head + 1n), toBlock: hexq(head + 1n), address: A }])) as string;
      await wait(a.store(31));
      await wait(a.store(32));
      const changes = (await chain.rpc("eth_getFilterChanges", [filter])) as Log[];
      expect(changes.map((l) => l.topics[2])).to.deep.equal([topicOf(31)]);
    });

    it("a filter whose fromBlock is still in the future is accepted and reports from that block on", async () => {
      const head = BigInt((await chain.rpc("eth_blockNumber")) as string);
      const filter = (await chain.rpc("eth_newFilter", [{ fromBlock: hexq(head + 2n), address: A }])) as string;
      expect(await chain.rpc("eth_getFilterChanges", [filter])).to.deep.equal([]);
      await wait(a.store(35));
      expect(await chain.rpc("eth_getFilterChanges", [filter])).to.deep.equal([]);
      await wait(a.store(36));
      const changes = (await chain.rpc("eth_getFilterChanges", [filter])) as Log[];
      expect(changes.map((l) => l.topics[2])).to.deep.equal([topicOf(36)]);
    });

    it("filters keep reporting the blocks and logs mined after an evm_revert, after the removed logs", async () => {
      const fresh = await startChain();
      const h = await new RpcHarness__factory(fresh.signers[0]!).deploy();
      await h.waitForDeployment();
      const snapshot = await fresh.rpc("evm_snapshot");
      await (await h.store(1)).wait();
      await (await h.store(2)).wait();
      const logs = (await fresh.rpc("eth_newFilter", [{}])) as string;
      const blocks = (await fresh.rpc("eth_newBlockFilter")) as string;
      await (await h.store(3)).wait();
      await fresh.rpc("eth_getFilterChanges", [logs]);
      await fresh.rpc("eth_getFilterChanges", [blocks]);
      await fresh.rpc("evm_revert", [snapshot]);
      await (await h.store(4)).wait(); // same height as the reverted store(1)
      const changes = (await fresh.rpc("eth_getFilterChanges", [logs])) as (Log & { removed: boolean })[];
      // Every removed block's logs come back removed, also those mined before the filter was installed: geth's filters do the same.
      expect(changes.map((l) => [l.topics[2], l.removed])).to.deep.equal([
        [topicOf(1), true],
        [topicOf(2), true],
        [topicOf(3), true],
        [topicOf(4), false],
      ]);
      const latest = (await fresh.rpc("eth_getBlockByNumber", ["latest", false])) as { hash: string };
      expect(await fresh.rpc("eth_getFilterChanges", [blocks])).to.deep.equal([latest.hash]);
    });

    it("eth_getFilterLogs of a filter with no range returns the latest block's matching logs", async () => {
      await wait(a.store(37));
      const filter = (await chain.rpc("eth_newFilter", [{ address: A }])) as string;
      const logs = (await chain.rpc("eth_getFilterLogs", [filter])) as Log[];
      expect(logs.map((l) => l.topics[2])).to.deep.equal([topicOf(37)]);
    });

    it("eth_getFilterLogs returns every log matching the filter's criteria", async () => {
      const filter = (await chain.rpc("eth_newFilter", [{ fromBlock: "0x0", toBlock: "0x7", topics: [PUT] }])) as string;
      const logs = (await chain.rpc("eth_getFilterLogs", [filter])) as Log[];
      expect(logs.map((l) => l.address)).to.deep.equal([A, B]);
    });

    it("eth_newBlockFilter reports the hashes of new blocks, once each", async () => {
      const filter = (await chain.rpc("eth_newBlockFilter")) as string;
      expect(await chain.rpc("eth_getFilterChanges", [filter])).to.deep.equal([]);
      await wait(a.store(40));
      await wait(a.store(41));
      const hashes = (await chain.rpc("eth_getFilterChanges", [filter])) as string[];
      const head = BigInt((await chain.rpc("eth_blockNumber")) as string);
      const expected = [];
      for (const n of [head - 1n, head]) expected.push(((await chain.rpc("eth_getBlockByNumber", [hexq(n), false])) as { hash: string }).hash);
      expect(hashes).to.deep.equal(expected);
      expect(await chain.rpc("eth_getFilterChanges", [filter])).to.deep.equal([]);
    });

    it("eth_newPendingTransactionFilter reports the hashes of transactions sent since the last poll", async () => {
      const filter = (await chain.rpc("eth_newPendingTransactionFilter")) as string;
      const one = (await chain.rpc("eth_sendTransaction", [{ from: s0, to: s1, value: "0x1" }])) as string;
      const two = (await chain.rpc("eth_sendTransaction", [{ from: s1, to: s0, value: "0x1" }])) as string;
      expect(await chain.rpc("eth_getFilterChanges", [filter])).to.deep.equal([one, two]);
      expect(await chain.rpc("eth_getFilterChanges", [filter])).to.deep.equal([]);
    });

    it("eth_uninstallFilter returns true once, then false; polling an uninstalled filter fails", async () => {
      const filter = (await chain.rpc("eth_newBlockFilter")) as string;
      expect(await chain.rpc("eth_uninstallFilter", [filter])).to.equal(true);
      expect(await chain.rpc("eth_uninstallFilter", [filter])).to.equal(false);
      const error = await rejection(chain.rpc("eth_getFilterChanges", [filter]));
      // geth's code and message, which viem and ethers recognise to install a new filter
      expect(error.code).to.equal(-32000);
      expect(error.message).to.match(/^filter not found/);
    });

    it("a filter nobody polls for five minutes is dropped, as on geth; a polled one survives", async () => {
      const idle = (await chain.rpc("eth_newBlockFilter")) as string;
      const polled = (await chain.rpc("eth_newBlockFilter")) as string;
      const realNow = Date.now;
      const start = realNow();
      try {
        Date.now = () => start + 4 * 60_000;
        await chain.rpc("eth_getFilterChanges", [polled]);
        Date.now = () => start + 6 * 60_000;
        await wait(a.store(50)); // a new block is when idle filters are collected
      } finally {
        Date.now = realNow;
      }
      expect((await rejection(chain.rpc("eth_getFilterChanges", [idle]))).message).to.match(/not found/);
      expect(await chain.rpc("eth_getFilterChanges", [polled])).to.have.length(1);
    });

    it("filter ids are hex quantities and distinct", async () => {
      const one = (await chain.rpc("eth_newBlockFilter")) as string;
      const two = (await chain.rpc("eth_newFilter", [{}])) as string;
      expect(one).to.match(/^0x[0-9a-f]+$/);
      expect(one).to.not.equal(two);
    });

    it("eth_newFilter validates the criteria at once (-32602)", async () => {
      const error = await rejection(chain.rpc("eth_newFilter", [{ address: "0x1234" }]));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.match(/address/);
    });
  });

  describe("ethers event APIs", () => {
    it("contract.queryFilter returns decoded events for a filter with an indexed argument", async () => {
      const events = await a.queryFilter(a.filters.Put(undefined, 7n), 0, "latest");
      expect(events).to.have.length(1);
      expect(events[0]!.args.key).to.equal(7n);
      expect(events[0]!.args.value).to.equal(70n);
      expect(events[0]!.args.writer).to.equal(chain.signers[0]!.address);
      expect(events[0]!.blockNumber).to.equal(5);
    });

    it("contract.queryFilter by event name lists every occurrence", async () => {
      const pings = await a.queryFilter(a.filters.Ping(), 0);
      expect(pings.map((e) => e.args.n)).to.deep.equal([1n, 2n, 3n]);
    });

    it("contract.on delivers a new event to its listener", async () => {
      const fresh = await startChain();
      const h = await new RpcHarness__factory(fresh.signers[0]!).deploy();
      await h.waitForDeployment();
      const received = new Promise<bigint>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no event within 5 s")), 5_000);
        void h.on(h.filters.Stored, (_writer, value) => {
          clearTimeout(timer);
          resolve(value);
        });
      });
      // Give ethers time to install its filter before the event happens.
      await new Promise((r) => setTimeout(r, 100));
      await (await h.store(123)).wait();
      try {
        expect(await received).to.equal(123n);
      } finally {
        await h.removeAllListeners();
        fresh.provider.destroy();
      }
    });

    it("provider.on('block') reports new block numbers", async () => {
      const fresh = await startChain();
      const seen = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no block within 5 s")), 5_000);
        void fresh.provider.on("block", (n: number) => {
          if (n >= 1) {
            clearTimeout(timer);
            resolve(n);
          }
        });
      });
      await new Promise((r) => setTimeout(r, 100));
      await (await fresh.signers[0]!.sendTransaction({ to: fresh.signers[1]!.address, value: 1n })).wait();
      try {
        expect(await seen).to.equal(1);
      } finally {
        await fresh.provider.removeAllListeners();
        fresh.provider.destroy();
      }
    });
  });
});
