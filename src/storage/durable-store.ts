/**
 * The node's durable key-value storage, as the domain sees it.
 *
 * Domains keep their working state in memory and stage here what must survive; whoever
 * completes an acceptance (a sealed block, an accepted exchange-chain transaction) calls
 * `commit()`, which writes everything staged since the last commit as one atomic batch. A block
 * and what it did to other domains (atomic memory, the index) thus land together or not at
 * all, and a `kill -9` leaves the store at the last commit.
 *
 * Keys are strings (each domain under its own namespace prefix), values bytes.
 */
export interface DurableStore {
  /** The value of `key`, seeing writes staged or being committed. */
  get(key: string): Promise<Uint8Array | undefined>;
  /**
   * `get` without waiting: for reads a synchronous caller needs (a block of a long chain read on
   * demand, where the chain's readers do not await). LevelDB answers from its own caches or one
   * file read, in microseconds.
   */
  getSync(key: string): Uint8Array | undefined;
  /** Stages a write; it reaches the disk with the next `commit()`. */
  put(key: string, value: Uint8Array): void;
  /** Stages a deletion. */
  del(key: string): void;
  /**
   * Writes everything staged (in every namespace of the store) as one atomic batch; resolves
   * once the store has it. Commits are written in the order they are called.
   */
  commit(): Promise<void>;
  /** Committed entries whose key starts with `prefix`, in key order, the prefix kept in the key. */
  entries(prefix?: string): AsyncIterable<[string, Uint8Array]>;
  /** A view of this store under `prefix`: its keys are prefixed, its staging and commits shared. */
  namespace(prefix: string): DurableStore;
}

/** What a store keeps on disk (or in memory, for tests): the backend under the staging. */
export interface StoreBackend {
  get(key: string): Promise<Uint8Array | undefined>;
  getSync(key: string): Uint8Array | undefined;
  /** Applies the operations atomically (`undefined` deletes). */
  write(ops: ReadonlyMap<string, Uint8Array | undefined>): Promise<void>;
  entries(prefix: string): AsyncIterable<[string, Uint8Array]>;
  close(): Promise<void>;
}

/** The staging shared by a store and all its namespaces. */
class Staging {
  staged = new Map<string, Uint8Array | undefined>();
  /** Batches handed to the backend and not yet written, oldest first: reads still see them. */
  readonly writing: Map<string, Uint8Array | undefined>[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly backend: StoreBackend) {}

  lookup(key: string): { found: boolean; value: Uint8Array | undefined } {
    if (this.staged.has(key)) return { found: true, value: this.staged.get(key) };
    for (let i = this.writing.length - 1; i >= 0; i--) {
      const batch = this.writing[i]!;
      if (batch.has(key)) return { found: true, value: batch.get(key) };
    }
    return { found: false, value: undefined };
  }

  commit(): Promise<void> {
    if (this.staged.size === 0) return this.queue;
    const batch = this.staged;
    this.staged = new Map();
    this.writing.push(batch);
    const written = this.queue.then(() => this.backend.write(batch));
    // A failed write stays failed for its caller; later commits still run.
    this.queue = written.then(
      () => void this.writing.shift(),
      () => void this.writing.shift(),
    );
    return written;
  }
}

class StagedStore implements DurableStore {
  constructor(
    private readonly staging: Staging,
    private readonly prefix: string,
  ) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    const full = this.prefix + key;
    const pending = this.staging.lookup(full);
    if (pending.found) return pending.value;
    return this.staging.backend.get(full);
  }

  getSync(key: string): Uint8Array | undefined {
    const full = this.prefix + key;
    const pending = this.staging.lookup(full);
    if (pending.found) return pending.value;
    return this.staging.backend.getSync(full);
  }

  put(key: string, value: Uint8Array): void {
    this.staging.staged.set(this.prefix + key, value);
  }

  del(key: string): void {
    this.staging.staged.set(this.prefix + key, undefined);
  }

  commit(): Promise<void> {
    return this.staging.commit();
  }

  async *entries(prefix = ""): AsyncIterable<[string, Uint8Array]> {
    for await (const [key, value] of this.staging.backend.entries(this.prefix + prefix)) {
      yield [key.slice(this.prefix.length), value];
    }
  }

  namespace(prefix: string): DurableStore {
    return new StagedStore(this.staging, this.prefix + prefix);
  }
}

/** A durable store over `backend`, with nothing staged. */
export function durableStore(backend: StoreBackend): DurableStore {
  return new StagedStore(new Staging(backend), "");
}
