import type { StoreBackend } from "./durable-store";

/**
 * A backend in memory: what tests use to check a domain's persistence without a disk, and what
 * "reopening" means there (a new domain object over the same backend).
 */
export class MemoryBackend implements StoreBackend {
  private readonly map = new Map<string, Uint8Array>();

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.map.get(key);
  }

  getSync(key: string): Uint8Array | undefined {
    return this.map.get(key);
  }

  async write(ops: ReadonlyMap<string, Uint8Array | undefined>): Promise<void> {
    for (const [key, value] of ops) {
      if (value === undefined) this.map.delete(key);
      else this.map.set(key, value.slice());
    }
  }

  async *entries(prefix: string): AsyncIterable<[string, Uint8Array]> {
    const keys = [...this.map.keys()].filter((key) => key.startsWith(prefix)).sort();
    for (const key of keys) {
      const value = this.map.get(key);
      if (value !== undefined) yield [key, value];
    }
  }

  async close(): Promise<void> {}

  get size(): number {
    return this.map.size;
  }
}
