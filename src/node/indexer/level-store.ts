import { ClassicLevel } from "classic-level";
import type { IndexStore, StoredContainer } from "./store";

/**
 * An index store in LevelDB (the node's `--db-dir`): the index survives a restart. Layout, one
 * database per index:
 *
 *   0x00                    -> the next index (uint64, big-endian)
 *   0x01 ‖ index (uint64)   -> container: ID (32 bytes) ‖ timestamp (int64 ns) ‖ bytes
 *   0x02 ‖ ID (32 bytes)    -> its index (uint64)
 *
 * Each append writes the container, its ID -> index entry and the next index in one atomic batch,
 * so a crash leaves either all of them or none.
 */
const NEXT_INDEX_KEY = Uint8Array.of(0x00);
const BY_INDEX = 0x01;
const BY_ID = 0x02;
const ID_LENGTH = 32;

type Db = ClassicLevel<Uint8Array, Uint8Array>;

export class LevelIndexStore implements IndexStore {
  private constructor(
    private readonly db: Db,
    private next: bigint,
  ) {}

  /** Opens (creating it when absent) the store in the directory `location`. */
  static async open(location: string): Promise<LevelIndexStore> {
    const db: Db = new ClassicLevel<Uint8Array, Uint8Array>(location, { keyEncoding: "view", valueEncoding: "view" });
    await db.open();
    const next = await db.get(NEXT_INDEX_KEY);
    return new LevelIndexStore(db, next === undefined ? 0n : readUint64(next));
  }

  async append(container: Omit<StoredContainer, "index">): Promise<StoredContainer> {
    if (container.id.length !== ID_LENGTH) throw new RangeError(`a container ID has ${ID_LENGTH} bytes, got ${container.id.length}`);
    const index = this.next;
    await this.db.batch([
      { type: "put", key: indexKey(index), value: encodeRecord(container) },
      { type: "put", key: idKey(container.id), value: uint64(index) },
      { type: "put", key: NEXT_INDEX_KEY, value: uint64(index + 1n) },
    ]);
    this.next = index + 1n;
    return { ...container, index };
  }

  async byIndex(index: bigint): Promise<StoredContainer | undefined> {
    if (index >= this.next) return undefined;
    const record = await this.db.get(indexKey(index));
    return record === undefined ? undefined : decodeRecord(record, index);
  }

  async byId(id: Uint8Array): Promise<StoredContainer | undefined> {
    if (id.length !== ID_LENGTH) return undefined;
    const index = await this.db.get(idKey(id));
    return index === undefined ? undefined : this.byIndex(readUint64(index));
  }

  async range(start: bigint, count: number): Promise<StoredContainer[]> {
    const end = start + BigInt(count) < this.next ? start + BigInt(count) : this.next;
    const indices: bigint[] = [];
    for (let i = start; i < end; i++) indices.push(i);
    const records = await this.db.getMany(indices.map(indexKey));
    return records.flatMap((record, i) => (record === undefined ? [] : [decodeRecord(record, indices[i]!)]));
  }

  last(): Promise<StoredContainer | undefined> {
    return this.next === 0n ? Promise.resolve(undefined) : this.byIndex(this.next - 1n);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

function uint64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, false);
  return bytes;
}

function readUint64(bytes: Uint8Array): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0, false);
}

function indexKey(index: bigint): Uint8Array {
  const key = new Uint8Array(9);
  key[0] = BY_INDEX;
  key.set(uint64(index), 1);
  return key;
}

function idKey(id: Uint8Array): Uint8Array {
  const key = new Uint8Array(1 + ID_LENGTH);
  key[0] = BY_ID;
  key.set(id, 1);
  return key;
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
