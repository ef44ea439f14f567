/**
 * evm_snapshot and evm_revert: the moments the chain can go back to, and everything that goes
 * back with it (the head state, the clock, the pool, and the companions: state kept outside the
 * engine, such as a local network's exchange chain, that must move with the contract chain's).
 * hardhat_reset also returns the companions to their state when they joined.
 *
 * Going back removes blocks from the chain: whoever reported them (the logs subscriptions,
 * which then report their logs again with `removed: true`, as geth does on a reorg) learns
 * which through `onRemovedBlocks`.
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import type { BlockTime, ClockSnapshot } from "./block-time";
import type { BlockRecord } from "./chain";
import type { ChainState } from "./chain-state";
import type { MultiCoinSnapshot } from "./multicoin";
import type { ChainPersistence } from "./persistence/chain-persistence";
import type { TransactionPool } from "./pool";
import type { SnapshotCompanion } from "./types";

interface EngineSnapshot {
  height: bigint;
  stateRoot: Uint8Array;
  multiCoin: MultiCoinSnapshot;
  clock: ClockSnapshot;
  pending: TypedTransaction[];
  /** Restores the companions' state of the same moment (see addCompanion). */
  companions: (() => void)[];
}

export class Snapshots {
  private readonly snapshots = new Map<number, EngineSnapshot>();
  private nextSnapshotId = 1;
  /** Each companion with the restore function of its state when it joined (hardhat_reset). */
  private readonly companions: { companion: SnapshotCompanion; name: string; restoreInitial: (() => void) | undefined }[] = [];
  private readonly removedListeners = new Map<(records: readonly BlockRecord[]) => void, () => boolean>();

  constructor(
    private readonly state: ChainState,
    private readonly time: BlockTime,
    private readonly pool: TransactionPool,
    /** With a durable store, a revert is committed to it (the dropped blocks deleted) before it is answered. */
    private readonly persistence?: ChainPersistence,
  ) {}

  /**
   * Makes evm_snapshot, evm_revert and hardhat_reset take `companion`'s state along with the
   * chain's: a revert restores it as of the snapshot, a reset as of this call, so a companion
   * joins when both are at their start (a local network joins its chains at creation).
   */
  addCompanion(companion: SnapshotCompanion, name: string, atStart = true): void {
    this.companions.push({ companion, name, restoreInitial: atStart ? companion.capture() : undefined });
  }

  /** Why hardhat_reset cannot take every companion back to its start, if it cannot. */
  whyNoReset(): string | undefined {
    const notAtStart = this.companions.filter((c) => c.restoreInitial === undefined).map((c) => c.name);
    if (notAtStart.length === 0) return undefined;
    const named = notAtStart.map((name) => `the ${name}`);
    const list = named.length === 1 ? named[0]! : `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]!}`;
    return `hardhat_reset cannot take ${list} back to genesis on a node restored from its data directory; stop the node and start it on a new --db-dir`;
  }

  /**
   * Calls `listener` with the blocks each revert or reset takes off the chain, oldest first,
   * once the chain and state are back (so it may read the new head); returns the function that
   * stops it. `wanted`: whether the listener has any use for them now (a logs filter installed);
   * when no listener has, the removed blocks are not read at all (a reset of a long chain kept
   * in a store would otherwise read every block).
   */
  onRemovedBlocks(listener: (records: readonly BlockRecord[]) => void, wanted: () => boolean = () => true): () => void {
    this.removedListeners.set(listener, wanted);
    return () => this.removedListeners.delete(listener);
  }

  /** Whether any listener would use the blocks a revert or reset takes off the chain. */
  removedBlocksWanted(): boolean {
    for (const wanted of this.removedListeners.values()) if (wanted()) return true;
    return false;
  }

  /** The blocks from `from` to the head, if a listener would use them (else none are read). */
  blocksToAnnounce(from: bigint): BlockRecord[] {
    return this.removedBlocksWanted() ? [...this.state.chain.range(from, this.state.chain.height)] : [];
  }

  async snapshot(): Promise<number> {
    const id = this.nextSnapshotId++;
    const stateManager = this.state.stateManager;
    this.snapshots.set(id, {
      height: this.state.chain.height,
      stateRoot: await stateManager.getStateRoot(),
      multiCoin: stateManager.multiCoin.snapshot(),
      clock: this.time.capture(),
      pending: this.pool.capture(),
      companions: this.companions.map(({ companion }) => companion.capture()),
    });
    return id;
  }

  /** Returns to a snapshot; it and every later snapshot are consumed (Hardhat semantics). */
  async revertTo(id: number): Promise<boolean> {
    const snapshot = this.snapshots.get(id);
    if (snapshot === undefined) return false;
    for (const key of [...this.snapshots.keys()]) if (key >= id) this.snapshots.delete(key);
    const removed = this.blocksToAnnounce(snapshot.height + 1n);
    const droppedTo = this.state.chain.height;
    this.state.chain.truncate(snapshot.height);
    const stateManager = this.state.stateManager;
    await stateManager.setStateRoot(snapshot.stateRoot);
    stateManager.multiCoin.restore(snapshot.multiCoin);
    this.state.setHeadMultiCoin(snapshot.multiCoin);
    this.time.restore(snapshot.clock);
    this.pool.restore(snapshot.pending);
    for (const restore of snapshot.companions) restore();
    await this.persistence?.saveHead(droppedTo);
    this.announceRemoved(removed);
    return true;
  }

  /**
   * After hardhat_reset: no snapshot survives, every companion is back to its state when it
   * joined, and `removed` (the whole former chain) is announced.
   */
  reset(removed: readonly BlockRecord[]): void {
    this.snapshots.clear();
    for (const { restoreInitial } of this.companions) restoreInitial?.();
    this.announceRemoved(removed);
  }

  private announceRemoved(removed: readonly BlockRecord[]): void {
    if (removed.length === 0) return;
    for (const [listener, wanted] of this.removedListeners) if (wanted()) listener(removed);
  }
}
