/**
 * The state tries' node database when the chain is durable: the nodes stay in memory as in the
 * in-memory engine (FlatKeyMapDB), every write is also staged into the durable store, and a node
 * missing from memory (after a restart) is read from the store and kept. The store's commit,
 * made once per sealed block or edit, writes the staged nodes with the records that need them.
 *
 * Nodes are content-addressed and never pruned (NodeCachingTrie refuses pruning), so a node once
 * written stays valid for every later root; deletions are still honoured if ethereumjs sends any.
 *
 * The nodes in memory are bounded (`--trie-clean-cache`): every node is in the store (staged or
 * committed) as soon as it is written, so once the nodes kept pass the budget they are all let
 * go, and the trie reads again from the store what it needs.
 */
import { bytesToUnprefixedHex, type BatchDBOp } from "@ethereumjs/util";
import type { DurableStore } from "../../storage";
import { FlatKeyMapDB } from "../node-cache-trie";

type Key = string | Uint8Array;
type Value = string | Uint8Array;

/** The bytes of the nodes kept in memory, against their limit; shared, as the nodes are, by shallow copies. */
interface NodeBudget {
  bytes: number;
  readonly limit: number;
}

/** Default budget: 256 MiB of keys and values. */
const DEFAULT_LIMIT_BYTES = 256 * 1024 * 1024;

export class DurableTrieDB extends FlatKeyMapDB {
  private readonly budget: NodeBudget;

  /** `nodes` and `budget` are shared by shallow copies (storage tries, views of past blocks), as MapDB's map is. */
  constructor(
    private readonly store: DurableStore,
    nodes?: Map<Key, Value>,
    budget: NodeBudget | number = DEFAULT_LIMIT_BYTES,
  ) {
    super(nodes);
    this.budget = typeof budget === "number" ? { bytes: 0, limit: budget } : budget;
  }

  override async get(key: Key): Promise<Value | undefined> {
    const known = await super.get(key);
    if (known !== undefined) return known;
    const name = keyName(key);
    const stored = await this.store.get(name);
    // Kept in memory: the trie asks for the same nodes again and again.
    if (stored !== undefined) this.keep(name, stored);
    return stored;
  }

  override async put(key: Key, value: Value): Promise<void> {
    // A string value would come back as bytes after a restart: the trie must use ValueEncoding.Bytes.
    if (typeof value === "string") throw new TypeError("DurableTrieDB stores bytes: open the trie with ValueEncoding.Bytes");
    this.spend(keyName(key).length + value.length);
    await super.put(key, value);
    this.store.put(keyName(key), value);
  }

  /** The bytes of the nodes held in memory now. */
  get heldBytes(): number {
    return this.budget.bytes;
  }

  private keep(name: string, value: Uint8Array): void {
    this.spend(name.length + value.length);
    this._database.set(name, value);
  }

  /** Counts `bytes` more; past the limit, every node held is let go first (the store has them all). */
  private spend(bytes: number): void {
    if (this.budget.bytes + bytes > this.budget.limit) {
      this._database.clear();
      this.budget.bytes = 0;
    }
    this.budget.bytes += bytes;
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
    return new DurableTrieDB(this.store, this._database, this.budget);
  }
}

/** The key as MapDB stores it: unprefixed hex for bytes (the trie passes hex strings already). */
function keyName(key: Key): string {
  return key instanceof Uint8Array ? bytesToUnprefixedHex(key) : key.toString();
}
