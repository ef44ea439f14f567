import { expect } from "chai";
import fc from "fast-check";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { MapDB, ValueEncoding, bytesToHex } from "@ethereumjs/util";

import { FlatKeyMapDB, NodeCachingTrie } from "../../src/engine/node-cache-trie";

/** A FlatKeyMapDB that counts reads, to see which lookups reach the database. */
class CountingDB extends FlatKeyMapDB {
  reads = 0;
  override async get(key: string | Uint8Array): Promise<string | Uint8Array | undefined> {
    this.reads++;
    return super.get(key);
  }
}

const trieOpts = { valueEncoding: ValueEncoding.Bytes } as const;
const bytes = (...values: number[]) => Uint8Array.from(values);

type Op =
  | { kind: "put"; key: number; value: Uint8Array }
  | { kind: "del"; key: number }
  | { kind: "get"; key: number }
  | { kind: "checkpoint" }
  | { kind: "commit" }
  | { kind: "revert" }
  | { kind: "back"; to: number };

// Few keys with long shared prefixes, so the trie keeps splitting and merging branches and
// extensions; short values make nodes small enough to be embedded in their parent.
const KEYS = [bytes(0x12, 0x34), bytes(0x12, 0x35), bytes(0x12), bytes(0x12, 0x34, 0x56), bytes(0x40), bytes(0x41, 0x00), bytes(0xff, 0xff, 0xff)];
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("put" as const), key: fc.nat(KEYS.length - 1), value: fc.uint8Array({ minLength: 1, maxLength: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("del" as const), key: fc.nat(KEYS.length - 1) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("get" as const), key: fc.nat(KEYS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("checkpoint" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("commit" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("revert" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("back" as const), to: fc.nat(50) }) },
);

/** Applies one operation to a trie; returns what a reader would see (a value, or a root). */
async function apply(trie: MerklePatriciaTrie, op: Op, roots: Uint8Array[]): Promise<string> {
  switch (op.kind) {
    case "put":
      await trie.put(KEYS[op.key]!, op.value);
      break;
    case "del":
      await trie.del(KEYS[op.key]!);
      break;
    case "get": {
      const value = await trie.get(KEYS[op.key]!);
      return value === null ? "missing" : bytesToHex(value);
    }
    case "checkpoint":
      trie.checkpoint();
      break;
    case "commit":
      if (trie.hasCheckpoints()) await trie.commit();
      break;
    case "revert":
      if (trie.hasCheckpoints()) await trie.revert();
      break;
    case "back":
      // Reading an earlier root, as the engine does for past blocks; only when nothing is
      // open, because ethereumjs' own trie then also refuses roots it has not committed.
      if (!trie.hasCheckpoints() && roots.length > 0) trie.root(roots[op.to % roots.length]!);
      break;
  }
  if (!trie.hasCheckpoints()) roots.push(trie.root());
  return bytesToHex(trie.root());
}

describe("NodeCachingTrie: ethereumjs' trie with decoded nodes kept", () => {
  it("gives the same roots and values as ethereumjs' own trie for any sequence of writes, reads, checkpoints and root changes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 60 }), fc.boolean(), async (ops, hashKeys) => {
        const plain = new MerklePatriciaTrie({ ...trieOpts, db: new MapDB(), useKeyHashing: hashKeys });
        const cached = new NodeCachingTrie({ ...trieOpts, db: new FlatKeyMapDB(), useKeyHashing: hashKeys });
        const plainRoots: Uint8Array[] = [];
        const cachedRoots: Uint8Array[] = [];
        for (const op of ops) {
          expect(await apply(cached, op, cachedRoots), JSON.stringify(op)).to.equal(await apply(plain, op, plainRoots));
        }
        for (const key of KEYS) expect(await cached.get(key)).to.deep.equal(await plain.get(key));
      }),
      { numRuns: 300 },
    );
  });

  it("finds the same path as ethereumjs' own search: target node, remaining nibbles and stack", async () => {
    const shape = (path: { node: { serialize(): Uint8Array } | null; remaining: number[]; stack: { serialize(): Uint8Array }[] }) => ({
      node: path.node === null ? null : bytesToHex(path.node.serialize()),
      remaining: path.remaining,
      stack: path.stack.map((n) => bytesToHex(n.serialize())),
    });
    const probe = fc.oneof(fc.nat(KEYS.length - 1).map((i) => KEYS[i]!), fc.uint8Array({ minLength: 0, maxLength: 4 }));
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), fc.array(probe, { minLength: 1, maxLength: 8 }), async (ops, probes) => {
        const plain = new MerklePatriciaTrie({ ...trieOpts, db: new MapDB() });
        const cached = new NodeCachingTrie({ ...trieOpts, db: new FlatKeyMapDB() });
        for (const op of ops) {
          await apply(plain, op, []);
          await apply(cached, op, []);
        }
        for (const key of probes) expect(shape(await cached.findPath(key)), bytesToHex(key)).to.deep.equal(shape(await plain.findPath(key)));
      }),
      { numRuns: 300 },
    );
  });

  it("treats a missing node as not found, or throws when asked to, as ethereumjs does", async () => {
    const trie = new NodeCachingTrie({ ...trieOpts, db: new FlatKeyMapDB() });
    trie.root(new Uint8Array(32).fill(7));
    expect(await trie.findPath(bytes(1))).to.deep.equal({ node: null, remaining: [], stack: [] });
    expect(await trie.get(bytes(1))).to.equal(null);
    let thrown: unknown;
    await trie.findPath(bytes(1), true).catch((e: unknown) => (thrown = e));
    expect(String(thrown)).to.match(/Missing node in DB/);
  });

  it("reads nodes it wrote without going to the database", async () => {
    const db = new CountingDB();
    const trie = new NodeCachingTrie({ ...trieOpts, db, useKeyHashing: true });
    for (let i = 0; i < 200; i++) await trie.put(bytes(i), bytes(i, i, i));
    db.reads = 0;
    for (let i = 0; i < 200; i++) expect(await trie.get(bytes(i))).to.deep.equal(bytes(i, i, i));
    expect(db.reads).to.equal(0);
  });

  it("reads a node from the database once, then from memory", async () => {
    const db = new CountingDB();
    const writer = new MerklePatriciaTrie({ ...trieOpts, db, useKeyHashing: true });
    for (let i = 0; i < 50; i++) await writer.put(bytes(i), bytes(i, 1));
    const reader = new NodeCachingTrie({ ...trieOpts, db, useKeyHashing: true, root: writer.root() });
    await reader.get(bytes(7));
    const firstReads = db.reads;
    expect(firstReads).to.be.greaterThan(0);
    await reader.get(bytes(7));
    expect(db.reads).to.equal(firstReads);
  });

  it("does not serve nodes written under a checkpoint that was reverted", async () => {
    const trie = new NodeCachingTrie({ ...trieOpts, db: new FlatKeyMapDB(), useKeyHashing: true });
    await trie.put(bytes(1), bytes(1, 1));
    trie.checkpoint();
    await trie.put(bytes(2), bytes(2, 2));
    const reverted = trie.root();
    await trie.revert();
    expect(await trie.checkRoot(reverted)).to.equal(false);
    expect(await trie.get(bytes(2))).to.equal(null);
  });

  it("keeps nodes of committed checkpoints readable by their root", async () => {
    const trie = new NodeCachingTrie({ ...trieOpts, db: new FlatKeyMapDB(), useKeyHashing: true });
    trie.checkpoint();
    await trie.put(bytes(3), bytes(3, 3));
    await trie.commit();
    const committed = trie.root();
    await trie.put(bytes(3), bytes(4, 4));
    trie.root(committed);
    expect(await trie.get(bytes(3))).to.deep.equal(bytes(3, 3));
  });

  it("makes copies that are NodeCachingTries over the same database", async () => {
    const trie = new NodeCachingTrie({ ...trieOpts, db: new FlatKeyMapDB(), useKeyHashing: true });
    await trie.put(bytes(5), bytes(5, 5));
    const copy = trie.shallowCopy(false);
    expect(copy).to.be.instanceOf(NodeCachingTrie);
    expect(await copy.get(bytes(5))).to.deep.equal(bytes(5, 5));
    await copy.put(bytes(6), bytes(6, 6));
    trie.root(copy.root());
    expect(await trie.get(bytes(6))).to.deep.equal(bytes(6, 6));
  });

  it("refuses node pruning, which would delete nodes it still remembers", () => {
    expect(() => new NodeCachingTrie({ useNodePruning: true })).to.throw(/pruning/);
  });
});

describe("FlatKeyMapDB: the trie's node database", () => {
  it("stores and returns values by string and byte keys, and its copies share the data", async () => {
    const db = new FlatKeyMapDB();
    const key = ["ab", "cd".repeat(31)].join("");
    await db.put(key, bytes(1, 2));
    await db.put(bytes(9, 9), bytes(3));
    const copy = db.shallowCopy();
    expect(copy).to.be.instanceOf(FlatKeyMapDB);
    expect(await copy.get(key)).to.deep.equal(bytes(1, 2));
    expect(await copy.get(bytes(9, 9))).to.deep.equal(bytes(3));
    await copy.del(key);
    expect(await db.get(key)).to.equal(undefined);
  });
});
