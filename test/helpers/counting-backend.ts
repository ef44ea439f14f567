import type { StoreBackend } from "../../src/storage";

/** A real backend whose reads are recorded: the key of every get, the prefix of every listing (what start-up reads). */
export class CountingBackend implements StoreBackend {
  readonly reads: string[] = [];
  readonly listed: string[] = [];
  constructor(readonly inner: StoreBackend) {}
  get(key: string) {
    this.reads.push(key);
    return this.inner.get(key);
  }
  getSync(key: string) {
    this.reads.push(key);
    return this.inner.getSync(key);
  }
  write(ops: ReadonlyMap<string, Uint8Array | undefined>) {
    return this.inner.write(ops);
  }
  entries(prefix: string) {
    this.listed.push(prefix);
    return this.inner.entries(prefix);
  }
  close() {
    return this.inner.close();
  }
}
