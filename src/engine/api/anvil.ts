/**
 * The anvil_ namespace: the test-only powers Foundry's anvil serves, under the names viem's test
 * client (`mode: "anvil"`) and `cast rpc` users call, with anvil's answers (null where anvil
 * answers null, numbers where it answers numbers). Most are the evm_/hardhat_ powers under
 * anvil's names; anvil's own are interval mining in seconds, a block timestamp interval, the
 * clock set outright, dropping every pending transaction, the node's information and metadata,
 * and the state dump (anvil's format: hex of gzipped JSON; see `anvil-state.ts`).
 */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import { InvalidInputError, UnavailableOperationError } from "../errors";
import { dumpState, loadState, noteWritten } from "./anvil-state";
import type { Filters } from "./filters";
import { formatBlock, q } from "./format";
import { mineOptions, optionalQuantity, revert, snapshot } from "./evm";
import { instanceId, mineBlocks, resetForking } from "./hardhat";
import * as p from "./params";
import { submitSent, type SentTransactionWatchers } from "./sent";
import type { EngineContext } from "./serve";
import type { SubscriptionHub } from "./subscriptions";
import { CLIENT_VERSION } from "./web3";

/** What the anvil_ methods use: the engine, and the watchers of the transactions they send. */
interface AnvilContext extends SentTransactionWatchers {
  readonly engine: Engine;
}

export function anvilApi(engine: Engine, options: RpcApiOptions<LockHeld>, filters: Filters, subscriptions: SubscriptionHub): RpcApi<LockHeld> {
  const context: AnvilContext = { engine, filters, subscriptions };
  // The table is made here, not when the module loads: it names functions of modules that import this one.
  return RpcApi.scoped(options).positionalMethods(context, {
    // mining
    "anvil_mine": [[0, 2], anvilMine],
    "anvil_mine_detailed": [[0, 1], mineDetailed],
    "evm_mine_detailed": [[0, 1], mineDetailed],
    "anvil_getAutomine": [0, getAutomine],
    "anvil_setAutomine": [1, setAutomine],
    "anvil_setIntervalMining": [1, setIntervalMining],
    "anvil_getIntervalMining": [0, getIntervalMining],
    // the pool
    "anvil_dropTransaction": [1, dropTransaction],
    "anvil_dropAllTransactions": [0, dropAllTransactions],
    "anvil_removePoolTransactions": [1, removePoolTransactions],
    "eth_sendUnsignedTransaction": [1, sendUnsignedTransaction],
    // accounts and state
    "anvil_impersonateAccount": [1, impersonateAccount],
    "anvil_stopImpersonatingAccount": [1, stopImpersonatingAccount],
    "anvil_setBalance": [2, setBalance],
    "anvil_setNonce": [2, setNonce],
    "evm_setAccountNonce": [2, setNonce],
    "anvil_setCode": [2, setCode],
    "anvil_setStorageAt": [3, setStorageAt],
    "anvil_dumpState": [[0, 1], dumpState],
    "anvil_loadState": [1, loadState],
    "anvil_reset": [[0, 1], reset],
    // the next block and the clock
    "anvil_setNextBlockBaseFeePerGas": [1, setNextBlockBaseFeePerGas],
    "anvil_setCoinbase": [1, setCoinbase],
    "anvil_setBlockGasLimit": [1, setBlockGasLimit],
    "anvil_setMinGasPrice": [1, setMinGasPrice],
    "anvil_increaseTime": [1, increaseTime],
    "anvil_setNextBlockTimestamp": [1, setNextBlockTimestamp],
    "anvil_setTime": [1, setTime],
    "anvil_setBlockTimestampInterval": [1, setBlockTimestampInterval],
    "anvil_removeBlockTimestampInterval": [0, removeBlockTimestampInterval],
    "anvil_snapshot": [0, snapshot],
    "anvil_revert": [1, revert],
    // the node
    "anvil_setLoggingEnabled": [1, setLoggingEnabled],
    "anvil_nodeInfo": [0, nodeInfo],
    "anvil_metadata": [0, metadata],
    "anvil_setChainId": [1, setChainId],
    "anvil_setRpcUrl": [1, setRpcUrl],
    "anvil_autoImpersonateAccount": [1, autoImpersonateAccount],
  });
}

// ---------------------------------------------------------------- mining

/** Mines `count` blocks (default 1), `interval` seconds apart (default 1). */
async function anvilMine({ engine }: EngineContext, [count, interval]: unknown[]): Promise<null> {
  await mineBlocks(engine, optionalQuantity(count, "blocks") ?? 1n, optionalQuantity(interval, "interval") ?? 1n);
  return null;
}

/** As evm_mine (a timestamp, or anvil's `{ timestamp?, blocks? }`), answering the mined blocks with their transactions. */
async function mineDetailed({ engine }: EngineContext, [options]: unknown[]): Promise<Record<string, unknown>[]> {
  const { blocks, timestamp } = mineOptions(options);
  const mined: Record<string, unknown>[] = [];
  for (let i = 0n; i < blocks; i++) {
    const { record } = await engine.mineBlock(i === 0n && timestamp !== undefined ? { timestamp } : {});
    mined.push(formatBlock(record, true));
  }
  return mined;
}

