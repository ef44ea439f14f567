import { expect } from "chai";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { ValueEncoding } from "@ethereumjs/util";
import { DurableTrieDB } from "../../src/engine/persistence/trie-db";
import { Lru } from "../../src/engine/persistence/lru";
import { parseNodeArgs } from "../../src/cli/node-flags";
import { nodeChainsOptionsOf } from "../../src/cli/node-options";
import { durableStore, MemoryBackend } from "../../src/storage";
import { memoryBackend, startStoredChain } from "../helpers/stored-chain";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("contract chain persistence: the caches' bounds", () => {
  it("lets go of the trie nodes held past the budget, and reads them back from the store", async () => {
    const store = durableStore(new MemoryBackend());
    const limit = 4096;
    const db = new DurableTrieDB(store, undefined, limit);
    const trie = new MerklePatriciaTrie({ useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, db });
    let most = 0;
    for (let i = 0; i < 200; i++) {
      await trie.put(bytes(i), bytes(i, i, i, i));
      most = Math.max(most, db.heldBytes);
    }
    await store.commit();
    expect(most).to.be.at.most(limit);
    for (let i = 0; i < 200; i++) expect(await trie.get(bytes(i))).to.deep.equal(bytes(i, i, i, i));
  });

  it("keeps the most recently used entries of a cache", () => {
    const cache = new Lru<number, string>(2);
    cache.set(1, "one");
    cache.set(2, "two");
    cache.get(1);
    cache.set(3, "three");
    expect([cache.get(1), cache.get(2), cache.get(3)]).to.deep.equal(["one", undefined, "three"]);
  });

  it("refuses a block cache of no block", async () => {
    const refusal = await startStoredChain(memoryBackend().backend(), { storeCaches: { blocks: 0 } }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refusal?.message).to.equal("the store's blocks cache size must be a positive whole number, got 0");
  });

  it("takes the sizes from the node's --accepted-cache-size and --trie-clean-cache", async () => {
    const parsed = parseNodeArgs(["--db-dir", "/tmp/unused", "--accepted-cache-size", "8", "--trie-clean-cache", "64"]);
    if (parsed === "help" || "error" in parsed) throw new Error(`not parsed: ${JSON.stringify(parsed)}`);
    expect((await nodeChainsOptionsOf(parsed.options)).storeCaches).to.deep.equal({ blocks: 8, trieNodesMb: 64 });
  });
});
