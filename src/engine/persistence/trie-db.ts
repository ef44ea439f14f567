/**
 * The state tries' node database when the chain is durable: the nodes stay in memory as in the
 * in-memory engine (FlatKeyMapDB), every write is also staged into the durable store, and a node
 * missing from memory (after a restart) is read from the store and kept. The store's commit,
 * made once per sealed block or edit, writes the staged nodes with the records that need them.
 *
 * Nodes are content-addressed and never pruned (NodeCachingTrie refuses pruning), so a node once
 * written stays valid for every later root; deletions are still honoured if ethereumjs sends any.
 */
import { bytesToUnprefixedHex, type BatchDBOp } from "@ethereumjs/util";
import type { DurableStore } from "../../storage";
import { FlatKeyMapDB } from "../node-cache-trie";

type Key = string | Uint8Array;
type Value = string | Uint8Array;

export class DurableTrieDB extends FlatKeyMapDB {
  /** `nodes` is shared by shallow copies (storage tries, views of past blocks), as MapDB's map is. */
  constructor(
    private readonly store: DurableStore,
    nodes?: Map<Key, Value>,
  ) {
    super(nodes);
  }

  override async get(key: Key): Promise<Value | undefined> {
    const known = await super.get(key);
    if (known !== undefined) return known;
    const name = keyName(key);
    const stored = await this.store.get(name);
    // Kept in memory: the trie asks for the same nodes again and again.
    if (stored !== undefined) this._database.set(name, stored);
    return stored;
  }

  override async put(key: Key, value: Value): Promise<void> {
    // A string value would come back as bytes after a restart: the trie must use ValueEncoding.Bytes.
    if (typeof value === "string") throw new TypeError("DurableTrieDB stores bytes: open the trie with ValueEncoding.Bytes");
    await super.put(key, value);
    this.store.put(keyName(key), value);
  }

  override async del(key: Key): Promise<void> {
    await super.del(key);
    this.store.del(keyName(key));
  }

  override async batch(ops: BatchDBOp<Key, Value>[]): Promise<void> {
    for (const op of ops) {
      if (op.type === "put") await this.put(op.key, op.value);
      else await this.del(op.key);
    }
  }

  override shallowCopy(): DurableTrieDB {
    return new DurableTrieDB(this.store, this._database);
  }
}

/** The key as MapDB stores it: unprefixed hex for bytes (the trie passes hex strings already). */
function keyName(key: Key): string {
  return key instanceof Uint8Array ? bytesToUnprefixedHex(key) : key.toString();
}
