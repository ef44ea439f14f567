/**
 * What the explorer answers: the JSON records of seed 002 with the reference explorers' field
 * names (their odd spellings kept: `Transactions` in /ctransactions, `public_key` in
 * credentials, `network_id` in /v2). The HTTP API serialises these as they are; the web page
 * renders the same records, so a page never shows something the API would not.
 *
 * Amounts are decimal strings (any uint256); times are RFC 3339 strings in UTC.
 */

export interface ChainRecord {
  chainID: string;
  chainAlias: string;
  vm: string;
  /** The seed's name; the reference explorers call it avaxAssetID (also served). */
  nativeAssetID: string;
  avaxAssetID: string;
  networkID: number;
}

export interface OverviewRecord {
  network_id: number;
  chains: Record<string, ChainRecord>;
}

export interface CredentialRecord {
  address: string;
  public_key: string;
  signature: string;
}

export interface OutputRecord {
  id: string;
  transactionID: string;
  outputIndex: number;
  assetID: string;
  outputType: number;
  amount: string;
  locktime: number;
  threshold: number;
  addresses: string[];
  timestamp: string;
  redeemingTransactionID: string;
  chainID: string;
  groupID: number;
  payload: string | null;
  stake: boolean;
}

export interface InputRecord {
  /** The spent output; null fields when it is not indexed (another chain's output not seen). */
  output: OutputRecord | { id: string };
  credentials: CredentialRecord[];
}

export interface TransactionRecord {
  id: string;
  chainID: string;
  type: string;
  inputs: InputRecord[];
  outputs: OutputRecord[];
  /** base64, as the reference. */
  memo: string;
  inputTotals: Record<string, string>;
  outputTotals: Record<string, string>;
  reusedAddressTotals: Record<string, string> | null;
  timestamp: string;
  txFee: number;
  genesis: boolean;
}

export interface AddressAssetRecord {
  id: string;
  transactionCount: number;
  utxoCount: number;
  balance: string;
  totalReceived: string;
  totalSent: string;
}

export interface AddressRecord {
  /** The chain the record is about (the reference answers one record per address and chain). */
  chainID: string;
  address: string;
  publicKey: string | null;
  assets: Record<string, AddressAssetRecord>;
}

export interface AssetRecord {
  id: string;
  chainID: string;
  name: string;
  symbol: string;
  alias: string;
  currentSupply: string;
  timestamp: string;
  denomination: number;
  variableCap: number;
  nft: number;
}

export interface AggregateRecord {
  startTime: string;
  endTime: string;
  transactionVolume: string;
  transactionCount: number;
  /**
   * Owners of the outputs created in the window, each address counted once per UTC minute,
   * chain and asset it received outputs in (the reference's per-minute counts, summed): not the
   * distinct addresses of the whole window, so that intervals add up to it and its cost follows
   * the window's minutes.
   */
  addressCount: number;
  outputCount: number;
  assetCount: number;
}

export interface AggregatesAnswer {
  startTime: string;
  endTime: string;
  aggregates: AggregateRecord;
  /** Present when intervalSize was given: one aggregate per interval, oldest first. */
  intervals?: AggregateRecord[];
}

export interface TxfeeAggregatesAnswer {
  startTime: string;
  endTime: string;
  aggregates: { startTime: string; endTime: string; txfee: string };
  intervals?: { startTime: string; endTime: string; txfee: string }[];
}

export type SearchResultType = "transaction" | "asset" | "address" | "output" | "cBlock" | "cTransaction";

export interface SearchResult {
  type: SearchResultType;
  data: unknown;
  /** Higher is better: an exact ID match outranks a prefix match, a longer matched prefix a shorter one. */
  score: number;
}

export interface SearchAnswer {
  count: number;
  results: SearchResult[];
}

export interface CLogRecord {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  transactionIndex: string;
  blockHash: string;
  logIndex: string;
  removed: boolean;
}

export interface CReceiptRecord {
  root: string;
  status: string;
  cumulativeGasUsed: string;
  logsBloom: string;
  logs: CLogRecord[];
  type: string;
  transactionHash: string;
  contractAddress: string;
  transactionIndex: string;
  gasUsed: string;
  blockHash: string;
  blockNumber: string;
  effectiveGasPrice: string;
}

export interface CTransactionRecord {
  type: number;
  block: string;
  hash: string;
  createdAt: string;
  nonce: string;
  gasPrice: string | null;
  maxFeePerGas: string | null;
  maxPriorityFeePerGas: string | null;
  gasLimit: string;
  value: string;
  input: string;
  fromAddr: string;
  toAddr: string;
  v: string;
  r: string;
  s: string;
  receipt: CReceiptRecord;
}

export interface CHeaderRecord {
  parentHash: string;
  sha3Uncles: string;
  miner: string;
  stateRoot: string;
  transactionsRoot: string;
  receiptsRoot: string;
  logsBloom: string;
  difficulty: string;
  number: string;
  gasLimit: string;
  gasUsed: string;
  timestamp: string;
  extraData: string;
  mixHash: string;
  nonce: string;
  extDataHash: string;
  baseFeePerGas: string | null;
  extDataGasUsed: string | null;
  blockGasCost: string | null;
  hash: string;
}

export interface CBlockRecord {
  hash: string;
  header: CHeaderRecord;
  transactions: CTransactionRecord[];
}

export interface CBlockSummary {
  hash: string;
  miner: string;
  difficulty: string;
  number: string;
  gasLimit: string;
  gasUsed: string;
  timestamp: string;
  baseFeePerGas: string | null;
  extDataGasUsed: string | null;
  blockGasCost: string | null;
  evmTx: number;
}

export interface CTransactionSummary {
  type: number;
  block: string;
  index: number;
  hash: string;
  nonce: string;
  gasPrice?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  gas: string;
  value: string;
  from: string;
  to: string;
  timestamp: string;
  status: number;
  gasUsed: string;
}

export interface CBlocksAnswer {
  blockCount: number;
  transactionCount: number;
  blocks: CBlockSummary[];
  transactions: CTransactionSummary[];
}

/** A page of a list: `next` is a ready query string for the following page, absent on the last. */
export interface TransactionsAnswer {
  startTime: string;
  endTime: string;
  transactions: TransactionRecord[];
  next?: string;
}

export interface CTransactionsAnswer {
  Transactions: CTransactionRecord[];
  startTime: string;
  endTime: string;
  next?: string;
}