function getAutomine({ engine }: EngineContext): boolean {
  return engine.automine;
}

function setAutomine({ engine }: EngineContext, [flag]: unknown[]): null {
  if (typeof flag !== "boolean") throw invalidParams("anvil_setAutomine expects true or false");
  engine.setAutomine(flag);
  return null;
}

/** anvil's interval is in seconds (evm_setIntervalMining's, as on Hardhat's network, in milliseconds). */
function setIntervalMining({ engine }: EngineContext, [seconds]: unknown[]): null {
  engine.intervalMining.set(Number(p.looseQuantity(seconds, "interval")) * 1000);
  return null;
}

function getIntervalMining({ engine }: EngineContext): number | number[] | null {
  const interval = engine.intervalMining.current;
  if (typeof interval !== "number") return interval.map((ms) => ms / 1000);
  return interval === 0 ? null : interval / 1000;
}

// ---------------------------------------------------------------- the pool

/** Removes a pending transaction: its hash, or null if none is pending with it. */
function dropTransaction({ engine }: EngineContext, [transactionHash]: unknown[]): string | null {
  const hash = p.hash(transactionHash, "transactionHash");
  return engine.dropPendingTransaction(hash) ? hash : null;
}

function dropAllTransactions({ engine }: EngineContext): null {
  for (const { hash } of [...engine.pendingTransactions]) engine.dropPendingTransaction(hash);
  return null;
}

function removePoolTransactions({ engine }: EngineContext, [address]: unknown[]): null {
  const sender = p.address(address, "address");
  for (const pooled of [...engine.pendingTransactions]) if (pooled.from.equals(sender)) engine.dropPendingTransaction(pooled.hash);
  return null;
}

/** Sends from any address without its key or signature, as if it were impersonated for this one transaction. */
async function sendUnsignedTransaction(anvil: AnvilContext, [requestParam]: unknown[]): Promise<string> {
  const { engine } = anvil;
  const request = p.transactionRequest(requestParam);
  if (request.from === undefined) throw new InvalidInputError("eth_sendUnsignedTransaction needs a `from` address");
  const from = request.from;
  const wasImpersonated = engine.stopImpersonating(from);
  engine.impersonate(from);
  let pooled;
  try {
    pooled = await engine.prepareTransaction(request);
  } finally {
    if (!wasImpersonated) engine.stopImpersonating(from);
  }
  // Sealed before the answer, as when it was written (the lock's proof is not passed on).
  return submitSent(engine, anvil, pooled);
}

// ---------------------------------------------------------------- accounts and state

function impersonateAccount({ engine }: EngineContext, [address]: unknown[]): null {
  engine.impersonate(p.address(address, "address"));
  return null;
}

function stopImpersonatingAccount({ engine }: EngineContext, [address]: unknown[]): null {
  engine.stopImpersonating(p.address(address, "address"));
  return null;
}

export async function setBalance({ engine }: EngineContext, [addressParam, balance]: unknown[]): Promise<null> {
  const address = p.address(addressParam, "address");
  await engine.setBalance(address, p.looseQuantity(balance, "balance"));
  noteWritten(engine, address);
  return null;
}

export async function setNonce({ engine }: EngineContext, [addressParam, nonce]: unknown[]): Promise<null> {
  const address = p.address(addressParam, "address");
  await engine.setNonce(address, p.looseQuantity(nonce, "nonce"));
  noteWritten(engine, address);
  return null;
}

export async function setCode({ engine }: EngineContext, [addressParam, code]: unknown[]): Promise<null> {
  const address = p.address(addressParam, "address");
  await engine.setCode(address, p.data(code, "code"));
  noteWritten(engine, address);
  return null;
}

export async function setStorageAt({ engine }: EngineContext, [addressParam, slotParam, value]: unknown[]): Promise<true> {
  const address = p.address(addressParam, "address");
  const slot = p.slotBytes(p.looseQuantity(slotParam, "slot"));
  await engine.setStorageAt(address, slot, p.data(value, "value", 32));
  noteWritten(engine, address, slot);
  return true;
}

/**
 * As hardhat_reset, but as anvil reads `{ forking: { jsonRpcUrl?, blockNumber? } }`: without a
 * URL (viem's `reset()` sends one without), a fork stays on its remote (at `blockNumber` if
 * given) and a chain without one starts afresh.
 */
async function reset({ engine }: EngineContext, [options]: unknown[]): Promise<null> {
  const forking = typeof options === "object" && options !== null ? (options as { forking?: unknown }).forking : undefined;
  if (typeof forking === "object" && forking !== null && !Array.isArray(forking)) {
    const { jsonRpcUrl, url, blockNumber } = forking as Record<string, unknown>;
    if (jsonRpcUrl === undefined && url === undefined) {
      const remote = engine.options.forking?.url;
      const block = optionalQuantity(blockNumber, "forking.blockNumber");
      await engine.reset(engine.fork === undefined || remote === undefined ? undefined : { url: remote, ...(block === undefined ? {} : { blockNumber: block }) });
      return null;
    }
  }
  await engine.reset(resetForking(options));
  return null;
}

