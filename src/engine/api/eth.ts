/**
 * The eth_ namespace: the chain's identity and fees, state at a block, blocks, transactions,
 * calls and estimates. (Logs and filters are in `filters.ts`, signing in `signing.ts`, the fee
 * history in `fee-history.ts`.) Each method is a function of this module, given the context
 * below and the request's positional parameters; the tables at the end name them.
 *
 * On a fork, a method that names a block before the fork point is answered by the remote
 * (`pre-fork.ts`); an unknown block reads as null (as on geth) rather than as an error.
 */
import { RpcApi, type PositionalMethod, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import type { BlockRecord } from "../chain";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import { ExecutionFailedError, UnknownBlockError } from "../errors";
import type { Filters } from "./filters";
import { feeHistory } from "./fee-history";
import { formatBlock, formatMinedTransaction, formatReceipt, formatTransaction, hex, q } from "./format";
import * as p from "./params";
import { PreForkHistory } from "./pre-fork";
import { eth_getProof } from "./proof";
import { submitSent, type SentTransactionWatchers } from "./sent";
import { engineHeadReadOptions } from "./serve";
import type { SubscriptionHub } from "./subscriptions";

/** What the eth_ methods read and feed: the engine, the remote's history on a fork, and the watchers of sent transactions. */
interface EthContext extends SentTransactionWatchers {
  readonly engine: Engine;
  readonly history: PreForkHistory;
}

export function ethApi(engine: Engine, options: RpcApiOptions<LockHeld>, filters: Filters, subscriptions: SubscriptionHub): RpcApi<LockHeld> {
  const context: EthContext = { engine, history: new PreForkHistory(engine), filters, subscriptions };
  return RpcApi.scoped(options)
    .include(RpcApi.scoped(engineHeadReadOptions(engine)).positionalMethods(context, ETH_HEAD_READS))
    .positionalMethods(context, ETH_METHODS);
}

// ---------------------------------------------------------------- identity and fees

function chainId({ engine }: EthContext): string {
  return q(engine.options.chainId);
}

function syncing(): false {
  return false;
}

function blockNumber({ engine }: EthContext): string {
  return q(engine.chain.height);
}

function protocolVersion(): string {
  return "0x41";
}

function mining({ engine }: EthContext): boolean {
  return engine.automine;
}

/** No proof of work: nothing is hashed (also the tip eth_maxPriorityFeePerGas suggests, and every block's uncle count). */
function zero(): string {
  return "0x0";
}

function coinbase({ engine }: EthContext): string {
  return engine.options.coinbase.toLowerCase();
}

/** The node's keys (eth_accounts, eth_requestAccounts). */
function accounts({ engine }: EthContext): string[] {
  return [...engine.unlocked.keys()];
}

/** The next block's base fee (eth_gasPrice, eth_baseFee). */
function nextBlockBaseFee({ engine }: EthContext): string {
  return q(engine.nextBlockBaseFee());
}

// ---------------------------------------------------------------- state

/** [address, block = "latest"]: the account's balance of the native coin. */
async function getBalance(eth: EthContext, params: unknown[]): Promise<unknown> {
  const remote = eth.history.atBlock("eth_getBalance", params, 1);
  if (remote !== undefined) return remote;
  const [address, block] = params;
  const account = await eth.engine.getAccount(p.address(address, "address"), blockAt(eth.engine, block));
  return q(account.balance);
}

/** [address, block = "latest"]: the account's nonce ("pending": with the pool's transactions). */
async function getTransactionCount(eth: EthContext, params: unknown[]): Promise<unknown> {
  const remote = eth.history.atBlock("eth_getTransactionCount", params, 1);
  if (remote !== undefined) return remote;
  const [addressParam, block] = params;
  const address = p.address(addressParam, "address");
  if (block === "pending") return q(await eth.engine.pendingNonce(address));
  return q((await eth.engine.getAccount(address, blockAt(eth.engine, block))).nonce);
}

/** [address, block = "latest"]: the account's code. */
async function getCode(eth: EthContext, params: unknown[]): Promise<unknown> {
  const remote = eth.history.atBlock("eth_getCode", params, 1);
  if (remote !== undefined) return remote;
  const [address, block] = params;
  return hex(await eth.engine.getCode(p.address(address, "address"), blockAt(eth.engine, block)));
}

/** [address, slot, block = "latest"]: one word of the account's storage. */
async function getStorageAt(eth: EthContext, params: unknown[]): Promise<unknown> {
  const remote = eth.history.atBlock("eth_getStorageAt", params, 2);
  if (remote !== undefined) return remote;
  const [address, slotParam, block] = params;
  const slot = p.looseQuantity(slotParam, "slot");
  if (slot >= 1n << 256n) throw invalidParams("slot must fit in 32 bytes");
  return hex(await eth.engine.getStorageAt(p.address(address, "address"), p.slotBytes(slot), blockAt(eth.engine, block)));
}

/** [address, storageKeys, block = "latest"]: EIP-1186 proofs of the account and slots (see `proof.ts`). */
function getProof(eth: EthContext, params: unknown[]): Promise<unknown> {
  return eth.history.atBlock("eth_getProof", params, 2) ?? eth_getProof(eth.engine, params);
}

/** [address, block, assetID]: the account's balance of a native asset (the multi-coin state). */
async function getAssetBalance(eth: EthContext, params: unknown[]): Promise<unknown> {
  const remote = eth.history.atBlock("eth_getAssetBalance", params, 1);
  if (remote !== undefined) return remote;
  const [address, block, assetId] = params;
  return q(await eth.engine.getAssetBalance(p.address(address, "address"), p.parseAssetIdHex(assetId, "assetID"), blockAt(eth.engine, block)));
}

// ---------------------------------------------------------------- blocks

/** [block, fullTransactions = false]: the block, or null. */
function getBlockByNumber(eth: EthContext, params: unknown[]): unknown {
  const [block, fullTransactions] = params;
  return (
    eth.history.blockByNumber("eth_getBlockByNumber", params) ??
    blockOrNull(() => blockAt(eth.engine, block), p.optionalBoolean(fullTransactions, "fullTransactions"))
  );
}

/** [blockHash, fullTransactions = false]: the block, or null. */
function getBlockByHash(eth: EthContext, params: unknown[]): unknown {
  const [hash, fullTransactions] = params;
  return blockOrNull(() => blockByHash(eth.engine, hash), p.optionalBoolean(fullTransactions, "fullTransactions")) ?? eth.history.byHash("eth_getBlockByHash", params);
}

/** [block]: how many transactions the block holds, or null. */
function getBlockTransactionCountByNumber(eth: EthContext, params: unknown[]): unknown {
  const [block] = params;
  return eth.history.blockByNumber("eth_getBlockTransactionCountByNumber", params) ?? orNull(() => q(blockAt(eth.engine, block).transactions.length));
}

/** [blockHash]: how many transactions the block holds, or null. */
function getBlockTransactionCountByHash({ engine }: EthContext, [hash]: unknown[]): string | null {
  return orNull(() => q(blockByHash(engine, hash).transactions.length));
}

/** [block]: the receipts of the block's transactions, or null. */
function getBlockReceipts(eth: EthContext, params: unknown[]): unknown {
  const [block] = params;
  return eth.history.blockByNumber("eth_getBlockReceipts", params) ?? orNull(() => blockAt(eth.engine, block).transactions.map(formatReceipt));
}

// ---------------------------------------------------------------- transactions

/** [transactionHash]: a mined or pending transaction, or null. */
function getTransactionByHash(eth: EthContext, [hashParam]: unknown[]): unknown {
  const hash = p.hash(hashParam, "transactionHash");
  const mined = eth.engine.chain.transaction(hash);
  if (mined !== undefined) return formatMinedTransaction(mined);
  const pooled = eth.engine.pendingTransactions.find((pending) => pending.hash === hash);
  if (pooled !== undefined) return formatTransaction(pooled.tx, pooled.hash, pooled.from.toString());
  return eth.history.byHash("eth_getTransactionByHash", [hash]);
}

/** [transactionHash]: a mined transaction's receipt, or null. */
function getTransactionReceipt(eth: EthContext, [hashParam]: unknown[]): unknown {
  const hash = p.hash(hashParam, "transactionHash");
  const mined = eth.engine.chain.transaction(hash);
  return mined === undefined ? eth.history.byHash("eth_getTransactionReceipt", [hash]) : formatReceipt(mined);
}

/** [block, index]: the block's transaction at that index, or null. */
function getTransactionByBlockNumberAndIndex(eth: EthContext, params: unknown[]): unknown {
  const [block, index] = params;
  return (
    eth.history.blockByNumber("eth_getTransactionByBlockNumberAndIndex", params) ??
    transactionAt(() => blockAt(eth.engine, block), p.looseQuantity(index, "index"))
  );
}

/** [blockHash, index]: the block's transaction at that index, or null. */
function getTransactionByBlockHashAndIndex({ engine }: EthContext, [hash, index]: unknown[]): Record<string, unknown> | null {
  return transactionAt(() => blockByHash(engine, hash), p.looseQuantity(index, "index"));
}

/** [request]: signs with the node's key for `from` (or impersonates it) and submits; the hash. */
async function sendTransaction(eth: EthContext, [request]: unknown[], held: LockHeld): Promise<string> {
  return submitSent(eth.engine, eth, await eth.engine.prepareTransaction(p.transactionRequest(request)), held);
}

/** [signedTransaction]: submits a transaction signed elsewhere; the hash. */
async function sendRawTransaction(eth: EthContext, [raw]: unknown[], held: LockHeld): Promise<string> {
  return submitSent(eth.engine, eth, await eth.engine.decodeRawTransaction(p.data(raw, "transaction")), held);
}

// ---------------------------------------------------------------- calls and estimates

/** [request, block = "latest"]: what the call returns, nothing kept (a failure throws with `throwOnCallFailures`). */
async function call(eth: EthContext, params: unknown[]): Promise<unknown> {
  const remote = eth.history.atBlock("eth_call", params, 1);
  if (remote !== undefined) return remote;
  const [request, block] = params;
  const outcome = await eth.engine.call(p.transactionRequest(request), p.blockSelector(block));
  if (outcome.error !== undefined && eth.engine.options.throwOnCallFailures) {
    throw new ExecutionFailedError(outcome.error, outcome.returnValue, undefined, outcome.trace);
  }
  return hex(outcome.returnValue);
}

/** [request, block = "pending"]: the smallest gas limit with which the transaction succeeds. */
async function estimateGas({ engine }: EthContext, [request, block]: unknown[]): Promise<string> {
  return q(await engine.estimateGas(p.transactionRequest(request), p.blockSelector(block ?? "pending")));
}

// ---------------------------------------------------------------- helpers

/** The block a block parameter names (absent: the latest); throws UnknownBlockError for one not on the chain. */
function blockAt(engine: Engine, block: unknown): BlockRecord {
  return engine.resolveBlock(p.blockSelector(block));
}

function blockByHash(engine: Engine, hash: unknown): BlockRecord {
  return engine.resolveBlock({ hash: p.hash(hash, "blockHash") });
}

/** The value of `read`, or null when the block it reads is not known. */
function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch (error) {
    if (error instanceof UnknownBlockError) return null;
    throw error;
  }
}

