/**
 * The explorer's reader: typed queries over its tables answering the records of `records.ts`,
 * shared by the JSON API and the web pages (so a page never shows what the API would not).
 * Parameters arrive validated (see `parameters.ts`); unknown IDs answer `undefined`; a request
 * that is well-formed but cannot be answered as asked throws `ReaderInputError`.
 * All SQL is parameterised (`sql.ts`).
 */
import type { SqlQueries } from "../../sql/database";
import type { ExplorerContext } from "../context";
import type { JsonText } from "../json-text";
import type {
  AddressRecord,
  AggregatesAnswer,
  AssetRecord,
  CBlockRecord,
  CBlocksAnswer,
  CTransactionRecord,
  OutputRecord,
  OverviewRecord,
  SearchAnswer,
  TransactionRecord,
  TxfeeAggregatesAnswer,
} from "../records";
import { listAddresses, listAddressesText, readAddress, readAddressChains } from "./addresses";
import { readAggregates, readTxfeeAggregates } from "./aggregates";
import { listAssets, readAsset, readAssetHolders, type AssetHolder } from "./assets";
import { listCBlocks, readCBlock } from "./c-blocks";
import { listCTransactions, readCTransaction } from "./c-transactions";
import { listOutputs, readOutput } from "./outputs";
import { overview } from "./overview";
import type {
  AddressesParams,
  AggregatesParams,
  AssetsParams,
  CBlocksParams,
  CTransactionsParams,
  OutputsParams,
  Page,
  TransactionsParams,
  TxfeeAggregatesParams,
} from "./parameters";
import { search } from "./search";
import { listTransactions, listTransactionsText, readTransaction } from "./transactions";

export * from "./parameters";
export { ReaderInputError } from "./errors";
export { CursorError } from "./cursor";
export { chainRecord } from "./overview";
export type { AssetHolder } from "./assets";

export interface ExplorerReader {
  overview(): OverviewRecord;
  transaction(id: string): Promise<TransactionRecord | undefined>;
  transactions(params: TransactionsParams): Promise<Page<TransactionRecord>>;
  /** The same page, its records as the JSON array text the API answers (not parsed). */
  transactionsText(params: TransactionsParams): Promise<{ items: JsonText; next?: string }>;
  output(id: string): Promise<OutputRecord | undefined>;
  outputs(params: OutputsParams): Promise<Page<OutputRecord>>;
  /** Over the given chains (all when omitted or empty); chainID is the chain when exactly one is given. */
  address(address: string, chainIds?: string[]): Promise<AddressRecord | undefined>;
  addresses(params: AddressesParams): Promise<Page<AddressRecord>>;
  /** The same page, its records as the JSON array text the API answers (not parsed). */
  addressesText(params: AddressesParams): Promise<{ items: JsonText; next?: string }>;
  /** Every asked address is a key; [] when it appeared on no chain. */
  addressChains(addresses: string[]): Promise<Record<string, string[]>>;
  asset(id: string): Promise<AssetRecord | undefined>;
  assets(params: AssetsParams): Promise<Page<AssetRecord>>;
  /** The addresses holding the asset, largest balance first. */
  assetHolders(assetId: string, limit: number): Promise<AssetHolder[]>;
  aggregates(params: AggregatesParams): Promise<AggregatesAnswer>;
  txfeeAggregates(params: TxfeeAggregatesParams): Promise<TxfeeAggregatesAnswer>;
  search(query: string, limit: number): Promise<SearchAnswer>;
  cBlock(height: number | "latest"): Promise<CBlockRecord | undefined>;
  cBlocks(params: CBlocksParams): Promise<CBlocksAnswer>;
  cTransaction(hash: string): Promise<CTransactionRecord | undefined>;
  cTransactions(params: CTransactionsParams): Promise<Page<CTransactionRecord>>;
}

export function createExplorerReader(db: SqlQueries, context: ExplorerContext): ExplorerReader {
  return {
    overview: () => overview(context),
    transaction: (id) => readTransaction(db, id),
    transactions: (params) => listTransactions(db, params),
    transactionsText: (params) => listTransactionsText(db, params),
    output: (id) => readOutput(db, id),
    outputs: (params) => listOutputs(db, params),
    address: (address, chainIds = []) => readAddress(db, address, chainIds),
    addresses: (params) => listAddresses(db, params),
    addressesText: (params) => listAddressesText(db, params),
    addressChains: (addresses) => readAddressChains(db, addresses),
    asset: (id) => readAsset(db, id),
    assets: (params) => listAssets(db, params),
    assetHolders: (assetId, limit) => readAssetHolders(db, assetId, limit),
    aggregates: (params) => readAggregates(db, context, params),
    txfeeAggregates: (params) => readTxfeeAggregates(db, params),
    search: (query, limit) => search(db, query, limit),
    cBlock: (height) => readCBlock(db, height),
    cBlocks: (params) => listCBlocks(db, params),
    cTransaction: (hash) => readCTransaction(db, hash),
    cTransactions: (params) => listCTransactions(db, params),
  };
}
