import { expect } from "chai";
import type { TestChain } from "../helpers/chain";
import { testAssetId } from "../helpers/chain";
import { levelBackend, memoryBackend, startStoredChain, type ReopenableBackend } from "../helpers/stored-chain";
import { durableStore, MemoryBackend, type StoreBackend } from "../../src/storage";
import { CountingBackend } from "../helpers/counting-backend";
import { decodeBlockRecord, encodeBlockRecord } from "../../src/engine/persistence/record-codec";
import { EMPTY_MULTICOIN } from "../../src/engine/persistence/multicoin-diff";
import { MultiCoinLedger } from "../../src/engine/persistence/multicoin-ledger";
import { engineCommon } from "../../src/engine/common";
import type { BlockRecord } from "../../src/engine/chain";
import type { MultiCoinSnapshot } from "../../src/engine/multicoin";

const ASSET = testAssetId(9);
const hexq = (n: bigint | number) => "0x" + n.toString(16);
const TOPIC = `0x${"cd".repeat(32)}`;
/** Init code: LOG1 with the topic, then STOP. */
const logWith = (topic: string) => `0x7f${topic.slice(2)}60006000a100`;
const text = new TextDecoder();

/** A history of blocks with logs, value transfers and multi-coin balance edits. */
async function makeHistory(chain: TestChain): Promise<string[]> {
  const [s0, s1] = chain.signers;
  const hashes: string[] = [];
  for (let i = 0; i < 4; i++) {
    hashes.push((await chain.rpc("eth_sendTransaction", [{ from: s0!.address, data: logWith(TOPIC) }])) as string);
    await chain.rpc("nativekit_setAssetBalance", [s1!.address, ASSET, hexq(100 + i)]);
    hashes.push((await s1!.sendTransaction({ to: s0!.address, value: 1000n + BigInt(i) })).hash);
  }
  return hashes;
}

/** What a client reads of the chain: blocks with transactions, receipts, transactions by hash, logs, asset balances at each block. */
async function contents(chain: TestChain, hashes: string[]): Promise<unknown[]> {
  const height = Number(await chain.rpc("eth_blockNumber"));
  const out: unknown[] = [];
  for (let n = 0; n <= height; n++) {
    out.push(await chain.rpc("eth_getBlockByNumber", [hexq(n), true]));
    out.push(await chain.rpc("eth_getBlockReceipts", [hexq(n)]));
    out.push(await chain.rpc("eth_getAssetBalance", [chain.signers[1]!.address, hexq(n), ASSET]));
  }
  for (const hash of hashes) out.push(await chain.rpc("eth_getTransactionByHash", [hash]));
  out.push(await chain.rpc("eth_getLogs", [{ fromBlock: "earliest", toBlock: "latest", topics: [TOPIC] }]));
  return out;
}

/**
 * Rewrites the chain under the backend's "c/" namespace as the previous version stored it
 * (layout 1): block records of six items, no layout record and no index entries.
 */
