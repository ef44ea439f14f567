import { equalBytes } from "../../encoding";
import { Lru } from "../../storage/lru";
import { DamagedRecordError, toHex } from "../../storage/record-codec";
import type { ExchangeChainRecords } from "./persistence";
import type { AcceptedTx } from "./types";

/**
 * The exchange chain's accepted transactions, in acceptance order and by ID: all in memory for a
 * chain without a store, read from the store on demand (through a bounded cache) for a chain kept
 * in one, as the platform chain keeps its blocks (src/pchain/vm/platform-blocks.ts).
 */
export interface AcceptedTxs {
  /** How many were accepted (genesis included). */
  readonly count: number;
  /** The transaction at `index` in acceptance order. */
  at(index: number): AcceptedTx | undefined;
  byId(id: Uint8Array): AcceptedTx | undefined;
  /** Appends `tx` (its index is `count`). */
  append(tx: AcceptedTx): void;
  /** The transactions as they are now: the returned function puts them back. */
  capture(): () => void;
}

/** Transactions per store-kept chain kept decoded when the chain's options do not say (as the platform chain's block cache). */
export const DEFAULT_EXCHANGE_TX_CACHE = 256;

export class MemoryAcceptedTxs implements AcceptedTxs {
  private order: AcceptedTx[] = [];
  private byHex = new Map<string, AcceptedTx>();

  get count(): number {
    return this.order.length;
  }

  at(index: number): AcceptedTx | undefined {
    return this.order[index];
  }

  byId(id: Uint8Array): AcceptedTx | undefined {
    return this.byHex.get(toHex(id));
  }

  append(tx: AcceptedTx): void {
    this.order.push(tx);
    this.byHex.set(toHex(tx.id), tx);
  }

  capture(): () => void {
    const order = [...this.order];
    return () => {
      this.order = [...order];
      this.byHex = new Map(order.map((tx) => [toHex(tx.id), tx]));
    };
  }
}

/**
 * The transactions of a chain in its store: by position (`tx/`), by ID through `id/`; what was
 * read stays in an LRU of `cacheSize` transactions. A record that is missing below the count, or
 * an index entry naming another transaction, is a DamagedRecordError.
 */
export class StoredAcceptedTxs implements AcceptedTxs {
  private readonly cache: Lru<number, AcceptedTx>;

  constructor(
    private readonly records: ExchangeChainRecords,
    private length: number,
    cacheSize: number,
  ) {
    this.cache = new Lru(cacheSize);
  }

  get count(): number {
    return this.length;
  }

  at(index: number): AcceptedTx | undefined {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.length) return undefined;
    const cached = this.cache.get(index);
    if (cached !== undefined) return cached;
    const stored = this.records.readTx(index);
    if (stored === undefined) throw new DamagedRecordError(`tx/${String(index).padStart(10, "0")}`, `the transaction at position ${index}, below the count ${this.length}, is not stored`);
    this.cache.set(index, stored);
    return stored;
  }

  byId(id: Uint8Array): AcceptedTx | undefined {
    if (id.length !== 32) return undefined;
    const index = this.records.txPosition(id);
    if (index === undefined || index >= this.length) return undefined;
    const tx = this.at(index)!;
    if (!equalBytes(tx.id, id)) throw new DamagedRecordError(`id/${toHex(id)}`, `it gives position ${index}, where transaction ${toHex(tx.id)} is stored`);
    return tx;
  }

  append(tx: AcceptedTx): void {
    this.records.putTx(tx);
    this.cache.set(tx.index, tx);
    this.length = tx.index + 1;
  }

  /**
   * A return stages the removal of the transactions accepted since. The transactions up to the
   * captured count are never changed meanwhile: a return to a moment with fewer transactions
   * (evm_revert to an earlier snapshot) consumes every later moment.
   */
  capture(): () => void {
    const saved = this.length;
    return () => {
      for (let index = this.length - 1; index >= saved; index--) this.records.dropTx(this.at(index)!);
      this.cache.deleteWhere((index) => index >= saved);
      this.length = Math.min(this.length, saved);
    };
  }
}