function blockOrNull(block: () => BlockRecord, fullTransactions: boolean): Record<string, unknown> | null {
  return orNull(() => formatBlock(block(), fullTransactions));
}

function transactionAt(block: () => BlockRecord, index: bigint): Record<string, unknown> | null {
  return orNull(() => {
    const mined = block().transactions[Number(index)];
    return mined === undefined ? null : formatMinedTransaction(mined);
  });
}

// ---------------------------------------------------------------- the tables

/** The reads that may answer beside a running operation (see `engineHeadReadOptions`). */
const ETH_HEAD_READS: Readonly<Record<string, PositionalMethod<EthContext, LockHeld | undefined>>> = {
  "eth_chainId": [0, chainId],
  "eth_syncing": [0, syncing],
  "eth_blockNumber": [0, blockNumber],
};

const ETH_METHODS: Readonly<Record<string, PositionalMethod<EthContext, LockHeld>>> = {
  // identity
  "eth_protocolVersion": [0, protocolVersion],
  "eth_mining": [0, mining],
  "eth_hashrate": [0, zero],
  "eth_coinbase": [0, coinbase],
  "eth_accounts": [0, accounts],
  "eth_requestAccounts": [0, accounts],
  // fees
  "eth_gasPrice": [0, nextBlockBaseFee],
  "eth_baseFee": [0, nextBlockBaseFee],
  "eth_maxPriorityFeePerGas": [0, zero],
  "eth_feeHistory": [[2, 3], feeHistory],
  // state
  "eth_getBalance": [[1, 2], getBalance],
  "eth_getTransactionCount": [[1, 2], getTransactionCount],
  "eth_getCode": [[1, 2], getCode],
  "eth_getStorageAt": [[2, 3], getStorageAt],
  "eth_getProof": [[2, 3], getProof],
  "eth_getAssetBalance": [3, getAssetBalance],
  // blocks
  "eth_getBlockByNumber": [[1, 2], getBlockByNumber],
  "eth_getBlockByHash": [[1, 2], getBlockByHash],
  "eth_getBlockTransactionCountByNumber": [1, getBlockTransactionCountByNumber],
  "eth_getBlockTransactionCountByHash": [1, getBlockTransactionCountByHash],
  "eth_getUncleCountByBlockNumber": [1, zero],
  "eth_getUncleCountByBlockHash": [1, zero],
  "eth_getBlockReceipts": [1, getBlockReceipts],
  // transactions
  "eth_getTransactionByHash": [1, getTransactionByHash],
  "eth_getTransactionReceipt": [1, getTransactionReceipt],
  "eth_getTransactionByBlockNumberAndIndex": [2, getTransactionByBlockNumberAndIndex],
  "eth_getTransactionByBlockHashAndIndex": [2, getTransactionByBlockHashAndIndex],
  "eth_sendTransaction": [1, sendTransaction],
  "eth_sendRawTransaction": [1, sendRawTransaction],
  // calls and estimates
  "eth_call": [[1, 3], call],
  "eth_estimateGas": [[1, 3], estimateGas],
};