async function downgradeToLayout1(backend: StoreBackend, chainId: number): Promise<void> {
  const store = durableStore(backend).namespace("c/");
  const common = engineCommon(chainId, "cancun");
  const ledger = new MultiCoinLedger(store);
  const records: [string, BlockRecord][] = [];
  for await (const [key, value] of store.entries("b/")) {
    records.push([key, decodeBlockRecord(value, common, (stored) => ledger.snapshotAt(stored.lastChange!.height))]);
  }
  for await (const [key] of store.entries()) if (key === "layout" || /^(h|x|m|l)\//.test(key)) store.del(key);
  let parent = EMPTY_MULTICOIN;
  for (const [key, record] of records) {
    store.put(key, encodeBlockRecord(record, parent));
    parent = record.multiCoin;
  }
  await store.commit();
}

const backends: [string, () => Promise<ReopenableBackend>][] = [
  ["in memory", async () => memoryBackend()],
  ["in LevelDB", levelBackend],
];

for (const [where, makeBackend] of backends) {
  describe(`contract chain persistence: start-up that does not read the chain (${where})`, function () {
    this.timeout(60_000);
    let stored: ReopenableBackend;
    beforeEach(async () => {
      stored = await makeBackend();
    });
    afterEach(async () => stored.dispose());

    it("reads the head block at start, not the blocks below it", async () => {
      const first = await startStoredChain(stored.backend());
      await makeHistory(first);
      const height = first.native.engine.chain.height;
      await stored.reopen();
      const counting = new CountingBackend(stored.backend());
      const second = await startStoredChain(counting);
      expect(second.native.engine.chain.height).to.equal(height);
      const blockReads = counting.reads.filter((key) => key.startsWith("c/b/"));
      // The head, and the check that nothing is stored above it.
      expect(blockReads.map((key) => BigInt(`0x${key.slice(4)}`))).to.have.members([height, height + 1n]);
      expect(counting.listed.filter((prefix) => prefix.startsWith("c/"))).to.deep.equal([]);
    });

    it("serves every block, transaction, receipt, log and asset balance with a block cache of one", async () => {
      const first = await startStoredChain(stored.backend());
      const hashes = await makeHistory(first);
      const before = await contents(first, hashes);
      await stored.reopen();
      const second = await startStoredChain(stored.backend(), { storeCaches: { blocks: 1, trieNodesMb: 1 } });
      expect(await contents(second, hashes)).to.deep.equal(before);
    });

    it("migrates a chain stored in layout 1 on open, and serves it as it was", async () => {
      const first = await startStoredChain(stored.backend());
      const hashes = await makeHistory(first);
      const before = await contents(first, hashes);
      await downgradeToLayout1(stored.backend(), first.native.engine.options.chainId);
      await stored.reopen();
      const second = await startStoredChain(stored.backend());
      expect(await contents(second, hashes)).to.deep.equal(before);
      const store = durableStore(stored.backend()).namespace("c/");
      expect(text.decode(await store.get("layout"))).to.equal("2");
      // Blocks go on from the migrated head, and are found by hash after another restart.
      const next = (await second.rpc("eth_sendTransaction", [{ from: second.signers[0]!.address, data: logWith(TOPIC) }])) as string;
      await stored.reopen();
      const third = await startStoredChain(stored.backend());
      expect(((await third.rpc("eth_getTransactionReceipt", [next])) as { blockNumber: string }).blockNumber).to.equal(hexq(second.native.engine.chain.height));
    });

    it("refuses a chain stored in a layout it does not know, and changes nothing", async () => {
      await startStoredChain(stored.backend());
      const store = durableStore(stored.backend()).namespace("c/");
      store.put("layout", new TextEncoder().encode("3"));
      await store.commit();
      const keys = async () => {
        const all: string[] = [];
        for await (const [key] of durableStore(stored.backend()).entries()) all.push(key);
        return all;
      };
      const held = await keys();
      await stored.reopen();
      const refusal = await startStoredChain(stored.backend()).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(refusal?.message).to.match(/layout 3.*reads layouts 1 and 2/);
      expect(await keys()).to.deep.equal(held);
    });

    it("after evm_revert and a restart, finds neither the dropped transactions nor their logs", async () => {
      const first = await startStoredChain(stored.backend());
      const [s0] = first.signers;
      const snapshot = await first.rpc("evm_snapshot");
      const dropped = (await first.rpc("eth_sendTransaction", [{ from: s0!.address, data: logWith(TOPIC) }])) as string;
      await first.rpc("evm_revert", [snapshot]);
      const kept = (await s0!.sendTransaction({ to: s0!.address, value: 1n })).hash;
      await stored.reopen();
      const second = await startStoredChain(stored.backend());
      expect(await second.rpc("eth_getTransactionByHash", [dropped])).to.equal(null);
      expect(await second.rpc("eth_getLogs", [{ fromBlock: "earliest", toBlock: "latest", topics: [TOPIC] }])).to.deep.equal([]);
      expect(((await second.rpc("eth_getTransactionByHash", [kept])) as { blockNumber: string }).blockNumber).to.equal(hexq(1));
    });
  });
}

describe("contract chain persistence: the multi-coin ledger", () => {
  it("gives each changing block's balances back from a fresh ledger, past many full snapshots", async () => {
    const store = durableStore(new MemoryBackend());
    const ledger = new MultiCoinLedger(store);
    const expected = new Map<bigint, MultiCoinSnapshot>();
    let last: bigint | undefined;
    let snapshot = EMPTY_MULTICOIN;
    for (let height = 1n; height <= 300n; height++) {
      // Every third block changes nothing; the others set, raise or remove a balance, or flag an account.
      const balances = new Map(snapshot.balances);
      const flagged = new Set(snapshot.flagged);
      if (height % 3n === 1n) balances.set(`${(height % 7n).toString(16).padStart(40, "0")}${"11".repeat(32)}`, height);
      if (height % 3n === 2n) balances.delete([...balances.keys()][0] ?? "");
      if (height % 10n === 0n) flagged.add((height % 4n).toString(16).padStart(40, "0"));
      const after = { balances, flagged };
      last = ledger.stage(height, last, snapshot, after);
      if (last === height) expected.set(height, after);
      snapshot = after;
    }
    await store.commit();
    const fresh = new MultiCoinLedger(store);
    expect(expected.size).to.be.greaterThan(128);
    for (const [height, balances] of [...expected].reverse()) expect(fresh.snapshotAt(height)).to.deep.equal(balances);
  });
});
