/**
 * Multi-coin balances: one balance per (account, 32-byte asset ID), next to the EVM state.
 *
 * The reference node keeps these balances in the account's storage under keys that ordinary
 * contract storage can never use, and flags such accounts as "multi-coin" so that they are
 * never removed as empty. We keep them in a journaled map of their own instead: the observable
 * behaviour is the same (balances revert with their frame, survive empty-account cleanup and
 * never collide with contract storage), and a block's view is an immutable snapshot, so reads
 * at past blocks cost nothing extra.
 */

/** Key of one balance: 40 hex chars of the address followed by 64 of the asset ID (lowercase, no 0x). */
export type BalanceKey = string;

export function balanceKey(addressHex40: string, assetIdHex64: string): BalanceKey {
  return addressHex40 + assetIdHex64;
}

/** An immutable view of all multi-coin balances, as of one block. */
export interface MultiCoinSnapshot {
  readonly balances: ReadonlyMap<BalanceKey, bigint>;
  /** Accounts flagged multi-coin (lowercase 40-hex addresses). */
  readonly flagged: ReadonlySet<string>;
}

type Change =
  | { kind: "balance"; key: BalanceKey; previous: bigint | undefined }
  | { kind: "flag"; address: string; previous: boolean };

export class MultiCoinState {
  private balances: Map<BalanceKey, bigint>;
  private flagged: Set<string>;
  /** One list of changes per open checkpoint, innermost last. */
  private readonly journal: Change[][] = [];
  /** The last snapshot handed out, reused while nothing changes. */
  private cachedSnapshot: MultiCoinSnapshot | undefined;

  /**
   * `base` answers for balances never set here (a fork's remote balances, loaded beforehand):
   * with a base, a balance set to zero is kept as an explicit zero, so it hides the base's.
   */
  constructor(
    from?: MultiCoinSnapshot,
    private readonly base?: (key: BalanceKey) => bigint | undefined,
  ) {
    this.balances = new Map(from?.balances ?? []);
    this.flagged = new Set(from?.flagged ?? []);
    this.cachedSnapshot = from;
  }

  getBalance(addressHex40: string, assetIdHex64: string): bigint {
    const key = balanceKey(addressHex40, assetIdHex64);
    return this.balances.get(key) ?? this.base?.(key) ?? 0n;
  }

  /** A balance in `snapshot` (a past block's), or in the base when the snapshot never set it. */
  balanceIn(snapshot: Pick<MultiCoinSnapshot, "balances">, addressHex40: string, assetIdHex64: string): bigint {
    const key = balanceKey(addressHex40, assetIdHex64);
    return snapshot.balances.get(key) ?? this.base?.(key) ?? 0n;
  }

  /** Whether any account is flagged (most chains have none: callers skip the address lookup). */
  get anyFlagged(): boolean {
    return this.flagged.size > 0;
  }

  isFlagged(addressHex40: string): boolean {
    return this.flagged.has(addressHex40);
  }

  /** Sets a balance and flags the account, as the reference node does on every non-zero change. */
  setBalance(addressHex40: string, assetIdHex64: string, amount: bigint): void {
    if (amount < 0n) throw new RangeError(`multi-coin balance cannot be negative (got ${amount})`);
    const key = balanceKey(addressHex40, assetIdHex64);
    this.record({ kind: "balance", key, previous: this.balances.get(key) });
    if (amount === 0n && this.base === undefined) this.balances.delete(key);
    else this.balances.set(key, amount);
    this.flag(addressHex40);
  }

  /** Marks an account multi-coin: it is never treated as empty again (until destroyed). */
  flag(addressHex40: string): void {
    if (this.flagged.has(addressHex40)) return;
    this.record({ kind: "flag", address: addressHex40, previous: false });
    this.flagged.add(addressHex40);
  }

  /** Removes every balance and the flag of an account (self-destruct). */
  destroy(addressHex40: string): void {
    for (const key of [...this.balances.keys()]) {
      if (key.startsWith(addressHex40)) {
        this.record({ kind: "balance", key, previous: this.balances.get(key) });
        this.balances.delete(key);
      }
    }
    if (this.flagged.has(addressHex40)) {
      this.record({ kind: "flag", address: addressHex40, previous: true });
      this.flagged.delete(addressHex40);
    }
  }

  /** All non-zero balances of one account, keyed by 64-hex asset ID. */
  balancesOf(addressHex40: string): Map<string, bigint> {
    const out = new Map<string, bigint>();
    for (const [key, value] of this.balances) {
      if (key.startsWith(addressHex40) && value !== 0n) out.set(key.slice(40), value);
    }
    return out;
  }

  checkpoint(): void {
    this.journal.push([]);
  }

  commit(): void {
    const top = this.journal.pop();
    if (top === undefined) throw new Error("multi-coin commit without a checkpoint");
    const parent = this.journal[this.journal.length - 1];
    if (parent !== undefined) for (const change of top) parent.push(change);
  }

  revert(): void {
    const top = this.journal.pop();
    if (top === undefined) throw new Error("multi-coin revert without a checkpoint");
    if (top.length > 0) this.cachedSnapshot = undefined;
    for (let i = top.length - 1; i >= 0; i--) {
      const change = top[i]!;
      if (change.kind === "balance") {
        if (change.previous === undefined) this.balances.delete(change.key);
        else this.balances.set(change.key, change.previous);
      } else if (change.previous) this.flagged.add(change.address);
      else this.flagged.delete(change.address);
    }
  }

  get checkpointDepth(): number {
    return this.journal.length;
  }

  /** An immutable copy of the current balances; cheap when nothing changed since the last one. */
  snapshot(): MultiCoinSnapshot {
    if (this.cachedSnapshot === undefined) {
      this.cachedSnapshot = { balances: new Map(this.balances), flagged: new Set(this.flagged) };
    }
    return this.cachedSnapshot;
  }

  /** Replaces the whole state with a snapshot (reorg to an earlier block, evm_revert). */
  restore(snapshot: MultiCoinSnapshot): void {
    if (this.journal.length > 0) throw new Error("cannot restore multi-coin state inside a checkpoint");
    this.balances = new Map(snapshot.balances);
    this.flagged = new Set(snapshot.flagged);
    this.cachedSnapshot = snapshot;
  }

  private record(change: Change): void {
    this.cachedSnapshot = undefined;
    const top = this.journal[this.journal.length - 1];
    if (top !== undefined) top.push(change);
  }
}
