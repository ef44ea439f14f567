/**
 * What a block changed in the multi-coin balances, as stored with the block: a full copy per
 * block would grow with every balance ever set, and most blocks change none. A block is rebuilt
 * on load by applying its change to its parent's balances.
 */
import type { BalanceKey, MultiCoinSnapshot } from "../multicoin";

export interface MultiCoinChange {
  /** Balances set (a zero amount removes the balance: the state never holds zero). */
  readonly balances: readonly (readonly [BalanceKey, bigint])[];
  readonly flagged: readonly string[];
  readonly unflagged: readonly string[];
}

export const EMPTY_MULTICOIN: MultiCoinSnapshot = { balances: new Map(), flagged: new Set() };

/** The change from `before` to `after` (nothing to compare when the state handed out the same snapshot). */
export function multiCoinChange(before: MultiCoinSnapshot, after: MultiCoinSnapshot): MultiCoinChange {
  if (before === after) return { balances: [], flagged: [], unflagged: [] };
  const balances: [BalanceKey, bigint][] = [];
  for (const [key, amount] of after.balances) if (before.balances.get(key) !== amount) balances.push([key, amount]);
  for (const key of before.balances.keys()) if (!after.balances.has(key)) balances.push([key, 0n]);
  const flagged = [...after.flagged].filter((address) => !before.flagged.has(address));
  const unflagged = [...before.flagged].filter((address) => !after.flagged.has(address));
  return { balances, flagged, unflagged };
}

/** `before` with `change` applied; `before` itself when the change is empty, as the live state shares unchanged snapshots. */
export function applyMultiCoinChange(before: MultiCoinSnapshot, change: MultiCoinChange): MultiCoinSnapshot {
  if (change.balances.length === 0 && change.flagged.length === 0 && change.unflagged.length === 0) return before;
  const balances = new Map(before.balances);
  for (const [key, amount] of change.balances) {
    if (amount === 0n) balances.delete(key);
    else balances.set(key, amount);
  }
  const flagged = new Set(before.flagged);
  for (const address of change.flagged) flagged.add(address);
  for (const address of change.unflagged) flagged.delete(address);
  return { balances, flagged };
}
