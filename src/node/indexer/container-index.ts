import { IndexError } from "./errors";
import { type IndexStore, type StoredContainer, idKey } from "./store";

/**
 * One index of the node (`/ext/index/X/tx`, `/ext/index/C/block`, ...): the containers a chain
 * accepts, numbered in acceptance order from 0 without gaps, with the reference node's rules
 * (avalanchego `indexer/index.go`):
 *
 * - a container already indexed is not indexed again;
 * - `range` takes 1 to 1024 containers and stops at the last accepted one;
 * - reads name what is missing in the node's words (`IndexError`).
 *
 * Acceptance is announced synchronously by the chains; the write to the store is queued, and
 * every read waits for the writes queued before it, so a container is readable as soon as the
 * call that accepted it has returned.
 */

/** Most containers one `getContainerRange` returns (the reference's MaxFetchedByRange). */
const MAX_FETCHED_BY_RANGE = 1024;

/** Unix time in nanoseconds: the wall clock at start, advanced by the monotonic clock. */
export function nanosecondClock(): () => bigint {
  const startWall = BigInt(Date.now()) * 1_000_000n;
  const startMonotonic = process.hrtime.bigint();
  return () => startWall + (process.hrtime.bigint() - startMonotonic);
}

export class ContainerIndex {
  private writes: Promise<void> = Promise.resolve();
  /** IDs accepted but perhaps not yet written, so a second announcement is skipped at once. */
  private readonly seen = new Set<string>();
  private failure: Error | undefined;

  constructor(
    private readonly store: IndexStore,
    private readonly clock: () => bigint = nanosecondClock(),
  ) {}

  /** Records an accepted container (ignored when its ID is already indexed). */
  accept(id: Uint8Array, bytes: Uint8Array): void {
    const key = idKey(id);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const timestamp = this.clock();
    this.writes = this.writes.then(async () => {
      if (this.failure !== undefined) return;
      try {
        if ((await this.store.byId(id)) !== undefined) return;
        await this.store.append({ id, bytes, timestamp });
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(String(error));
      }
    });
  }

  /** Resolves once every container accepted so far is written. */
  async flushed(): Promise<void> {
    await this.writes;
    if (this.failure !== undefined) {
      throw new IndexError("storage", `the index could not store an accepted container: ${this.failure.message}`);
    }
  }

  async lastAccepted(): Promise<StoredContainer> {
    await this.flushed();
    const last = await this.store.last();
    if (last === undefined) throw IndexError.noneAccepted();
    return last;
  }

  /** The last container stored, if any (what a catch-up continues from). */
  async last(): Promise<StoredContainer | undefined> {
    await this.flushed();
    return this.store.last();
  }

  async byIndex(index: bigint): Promise<StoredContainer> {
    await this.flushed();
    const container = await this.store.byIndex(index);
    if (container === undefined) throw IndexError.noContainerAt(index);
    return container;
  }

  async byId(id: Uint8Array): Promise<StoredContainer> {
    await this.flushed();
    const container = await this.store.byId(id);
    if (container === undefined) throw IndexError.notFound();
    return container;
  }

  /** Containers `start` to `start + count - 1`, cut at the last accepted one. */
  async range(start: bigint, count: bigint): Promise<StoredContainer[]> {
    if (count < 1n || count > BigInt(MAX_FETCHED_BY_RANGE)) throw IndexError.numToFetch(count, MAX_FETCHED_BY_RANGE);
    const last = await this.lastAccepted();
    if (start > last.index) throw IndexError.startPastEnd(start, last.index);
    return this.store.range(start, Number(count));
  }

  async indexOf(id: Uint8Array): Promise<bigint> {
    return (await this.byId(id)).index;
  }

  async isAccepted(id: Uint8Array): Promise<boolean> {
    await this.flushed();
    return (await this.store.byId(id)) !== undefined;
  }

  /** Waits for the queued writes, then closes the store. */
  async close(): Promise<void> {
    await this.writes;
    await this.store.close();
  }
}
