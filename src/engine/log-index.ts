/**
 * The blocks whose logs hold each address and each topic: a logs query that names addresses or
 * topics reads only the blocks that can match, however long the chain (geth keeps bloom bits per
 * section for the same reason). Kept with the chain: a block's entries are added when it is
 * appended and taken off when it is removed (always from the top of the chain).
 */
import type { LogFilter } from "./types";

/** What the index reads of a block: its number and its logs' addresses and topics. */
export interface IndexedBlock {
  readonly number: bigint;
  readonly transactions: readonly { readonly receipt: { readonly logs: readonly { readonly address: Uint8Array; readonly topics: readonly Uint8Array[] }[] } }[];
}

/** A value's key: its bytes as a one-byte-per-char string (an address's 20, a topic's 32, so they never collide). */
export function keyOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

/** The keys of a block's logs: every address and every topic, once each. */
export function keysOf(record: IndexedBlock): Set<string> {
  const keys = new Set<string>();
  for (const mined of record.transactions) {
    for (const log of mined.receipt.logs) {
      keys.add(keyOf(log.address));
      for (const topic of log.topics) keys.add(keyOf(topic));
    }
  }
  return keys;
}

export class LogIndex {
  /** Block numbers (ascending) by key. */
  private readonly blocks = new Map<string, number[]>();

  add(record: IndexedBlock): void {
    const number = Number(record.number);
    for (const key of keysOf(record)) {
      const list = this.blocks.get(key);
      if (list === undefined) this.blocks.set(key, [number]);
      else list.push(number);
    }
  }

  /** Takes off the entries of `record`, the chain's top block. */
  remove(record: IndexedBlock): void {
    const number = Number(record.number);
    for (const key of keysOf(record)) {
      const list = this.blocks.get(key);
      if (list?.[list.length - 1] !== number) continue;
      list.pop();
      if (list.length === 0) this.blocks.delete(key);
    }
  }

  /**
   * The numbers of the blocks in the filter's range that can hold a matching log, ascending (the
   * caller still checks each log); undefined when the filter names no address and no topic.
   */
  candidates(filter: LogFilter): number[] | undefined {
    return matchingBlocks(filter, (key, from, to) => inRange(this.blocks.get(key) ?? [], from, to));
  }
}

/**
 * The numbers of the blocks in the filter's range that can hold a matching log, ascending;
 * undefined when the filter names no address and no topic. `blocksWith(key, from, to)` gives
 * the blocks within [from, to] whose logs hold `key` (see keyOf), ascending.
 */
export function matchingBlocks(filter: LogFilter, blocksWith: (key: string, from: number, to: number) => readonly number[]): number[] | undefined {
  const criteria: Uint8Array[][] = [];
  if (filter.addresses.length > 0) criteria.push(filter.addresses);
  for (const wanted of filter.topics) if (wanted !== undefined && wanted.length > 0) criteria.push(wanted);
  if (criteria.length === 0) return undefined;
  const from = Number(filter.fromBlock);
  const to = Number(filter.toBlock);
  // Each criterion: the blocks holding any of its values; a block must be in every one.
  const sets = criteria.map((anyOf) => {
    const blocks = new Set<number>();
    for (const value of anyOf) for (const n of blocksWith(keyOf(value), from, to)) blocks.add(n);
    return blocks;
  });
  sets.sort((a, b) => a.size - b.size);
  const [smallest, ...others] = sets;
  return [...smallest!].filter((n) => others.every((set) => set.has(n))).sort((a, b) => a - b);
}

/** The part of an ascending list within [from, to], found by binary search. */
export function inRange(list: readonly number[], from: number, to: number): readonly number[] {
  const start = lowerBound(list, from);
  const end = lowerBound(list, to + 1);
  return start === 0 && end === list.length ? list : list.slice(start, end);
}

function lowerBound(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
