/**
 * What a decoded container becomes before it is written: plain rows of the explorer's tables
 * (schema.ts), in the table conventions (cb58 IDs, bech32 addresses without the chain prefix,
 * amounts as bigints, times in Unix milliseconds). Decoders produce these; the writer stores them.
 */

export interface OutputRow {
  id: string;
  transactionId: string;
  outputIndex: number;
  /** The chain whose UTXO set holds it: the destination chain for exported outputs. */
  chainId: string;
  createdOnChainId: string;
  assetId: string;
  outputType: number;
  amount: bigint;
  locktime: bigint;
  threshold: number;
  groupId: number;
  payload: string | null;
  stake: boolean;
  addresses: string[];
}

export interface InputRow {
  position: number;
  outputId: string;
  /** The spent output's creating transaction and index (the output row may not be known). */
  transactionId: string;
  outputIndex: number;
  assetId: string;
  amount: bigint;
}

export interface CredentialRow {
  inputPosition: number;
  position: number;
  address: string;
  publicKey: string;
  signature: string;
}

export interface AssetRow {
  id: string;
  chainId: string;
  name: string;
  symbol: string;
  alias: string;
  denomination: number;
  variableCap: number;
  nft: number;
}

/** An exchange- or platform-chain transaction, or a contract-chain atomic one. */
export interface TransactionRow {
  id: string;
  chainId: string;
  type: string;
  memo: string;
  txFee: bigint;
  genesis: boolean;
  acceptedAt: number;
  blockId: string | null;
  sourceChainId: string | null;
  destinationChainId: string | null;
  bytes: string;
  inputs: InputRow[];
  outputs: OutputRow[];
  credentials: CredentialRow[];
  assets: AssetRow[];
}

export interface PBlockRow {
  id: string;
  height: bigint;
  parentId: string;
  type: string;
  acceptedAt: number;
  bytes: string;
}

export interface CLogRow {
  logIndex: number;
  address: string;
  topics: string[];
  data: string;
}

export interface CTransactionRow {
  hash: string;
  transactionIndex: number;
  type: number;
  nonce: bigint;
  gasPrice: bigint | null;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  gasLimit: bigint;
  value: bigint;
  input: string;
  fromAddr: string;
  toAddr: string | null;
  v: string;
  r: string;
  s: string;
  status: number;
  gasUsed: bigint;
  cumulativeGasUsed: bigint;
  effectiveGasPrice: bigint;
  contractAddress: string | null;
  logsBloom: string;
  logs: CLogRow[];
}

export interface CBlockRow {
  number: bigint;
  hash: string;
  parentHash: string;
  sha3Uncles: string;
  miner: string;
  stateRoot: string;
  transactionsRoot: string;
  receiptsRoot: string;
  logsBloom: string;
  difficulty: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  timestamp: bigint;
  extraData: string;
  mixHash: string;
  nonce: string;
  extDataHash: string;
  baseFeePerGas: bigint | null;
  extDataGasUsed: bigint | null;
  blockGasCost: bigint | null;
  acceptedAt: number;
  transactions: CTransactionRow[];
}

/** One container of an index, raw, and what it decoded to. */
export interface DecodedContainer {
  index: bigint;
  id: string;
  bytes: string;
  acceptedAt: number;
  transactions: TransactionRow[];
  pBlock?: PBlockRow;
  cBlock?: CBlockRow;
  /** Why (part of) it could not be decoded; the raw container is stored anyway. */
  problem?: string;
}