// ---------------------------------------------------------------- the next block and the clock

function setNextBlockBaseFeePerGas({ engine }: EngineContext, [baseFeePerGas]: unknown[]): null {
  engine.setNextBlockBaseFee(p.looseQuantity(baseFeePerGas, "baseFeePerGas"));
  return null;
}

function setCoinbase({ engine }: EngineContext, [address]: unknown[]): null {
  engine.setCoinbase(p.address(address, "address"));
  return null;
}

function setBlockGasLimit({ engine }: EngineContext, [gasLimit]: unknown[]): true {
  engine.setBlockGasLimit(p.looseQuantity(gasLimit, "gasLimit"));
  return true;
}

/** As anvil and Hardhat's network, where EIP-1559 is active (always, on the contract chain). */
function setMinGasPrice(): never {
  throw new InvalidInputError("anvil_setMinGasPrice is not supported when EIP-1559 is active");
}

/** Adds to the clock; answers the total offset in seconds, a number as anvil does. */
function increaseTime({ engine }: EngineContext, [seconds]: unknown[]): number {
  return engine.increaseTime(Number(p.looseQuantity(seconds, "seconds")));
}

function setNextBlockTimestamp({ engine }: EngineContext, [timestamp]: unknown[]): null {
  engine.setNextBlockTimestamp(Number(p.looseQuantity(timestamp, "timestamp")));
  return null;
}

/** Sets the clock to a time; answers its offset from the wall clock in seconds. */
function setTime({ engine }: EngineContext, [timestamp]: unknown[]): number {
  return engine.clock.setTime(Number(p.looseQuantity(timestamp, "timestamp")));
}

function setBlockTimestampInterval({ engine }: EngineContext, [seconds]: unknown[]): null {
  engine.clock.setBlockInterval(Number(p.looseQuantity(seconds, "interval")));
  return null;
}

/** Whether an interval was set (anvil's answer). */
function removeBlockTimestampInterval({ engine }: EngineContext): boolean {
  return engine.clock.setBlockInterval(undefined);
}

// ---------------------------------------------------------------- the node

function setLoggingEnabled({ engine }: EngineContext, [flag]: unknown[]): null {
  if (typeof flag !== "boolean") throw invalidParams("anvil_setLoggingEnabled expects true or false");
  engine.loggingEnabled = flag;
  return null;
}

/** anvil's node information, with this network's values (nativekit's hardfork names are ethereumjs'). */
function nodeInfo({ engine }: EngineContext): Record<string, unknown> {
  const head = engine.head;
  const options = engine.options;
  return {
    currentBlockNumber: q(head.number),
    currentBlockTimestamp: Number(head.block.header.timestamp),
    currentBlockHash: head.hash,
    hardFork: options.hardfork,
    transactionOrder: "fees",
    environment: { baseFee: q(engine.nextBlockBaseFee()), chainId: options.chainId, gasLimit: q(options.blockGasLimit), gasPrice: q(engine.nextBlockBaseFee()) },
    forkConfig: {
      forkUrl: engine.fork === undefined ? null : (options.forking?.url ?? null),
      forkBlockNumber: engine.fork === undefined ? null : Number(engine.fork.point.number),
      forkRetryBackoff: null,
    },
  };
}

/** hardhat_metadata's fields with anvil's extras: the semantic version, and null for no fork. */
function metadata({ engine }: EngineContext): Record<string, unknown> {
  return {
    clientVersion: CLIENT_VERSION,
    clientSemver: CLIENT_VERSION.slice(CLIENT_VERSION.lastIndexOf("/") + 1),
    chainId: engine.options.chainId,
    instanceId: instanceId(engine),
    latestBlockNumber: Number(engine.chain.height),
    latestBlockHash: engine.head.hash,
    forkedNetwork:
      engine.fork === undefined ? null : { chainId: engine.fork.chainId, forkBlockNumber: Number(engine.fork.point.number), forkBlockHash: engine.fork.point.hash },
  };
}

function setChainId(): never {
  return notServed("anvil_setChainId", "the chain ID is fixed when the network starts (the chainId option)");
}

function setRpcUrl(): never {
  return notServed("anvil_setRpcUrl", "a fork's remote changes with anvil_reset / hardhat_reset { forking: { jsonRpcUrl } }");
}

function autoImpersonateAccount(): never {
  return notServed("anvil_autoImpersonateAccount", "impersonate each sender with anvil_impersonateAccount, or send with eth_sendUnsignedTransaction");
}

function notServed(method: string, instead: string): never {
  throw new UnavailableOperationError(`${method} is not supported by nativekit: ${instead}`);
}
