/**
 * The multi-coin balances of any stored block, found without reading the blocks before it.
 *
 * A block record stores its change to its parent's balances, and (layout 2) the height of the
 * latest block up to it that changed them. Each such block also has an entry `m/<height>`: the
 * previous changing block's height, the change, and every FULL_EVERY-th entry of that chain the
 * whole snapshot. A block's balances are thus its last changing block's, rebuilt from at most
 * FULL_EVERY entries; recently used snapshots stay in memory.
 */
import { RLP } from "@ethereumjs/rlp";
import { bigIntToUnpaddedBytes, bytesToBigInt } from "@ethereumjs/util";
import type { DurableStore } from "../../storage";
import { StoredChainError } from "../errors";
import type { MultiCoinSnapshot } from "../multicoin";
import { Lru } from "./lru";
import { applyMultiCoinChange, EMPTY_MULTICOIN, multiCoinChange, type MultiCoinChange } from "./multicoin-diff";
import { bytesOf, decodeMultiCoinChange, encodeMultiCoinChange, fromOptional, list, optional, type Item } from "./record-codec";
import { multiCoinKey } from "./stored-layout";

/** Every this many entries in a chain of changes, one holds the whole snapshot. */
const FULL_EVERY = 64;
const SNAPSHOTS_KEPT = 64;

interface LedgerEntry {
  readonly previous: bigint | undefined;
  /** Entries since the last one holding the whole snapshot (0: this one holds it). */
  readonly depth: number;
  readonly change: MultiCoinChange;
  readonly full: MultiCoinChange | undefined;
}

export class MultiCoinLedger {
  private readonly snapshots = new Lru<bigint, MultiCoinSnapshot>(SNAPSHOTS_KEPT);

  constructor(private readonly store: DurableStore) {}

  /** The balances after the changing block at `height` (none: the empty balances). */
  snapshotAt(height: bigint | undefined): MultiCoinSnapshot {
    if (height === undefined) return EMPTY_MULTICOIN;
    const known = this.snapshots.get(height);
    if (known !== undefined) return known;
    const entry = this.entry(height);
    const snapshot = entry.full !== undefined ? applyMultiCoinChange(EMPTY_MULTICOIN, entry.full) : applyMultiCoinChange(this.snapshotAt(entry.previous), entry.change);
    this.snapshots.set(height, snapshot);
    return snapshot;
  }

  /**
   * Stages the entry of the block at `height` whose balances went from `parent` (those after
   * its parent, whose last changing block is `parentLastChange`) to `after`; returns the block's
   * last changing block. A block staged again (a direct edit of the head) replaces its entry.
   */
  stage(height: bigint, parentLastChange: bigint | undefined, parent: MultiCoinSnapshot, after: MultiCoinSnapshot): bigint | undefined {
    const change = multiCoinChange(parent, after);
    if (change.balances.length === 0 && change.flagged.length === 0 && change.unflagged.length === 0) {
      this.drop(height);
      return parentLastChange;
    }
    const depth = parentLastChange === undefined ? 0 : (this.entry(parentLastChange).depth + 1) % FULL_EVERY;
    const full = depth === 0 ? multiCoinChange(EMPTY_MULTICOIN, after) : undefined;
    this.store.put(
      multiCoinKey(height),
      RLP.encode([
        optional(parentLastChange === undefined ? undefined : bigIntToUnpaddedBytes(parentLastChange)),
        bigIntToUnpaddedBytes(BigInt(depth)),
        encodeMultiCoinChange(change),
        full === undefined ? [] : [encodeMultiCoinChange(full)],
      ]),
    );
    this.snapshots.set(height, after);
    return height;
  }

  /** Stages the deletion of the entry at `height` (a block dropped, or that no longer changes anything). */
  drop(height: bigint): void {
    this.store.del(multiCoinKey(height));
    this.snapshots.delete(height);
  }

  private entry(height: bigint): LedgerEntry {
    const bytes = this.store.getSync(multiCoinKey(height));
    if (bytes === undefined) throw new StoredChainError(`the stored chain is damaged: block ${height} changed the multi-coin balances and its entry is missing`);
    const items = list(RLP.decode(bytes) as Item, 4);
    const previous = fromOptional(items[0]!);
    const fullItems = list(items[3]!);
    return {
      previous: previous === undefined ? undefined : bytesToBigInt(previous),
      depth: Number(bytesToBigInt(bytesOf(items[1]!))),
      change: decodeMultiCoinChange(items[2]!),
      full: fullItems.length === 0 ? undefined : decodeMultiCoinChange(fullItems[0]!),
    };
  }
}
