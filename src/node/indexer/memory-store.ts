import { type IndexStore, type StoredContainer, idKey } from "./store";

/** An index store in memory: what a node without `--db-dir` keeps, lost when it stops. */
export class MemoryIndexStore implements IndexStore {
  private readonly containers: StoredContainer[] = [];
  private readonly byIdKey = new Map<string, StoredContainer>();

  append(container: Omit<StoredContainer, "index">): Promise<StoredContainer> {
    const stored: StoredContainer = { ...container, index: BigInt(this.containers.length) };
    this.containers.push(stored);
    this.byIdKey.set(idKey(stored.id), stored);
    return Promise.resolve(stored);
  }

  byIndex(index: bigint): Promise<StoredContainer | undefined> {
    return Promise.resolve(index < BigInt(this.containers.length) ? this.containers[Number(index)] : undefined);
  }

  byId(id: Uint8Array): Promise<StoredContainer | undefined> {
    return Promise.resolve(this.byIdKey.get(idKey(id)));
  }

  range(start: bigint, count: number): Promise<StoredContainer[]> {
    if (start >= BigInt(this.containers.length)) return Promise.resolve([]);
    const from = Number(start);
    return Promise.resolve(this.containers.slice(from, from + count));
  }

  last(): Promise<StoredContainer | undefined> {
    return Promise.resolve(this.containers[this.containers.length - 1]);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
