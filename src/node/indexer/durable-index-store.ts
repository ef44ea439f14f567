import type { DurableStore } from "../../storage";
import type { IndexStore, StoredContainer } from "./store";
import { idKey } from "./store";

/**
 * An index store in the node's data directory (`--db-dir`): the index survives a restart.
 * Layout, under the index's namespace:
 *
 *   next                   -> the next index (uint64, big-endian)
 *   c/<index, 16 hex>      -> container: ID (32 bytes) ‖ timestamp (int64 ns) ‖ bytes
 *   id/<ID, 64 hex>        -> its index (uint64)
 *
 * Each append writes the container, its ID -> index entry and the next index in one commit, so
 * a crash leaves either all of them or none. The store given must have a staging of its own
 * (not the chains'): an append commits at once, and must not carry a block half-staged.
 */
const NEXT_INDEX_KEY = "next";
const ID_LENGTH = 32;

export class DurableIndexStore implements IndexStore {
  private constructor(
    private readonly store: DurableStore,
    private next: bigint,
  ) {}

  static async open(store: DurableStore): Promise<DurableIndexStore> {
    const next = await store.get(NEXT_INDEX_KEY);
    return new DurableIndexStore(store, next === undefined ? 0n : readUint64(next));
  }

  async append(container: Omit<StoredContainer, "index">): Promise<StoredContainer> {
    if (container.id.length !== ID_LENGTH) throw new RangeError(`a container ID has ${ID_LENGTH} bytes, got ${container.id.length}`);
    const index = this.next;
    this.store.put(containerKey(index), encodeRecord(container));
    this.store.put(`id/${idKey(container.id)}`, uint64(index));
    this.store.put(NEXT_INDEX_KEY, uint64(index + 1n));
    await this.store.commit();
    this.next = index + 1n;
    return { ...container, index };
  }

  async byIndex(index: bigint): Promise<StoredContainer | undefined> {
    if (index < 0n || index >= this.next) return undefined;
    const record = await this.store.get(containerKey(index));
    return record === undefined ? undefined : decodeRecord(record, index);
  }

  async byId(id: Uint8Array): Promise<StoredContainer | undefined> {
    if (id.length !== ID_LENGTH) return undefined;
    const index = await this.store.get(`id/${idKey(id)}`);
    return index === undefined ? undefined : this.byIndex(readUint64(index));
  }

  async range(start: bigint, count: number): Promise<StoredContainer[]> {
    const end = start + BigInt(count) < this.next ? start + BigInt(count) : this.next;
    const indices: bigint[] = [];
    for (let i = start; i < end; i++) indices.push(i);
    // Read together, not one after the other: a page is up to 1024 containers.
    const found = await Promise.all(indices.map((i) => this.byIndex(i)));
    return found.filter((c): c is StoredContainer => c !== undefined);
  }

  last(): Promise<StoredContainer | undefined> {
    return this.next === 0n ? Promise.resolve(undefined) : this.byIndex(this.next - 1n);
  }

  /** The data directory is closed by the node, after every store over it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function containerKey(index: bigint): string {
  return `c/${index.toString(16).padStart(16, "0")}`;
}

function uint64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, false);
  return bytes;
}

function readUint64(bytes: Uint8Array): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0, false);
}

function encodeRecord(container: Omit<StoredContainer, "index">): Uint8Array {
  const record = new Uint8Array(ID_LENGTH + 8 + container.bytes.length);
  record.set(container.id, 0);
  new DataView(record.buffer).setBigInt64(ID_LENGTH, container.timestamp, false);
  record.set(container.bytes, ID_LENGTH + 8);
  return record;
}

function decodeRecord(record: Uint8Array, index: bigint): StoredContainer {
  const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
  return {
    id: record.slice(0, ID_LENGTH),
    timestamp: view.getBigInt64(ID_LENGTH, false),
    bytes: record.slice(ID_LENGTH + 8),
    index,
  };
}
