import type { DurableStore } from "./durable-store";

/**
 * A domain's records in its namespace of the durable store, mirrored in memory.
 *
 * The mirror is what makes snapshots cheap to persist: a domain that can go back to an earlier
 * state (evm_revert, hardhat_reset) captures its mirror along with its working state, and the
 * restore stages exactly the difference between the records now and then (puts of what changed
 * or came back, deletions of what did not exist then). Whoever commits next writes it.
 *
 * Records are never edited in place (a change puts a new value), so a capture copies the map
 * and the restore compares values by identity.
 */
export class MirroredRecords {
  private records: Map<string, Uint8Array>;

  private constructor(
    readonly store: DurableStore,
    loaded: Map<string, Uint8Array>,
  ) {
    this.records = loaded;
  }

  /** An empty mirror over `store` (a namespace that holds nothing yet). */
  static empty(store: DurableStore): MirroredRecords {
    return new MirroredRecords(store, new Map());
  }

  /**
   * The mirror of the committed records of `store` whose key starts with one of `prefixes`
   * (every record without them), in key order. A domain that keeps other records in the same
   * namespace (read on demand, not mirrored) writes and removes those itself: a restore stages
   * only the mirrored ones.
   */
  static async load(store: DurableStore, prefixes: readonly string[] = [""]): Promise<MirroredRecords> {
    const loaded = new Map<string, Uint8Array>();
    for (const prefix of prefixes) for await (const [key, value] of store.entries(prefix)) loaded.set(key, value);
    return new MirroredRecords(store, loaded);
  }

  get size(): number {
    return this.records.size;
  }

  get(key: string): Uint8Array | undefined {
    return this.records.get(key);
  }

  /** Records whose key starts with `prefix`, in the order they were loaded then added. */
  *entries(prefix = ""): IterableIterator<[string, Uint8Array]> {
    for (const entry of this.records) if (entry[0].startsWith(prefix)) yield entry;
  }

  /** Stages a record (and mirrors it). */
  put(key: string, value: Uint8Array): void {
    this.records.set(key, value);
    this.store.put(key, value);
  }

  /** Stages the deletion of a record that exists. */
  del(key: string): void {
    if (this.records.delete(key)) this.store.del(key);
  }

  /**
   * The records as they are now: the returned function stages what turns the store back into
   * them (and mirrors it), as often as it is called.
   */
  capture(): () => void {
    const saved = new Map(this.records);
    return () => {
      for (const key of this.records.keys()) if (!saved.has(key)) this.store.del(key);
      for (const [key, value] of saved) if (this.records.get(key) !== value) this.store.put(key, value);
      this.records = new Map(saved);
    };
  }
}
