import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { durableStore, type DurableStore, LevelBackend, MemoryBackend, type StoreBackend } from "../../src/storage";

/**
 * Durable stores for persistence tests: the same test runs over a MemoryBackend and over a real
 * LevelDB in a temporary directory. `reopen()` is a restart: a new store (nothing staged) over
 * the same data, the LevelDB closed and opened again.
 */
export interface TestStore {
  /** The store of the current "process". */
  store: DurableStore;
  /** Drops the current store (and whatever it had staged) and opens the data again. */
  reopen(): Promise<DurableStore>;
  /** Makes the backend's next write fail (a full disk), once. */
  failNextWrite(): void;
  close(): Promise<void>;
}

/** Fails one write on demand, otherwise passes everything to the real backend. */
class FlakyBackend implements StoreBackend {
  failNext = false;
  constructor(public inner: StoreBackend) {}
  get(key: string): Promise<Uint8Array | undefined> {
    return this.inner.get(key);
  }
  getSync(key: string): Uint8Array | undefined {
    return this.inner.getSync(key);
  }
  async write(ops: ReadonlyMap<string, Uint8Array | undefined>): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error("simulated write failure: no space left on device");
    }
    return this.inner.write(ops);
  }
  entries(prefix: string): AsyncIterable<[string, Uint8Array]> {
    return this.inner.entries(prefix);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

function testStore(flaky: FlakyBackend, reopenBackend: () => Promise<StoreBackend>, cleanup: () => void): TestStore {
  const t: TestStore = {
    store: durableStore(flaky),
    reopen: async () => {
      flaky.inner = await reopenBackend();
      t.store = durableStore(flaky);
      return t.store;
    },
    failNextWrite: () => {
      flaky.failNext = true;
    },
    close: async () => {
      await flaky.close();
      cleanup();
    },
  };
  return t;
}

export const STORE_KINDS: { name: string; create(): Promise<TestStore> }[] = [
  {
    name: "MemoryBackend",
    create: async () => {
      const memory = new MemoryBackend();
      return testStore(new FlakyBackend(memory), async () => memory, () => undefined);
    },
  },
  {
    name: "LevelBackend",
    create: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-persist-"));
      const location = path.join(dir, "db");
      const flaky = new FlakyBackend(await LevelBackend.open(location));
      return testStore(
        flaky,
        async () => {
          await flaky.inner.close();
          return LevelBackend.open(location);
        },
        () => fs.rmSync(dir, { recursive: true, force: true }),
      );
    },
  },
];
