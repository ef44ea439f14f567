/**
 * What the pages read, as the questions a page asks (one method per question). The explorer's
 * reader answers them with the records of ../records.ts; `createExplorerPages` receives an
 * object of this shape so the pages depend on the questions, not on how they are answered.
 * A missing record is `undefined`, never an exception.
 */
import type {
  AddressRecord,
  AggregatesAnswer,
  AssetRecord,
  CBlockRecord,
  CBlockSummary,
  CTransactionRecord,
  CTransactionSummary,
  SearchAnswer,
  TransactionRecord,
} from "../records";

export type IntervalSize = "minute" | "hour" | "day" | "week" | "month" | "year";
export const INTERVAL_SIZES: readonly IntervalSize[] = ["minute", "hour", "day", "week", "month", "year"];

/** A page of a list, newest first; `cursor` continues after its last item (absent on the last page). */
export interface Page<T> {
  items: T[];
  cursor?: string;
}

export interface Holder {
  address: string;
  balance: string;
}

export interface PagesReader {
  transaction(id: string): Promise<TransactionRecord | undefined>;
  /** The newest transactions of a chain, or touching an address (any chain). */
  latestTransactions(filter: { chainId?: string; address?: string; limit: number; cursor?: string }): Promise<Page<TransactionRecord>>;
  /** One record per chain the address was seen on. */
  address(address: string): Promise<AddressRecord[]>;
  asset(id: string): Promise<AssetRecord | undefined>;
  assets(limit: number): Promise<AssetRecord[]>;
  /** The addresses holding unspent outputs of an asset, largest balance first. */
  holders(assetId: string, limit: number): Promise<Holder[]>;
  cBlock(height: bigint): Promise<CBlockRecord | undefined>;
  latestCBlocks(limit: number): Promise<{ blocks: CBlockSummary[]; transactions: CTransactionSummary[] }>;
  cTransaction(hash: string): Promise<CTransactionRecord | undefined>;
  /** The newest contract-chain transactions from or to an address (0x…). */
  cTransactionsOf(address: string, limit: number): Promise<CTransactionRecord[]>;
  search(query: string): Promise<SearchAnswer>;
  /** Per interval; of one asset's outputs (and its volume) when `assetId` is given, else of all (with the native asset's volume). */
  aggregates(query: { intervalSize: IntervalSize; startTime: Date; endTime: Date; assetId?: string }): Promise<AggregatesAnswer>;
}
