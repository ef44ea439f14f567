/**
 * The reader's parameters: already validated and typed (the API's parameter module and the web
 * pages build them). Times are Unix milliseconds; an empty `chainIds`/`addresses` means "any".
 * Addresses are bech32 without the chain prefix; contract-chain addresses and hashes lowercase
 * 0x hex.
 */

export type SortOrder = "timestamp-asc" | "timestamp-desc";
export const SORT_ORDERS: readonly SortOrder[] = ["timestamp-asc", "timestamp-desc"];

export type IntervalSize = "minute" | "hour" | "day" | "week" | "month" | "year";
export const INTERVAL_SIZES: readonly IntervalSize[] = ["minute", "hour", "day", "week", "month", "year"];

export interface TimeWindow {
  /** Inclusive, Unix ms. */
  startTime: number;
  /** Inclusive, Unix ms. */
  endTime: number;
}

export interface ListParams extends TimeWindow {
  /** At least 1. */
  limit: number;
  /** A prefix of the item's ID (for assets also of name, symbol or alias). */
  query?: string;
  /** The `next` of the previous page. */
  cursor?: string;
}

/** One page of a list; `next` is the cursor of the following page, absent on the last. */
export interface Page<Item> {
  items: Item[];
  next?: string;
}

export interface TransactionsParams extends ListParams {
  chainIds: string[];
  /** Only transactions that consumed or produced an output of this asset. */
  assetId?: string;
  /** Only transactions that touched one of these addresses (owner of an output, or signer). */
  addresses: string[];
  sort: SortOrder;
}

export interface OutputsParams extends ListParams {
  chainIds: string[];
  addresses: string[];
  /** true: only spent outputs, false: only unspent ones, undefined: both. */
  spent?: boolean;
}

export interface AddressesParams extends ListParams {
  chainIds: string[];
  addresses: string[];
}

export interface AssetsParams extends ListParams {
  chainIds: string[];
}

export interface AggregatesParams extends TimeWindow {
  chainIds: string[];
  /** The asset whose volume is summed; when given, the counts too are of this asset's outputs. */
  assetId?: string;
  intervalSize?: IntervalSize;
}

export interface TxfeeAggregatesParams extends TimeWindow {
  chainIds: string[];
  intervalSize?: IntervalSize;
}

export interface CBlocksParams {
  /** How many blocks, newest first (0: none). */
  blockLimit: number;
  /** How many transactions, newest first (0: none). */
  transactionLimit: number;
  /** Exclusive lower bound of block numbers. */
  blockStart?: number;
  /** Exclusive upper bound of block numbers. */
  blockEnd?: number;
  /** In the newest block of the range, start at this transaction index (going down). */
  transactionId?: number;
  /** Only transactions from or to one of these addresses. */
  addresses: string[];
}

export interface CTransactionsParams extends ListParams {
  toAddress?: string;
  fromAddress?: string;
  /** From or to. */
  address?: string;
  hash?: string;
  /** Inclusive. */
  blockStart?: number;
  /** Exclusive. */
  blockEnd?: number;
}
