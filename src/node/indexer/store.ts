/**
 * Where an index keeps its containers: the small interface the in-memory store and the
 * data-directory store (`--db-dir`, `durable-index-store.ts`) both implement. A store only keeps what it is given, in order; the rules
 * (no duplicates, errors, page sizes) live in `ContainerIndex`.
 */

/** One accepted container as the index keeps it. */
export interface StoredContainer {
  /** The container's 32-byte ID. */
  readonly id: Uint8Array;
  /** The container's bytes as accepted. */
  readonly bytes: Uint8Array;
  /** When this node accepted it, in Unix nanoseconds. */
  readonly timestamp: bigint;
  /** Its position in acceptance order, from 0. */
  readonly index: bigint;
}

export interface IndexStore {
  /**
   * Stores `container` at the next index (the number of containers stored so far) and returns
   * it with that index. Appends are made one at a time: a caller waits for one before the next.
   */
  append(container: Omit<StoredContainer, "index">): Promise<StoredContainer>;
  /** The container at `index`, if stored. */
  byIndex(index: bigint): Promise<StoredContainer | undefined>;
  /** The container with this ID, if stored. */
  byId(id: Uint8Array): Promise<StoredContainer | undefined>;
  /** Up to `count` containers from `start` on, in order (fewer at the end, none past it). */
  range(start: bigint, count: number): Promise<StoredContainer[]>;
  /** The last container stored, if any. */
  last(): Promise<StoredContainer | undefined>;
  /** Releases the storage; nothing may be called after. */
  close(): Promise<void>;
}

/** Map key of an ID. */
export function idKey(id: Uint8Array): string {
  return Buffer.from(id).toString("hex");
}
