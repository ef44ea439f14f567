import { expect } from "chai";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { bytesToHex, ValueEncoding } from "@ethereumjs/util";
import { Engine } from "../../src/engine";
import { DurableTrieDB } from "../../src/engine/persistence/trie-db";
import { applyMultiCoinChange, EMPTY_MULTICOIN, multiCoinChange } from "../../src/engine/persistence/multicoin-diff";
import { durableStore, MemoryBackend } from "../../src/storage";
import type { MultiCoinSnapshot } from "../../src/engine/multicoin";

const bytes = (...values: number[]) => Uint8Array.from(values);
const trieOpts = { useKeyHashing: true, valueEncoding: ValueEncoding.Bytes } as const;

describe("contract chain persistence: the trie node database", () => {
  it("stages every node the trie writes, and a new trie over the store reads them back", async () => {
    const backend = new MemoryBackend();
    const store = durableStore(backend);
    const trie = new MerklePatriciaTrie({ ...trieOpts, db: new DurableTrieDB(store) });
    for (let i = 0; i < 50; i++) await trie.put(bytes(i), bytes(i, i, i));
    expect(backend.size).to.equal(0);
    await store.commit();
    expect(backend.size).to.be.greaterThan(0);

    const reopened = new MerklePatriciaTrie({ ...trieOpts, db: new DurableTrieDB(durableStore(backend)), root: trie.root() });
    for (let i = 0; i < 50; i++) expect(await reopened.get(bytes(i))).to.deep.equal(bytes(i, i, i));
  });

  it("keeps a node read from the store in memory", async () => {
    const backend = new MemoryBackend();
    const store = durableStore(backend);
    await new DurableTrieDB(store).put("aa", bytes(1));
    await store.commit();
    let reads = 0;
    const counting = durableStore(Object.assign(Object.create(backend) as MemoryBackend, {
      get: (key: string) => {
        reads++;
        return backend.get(key);
      },
    }));
    const db = new DurableTrieDB(counting);
    expect(await db.get("aa")).to.deep.equal(bytes(1));
    expect(await db.get("aa")).to.deep.equal(bytes(1));
    expect(reads).to.equal(1);
    expect(await db.get("bb")).to.equal(undefined);
  });

  it("shares its nodes and its store with its shallow copies (storage tries, views of past blocks)", async () => {
    const store = durableStore(new MemoryBackend());
    const db = new DurableTrieDB(store);
    const copy = db.shallowCopy();
    await copy.put("cc", bytes(2));
    expect(await db.get("cc")).to.deep.equal(bytes(2));
    expect(await store.get("cc")).to.deep.equal(bytes(2));
  });

  it("refuses string values, which would come back as bytes", async () => {
    const db = new DurableTrieDB(durableStore(new MemoryBackend()));
    let error: unknown;
    await db.put("dd", "0102").catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/ValueEncoding.Bytes/);
  });
});

describe("contract chain persistence: a block's multi-coin change", () => {
  const snapshot = (balances: [string, bigint][], flagged: string[]): MultiCoinSnapshot => ({ balances: new Map(balances), flagged: new Set(flagged) });
  const a = "a".repeat(40);
  const b = "b".repeat(40);
  const asset = "1".repeat(64);

  it("is empty, and gives back the parent's snapshot, when the block changed nothing", () => {
    const parent = snapshot([[a + asset, 5n]], [a]);
    const change = multiCoinChange(parent, parent);
    expect(change).to.deep.equal({ balances: [], flagged: [], unflagged: [] });
    expect(applyMultiCoinChange(parent, change)).to.equal(parent);
  });

  it("records balances set, removed, and accounts flagged and unflagged, and rebuilds the block's balances", () => {
    const parent = snapshot([[a + asset, 5n], [b + asset, 9n]], [a, b]);
    const after = snapshot([[a + asset, 6n]], [a]);
    const change = multiCoinChange(parent, after);
    expect(change.balances).to.deep.equal([[a + asset, 6n], [b + asset, 0n]]);
    expect(change.unflagged).to.deep.equal([b]);
    expect(applyMultiCoinChange(parent, change)).to.deep.equal(after);
    expect(applyMultiCoinChange(EMPTY_MULTICOIN, multiCoinChange(EMPTY_MULTICOIN, after))).to.deep.equal(after);
  });
});

describe("contract chain persistence: atomic transactions and the clock", () => {
  /** Stands for a signed atomic transaction's bytes: the engine keeps them as given. */
  const ATOMIC_TX_BYTES = Uint8Array.from([0, 0, 0, 0, 0, 1, 0xab, 0xcd]);

  it("keeps a block's atomic transaction IDs, bytes and gas, and the clock's offset", async function () {
    this.timeout(20_000);
    const backend = new MemoryBackend();
    const store = () => durableStore(backend).namespace("c/");
    const engine = await Engine.create({ store: store() });
    const address = [...engine.unlocked.values()][0]!.address;
    const assetId = "2".repeat(64);
    const record = await engine.serialize(() =>
      engine.mineAtomic({ id: "atomicTx1", bytes: ATOMIC_TX_BYTES, gasUsed: 12_345n, apply: (state) => state.setAssetBalance(address, assetId, 77n) }),
    );
    const offset = engine.increaseTime(3600);
    await engine.serialize(() => engine.mineBlock());

    const reopened = await Engine.create({ store: store() });
    const again = reopened.blockAt(record.number)!;
    expect(again.atomicTransactions).to.deep.equal(["atomicTx1"]);
    expect(again.atomicGasUsed).to.equal(12_345n);
    expect(again.atomicTransactionBytes).to.deep.equal([ATOMIC_TX_BYTES]);
    expect(reopened.atomicTransactionBlock("atomicTx1")?.hash).to.equal(record.hash);
    expect(await reopened.getAssetBalance(address, assetId, again)).to.equal(77n);
    expect(reopened.increaseTime(0)).to.equal(offset);
    expect(bytesToHex(reopened.head.block.hash())).to.equal(engine.head.hash);
  });
});
