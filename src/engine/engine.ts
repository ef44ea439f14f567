/**
 * The contract-chain engine: an EVM with the native-asset precompiles and multi-coin state, a
 * chain of blocks, a transaction pool, and the queries a node answers. This class is the facade
 * over its parts (one file each: the chain state, block time, pool, block production, calls,
 * transactions, state reads and edits, snapshots); it runs operations one at a time and is the
 * only way in from outside the engine. It knows nothing of JSON-RPC, HTTP or Hardhat: `api/`
 * maps the JSON-RPC methods onto it.
 */
import type { Common } from "@ethereumjs/common";
import { Account, createAddressFromString, bytesToUnprefixedHex, type Address } from "@ethereumjs/util";
import { parseAssetId } from "../encoding/asset-id";
import type { UnlockedAccount } from "./accounts";
import type { AtomicChainHost, AtomicOperation, AtomicStateReader } from "./atomic-host";
import { BlockProducer, type MineOptions, type RejectedTransaction } from "./block-producer";
import { BlockTime, type PinnedHeader } from "./block-time";
import type { BlockRecord, ChainView, LogRecord } from "./chain";
import { ChainState } from "./chain-state";
import { engineCommon } from "./common";
import { EngineLock, type LockHeld } from "./engine-lock";
import { ExecutionFailedError, InvalidInputError, TransactionRejectedError, UnavailableOperationError } from "./errors";
import { failureTraceOf } from "./failure-trace";
import type { ForkSource } from "./fork/fork-source";
import { forkingEnabled, openFork, type OpenedFork } from "./fork/open-fork";
import { ForkedStateManager } from "./fork/forked-state";
import { Executor } from "./executor";
import { IntervalMining } from "./interval-mining";
import { loadKeccak } from "./keccak";
import { resolveEngineOptions, type EngineOptions, type ForkingOptions, type ResolvedEngineOptions } from "./options";
import { checkLogCount, checkLogRange } from "./log-limits";
import { ChainPersistence, durableTrieDatabase } from "./persistence/chain-persistence";
import { TransactionPool } from "./pool";
import { cleanVmMessage } from "./revert";
import { Snapshots } from "./snapshots";
import { StateEdits } from "./state-edits";
import type { NativeStateManager } from "./state-manager";
import type { VM } from "@ethereumjs/vm";
import { StateReads } from "./state-reads";
import { type RuntimeKeys, Transactions } from "./transactions";
import type { BlockSelector, CallOutcome, LogFilter, PooledTransaction, SnapshotCompanion, TransactionRequest } from "./types";
import type { DurableStore } from "../storage";

export class Engine implements AtomicChainHost {
  readonly common: Common;
  /** The options as resolved at creation; the gas limit and coinbase follow their setters. */
  private readonly settings: ResolvedEngineOptions;
  private readonly state: ChainState;
  private readonly time: BlockTime;
  private readonly pool: TransactionPool;
  private readonly reads: StateReads;
  private readonly executor: Executor;
  private readonly transactions: Transactions;
  private readonly blocks: BlockProducer;
  private readonly edits: StateEdits;
  private readonly snapshots: Snapshots;
  /** The chain in the durable store, when the engine was given one. */
  private readonly persistence: ChainPersistence | undefined;
  /** Whether this engine opened a chain from its store (else it started at a new genesis block). */
  private wasRestored = false;
  private mineOnArrival: boolean;
  /** The timer of evm_setIntervalMining: mines a block every so many ms, beside automine. */
  readonly intervalMining: IntervalMining;
  /** Whether the lines for people (`options.log`) are printed (hardhat_setLoggingEnabled). */
  loggingEnabled = true;
  /** The forking options the engine was created with (hardhat_reset without options returns to them). */
  private readonly createdForking: ForkingOptions | undefined;
  /** Runs operations one at a time, and seals a block after its operation answered. */
  private readonly lock: EngineLock;

  private constructor(settings: ResolvedEngineOptions, store: DurableStore | undefined) {
    this.settings = settings;
    const sink = settings.log;
    settings.log = (line) => {
      if (this.loggingEnabled) sink(line);
    };
    this.mineOnArrival = settings.automine;
    this.createdForking = settings.forking;
    this.common = engineCommon(settings.chainId, settings.hardfork);
    this.lock = new EngineLock((line) => this.settings.log(line));
    this.state = new ChainState(this.common, settings, store === undefined ? undefined : durableTrieDatabase(store, settings.storeCaches));
    this.time = new BlockTime(this.common, settings, this.state);
    this.persistence = store === undefined ? undefined : new ChainPersistence(store, this.state, this.time, settings);
    this.pool = new TransactionPool(this.state, settings, this.time);
    this.reads = new StateReads(this.state);
    this.executor = new Executor(this.state, settings, this.time, this.reads);
    this.transactions = new Transactions(this.common, settings, this.pool, this.executor, this.time);
    this.blocks = new BlockProducer(this.state, settings, this.time, this.pool, this.lock, this.persistence);
    this.edits = new StateEdits(this.state, this.persistence);
    this.snapshots = new Snapshots(this.state, this.time, this.pool, this.persistence);
    this.intervalMining = new IntervalMining(() => this.serialize(() => this.blocks.mineBlock()), (line) => this.settings.log(line));
  }

  /** A new engine: on the chain its `store` holds if it holds one, else at a new genesis block. */
  static async create(opts: EngineOptions = {}): Promise<Engine> {
    const settings = resolveEngineOptions(opts);
    await loadKeccak();
    if (forkingEnabled(settings.forking) && opts.store !== undefined) throw new UnavailableOperationError(FORK_WITH_STORE);
    const fork = forkingEnabled(settings.forking) ? await openFork(settings.forking, settings.log) : undefined;
    if (fork !== undefined) adoptFork(settings, fork);
    const engine = new Engine(settings, opts.store);
    engine.state.fork = fork?.source;
    if (engine.persistence !== undefined && (await engine.persistence.holdsChain())) await engine.restoreChain(engine.persistence);
    else await engine.startChain();
    return engine;
  }

  /** Whether the engine opened a chain kept in its store, rather than starting at a new genesis block. */
  get restored(): boolean {
    return this.wasRestored;
  }

  /** The chain kept in the store, with the configured keys unlocked (the genesis balances are the stored chain's). */
  private async restoreChain(persistence: ChainPersistence): Promise<void> {
    for (const { privateKey } of this.settings.accounts) this.transactions.unlock(privateKey);
    await persistence.load();
    this.wasRestored = true;
  }

  /**
   * A fresh state with the configured accounts and balances, and its first block: a genesis
   * block, or on a fork the remote's fork block (the accounts' balances are set over the
   * remote's accounts, as Hardhat's fork does).
   */
  private async startChain(): Promise<void> {
    await this.state.renew();
    const stateManager = this.state.stateManager;
    for (const { privateKey, balance } of this.settings.accounts) {
      const account = this.transactions.unlock(privateKey);
      if (stateManager instanceof ForkedStateManager) stateManager.setBalanceOverRemote(account.address, balance);
      else await stateManager.putAccount(account.address, new Account(0n, balance));
    }
    for (const { address, assetId, amount } of this.settings.assetBalances) {
      await stateManager.setAssetBalance(genesisAddress(address), genesisAssetId(assetId), amount);
    }
    const fork = this.state.fork;
    if (fork === undefined) await this.blocks.appendGenesis(this.settings.genesisTimestamp);
    else await this.blocks.appendForkPoint(fork.point);
  }

  /**
   * Back to a fresh chain (hardhat_reset): with `forking`, a fork of that remote (the chain ID
   * follows it unless the options fixed one); with null, a fresh genesis without any fork;
   * absent, as the engine was created.
   */
  async reset(forking?: ForkingOptions | null): Promise<void> {
    const refusal = this.snapshots.whyNoReset();
    if (refusal !== undefined) throw new UnavailableOperationError(refusal);
    let next: ForkingOptions | undefined;
    if (forking === undefined) next = this.createdForking;
    else if (forking !== null) {
      // How to reach remotes and where to cache stay as configured; the remote and block are new.
      const { cacheDir, timeoutMs, retries, requestsPerSecond } = this.createdForking ?? {};
      next = { cacheDir, timeoutMs, retries, requestsPerSecond, ...forking };
    }
    if (forkingEnabled(next) && this.persistence !== undefined) throw new UnavailableOperationError(FORK_WITH_STORE);
    // A remote that fails to start a fork leaves the chain as it was.
    const fork = forkingEnabled(next) ? await openFork(next, this.settings.log) : undefined;
    if (fork !== undefined) {
      if (!this.settings.explicit.chainId && fork.source.chainId !== this.settings.chainId) {
        throw new InvalidInputError(
          `hardhat_reset: the remote's chain ID is ${fork.source.chainId}, this network's ${this.settings.chainId}; restart the network to fork another chain`,
        );
      }
      adoptFork(this.settings, fork);
    } else if (!this.settings.explicit.deprecatedPrecompiles) this.settings.deprecatedPrecompiles = false;
    this.settings.forking = next;
    this.state.fork = fork?.source;
    // The whole former chain leaves, its genesis too (the new one has another timestamp): read
    // only if a logs filter or subscription will report its logs as removed.
    const removed = this.snapshots.blocksToAnnounce(this.state.chain.first);
    this.transactions.reset();
    this.pool.clear();
    this.time.reset();
    this.mineOnArrival = this.settings.automine;
    this.settings.genesisTimestamp = Math.floor(Date.now() / 1000);
    // The stored chain is deleted in the same commit that writes the new genesis block.
    await this.persistence?.stageClear();
    await this.startChain();
    this.snapshots.reset(removed);
    // What the companions staged as they went back to their start (see ChainPersistence.commit).
    await this.persistence?.commit();
  }

  /** The remote chain this one forks, if any. */
  get fork(): ForkSource | undefined {
    return this.state.fork;
  }

  // ---------------------------------------------------------------- running operations

  /**
   * Runs operations one at a time: the EVM state is shared and every step awaits. `work` gets
   * the proof that it holds the lock (which lets `submit` seal a block after the answer).
   */
  serialize<T>(work: (held: LockHeld) => Promise<T>): Promise<T> {
    return this.lock.run(work);
  }

  /** Runs a read of no EVM state (the head's number) at once, holding nothing: the head changes in one step. */
  atOnce<T>(work: (held: undefined) => Promise<T>): Promise<T> {
    return this.lock.atOnce(work);
  }

  /** Calls `listener` with every block appended from now on; returns the function that stops it. */
  onBlock(listener: (record: BlockRecord) => void): () => void {
    return this.blocks.onBlock(listener);
  }

  /**
   * Calls `listener` with the blocks each evm_revert or hardhat_reset takes off the chain,
   * oldest first, once the chain is back; returns the function that stops it. `wanted`: whether
   * the listener would use them now (when no listener would, they are not read).
   */
  onRemovedBlocks(listener: (records: readonly BlockRecord[]) => void, wanted?: () => boolean): () => void {
    return this.snapshots.onRemovedBlocks(listener, wanted);
  }

  // ---------------------------------------------------------------- what the engine is

  get options(): Readonly<ResolvedEngineOptions> {
    return this.settings;
  }

  get deprecatedPrecompiles(): boolean {
    return this.settings.deprecatedPrecompiles;
  }

  /** The node's keys by lowercase address (eth_accounts). */
  get unlocked(): ReadonlyMap<string, UnlockedAccount> {
    return this.transactions.unlocked;
  }

  /** Whether each transaction is mined in a block of its own as it arrives (else it waits in the pool). */
  get automine(): boolean {
    return this.mineOnArrival;
  }

  setAutomine(on: boolean): void {
    this.mineOnArrival = on;
  }

  /** Lets eth_sendTransaction send from `address` without its key (hardhat_impersonateAccount). */
  impersonate(address: Address): void {
    this.transactions.impersonate(address);
  }

  /** Ends an impersonation; false if the address was not impersonated. */
  stopImpersonating(address: Address): boolean {
    return this.transactions.stopImpersonating(address);
  }

  // ---------------------------------------------------------------- the chain

  get chain(): ChainView {
    return this.state.chain;
  }

  get head(): BlockRecord {
    return this.state.head;
  }

  headTimestamp(): bigint {
    return this.state.head.block.header.timestamp;
  }

  /** The block a selector names; throws UnknownBlockError for a number or hash not on the chain. */
  resolveBlock(selector: BlockSelector): BlockRecord {
    return this.reads.resolveBlock(selector);
  }

  blockAt(height: bigint): BlockRecord | undefined {
    return this.reads.blockAt(height);
  }

  /** The block that accepted an atomic transaction, if any. */
  atomicTransactionBlock(id: string): BlockRecord | undefined {
    return this.reads.atomicTransactionBlock(id);
  }

  getLogs(filter: LogFilter): LogRecord[] {
    return this.reads.getLogs(filter);
  }

  /**
   * The logs a client's query asks for (eth_getLogs, eth_getFilterLogs), within the options'
   * limits: throws QueryLimitError for a range or a result above them, collecting no more than
   * one log past the limit.
   */
  queryLogs(filter: LogFilter): LogRecord[] {
    checkLogRange(filter.fromBlock, filter.toBlock, this.options);
    const max = this.options.maxLogsPerRequest;
    const logs = this.reads.getLogs(filter, max === undefined ? undefined : max + 1);
    checkLogCount(logs.length, this.options);
    return logs;
  }

  // ---------------------------------------------------------------- state

  /** The live state after the head block: for reads (writes go through the setters below). */
  get stateManager(): NativeStateManager {
    return this.state.stateManager;
  }

  get currentState(): AtomicStateReader {
    return this.state.stateManager;
  }

  getAccount(address: Address, record: BlockRecord): Promise<Account> {
    return this.reads.getAccount(address, record);
  }

  getCode(address: Address, record: BlockRecord): Promise<Uint8Array> {
    return this.reads.getCode(address, record);
  }

  getStorageAt(address: Address, slot: Uint8Array, record: BlockRecord): Promise<Uint8Array> {
    return this.reads.getStorageAt(address, slot, record);
  }

  getAssetBalance(address: Address, assetIdHex64: string, record: BlockRecord): Promise<bigint> {
    return this.reads.getAssetBalance(address, assetIdHex64, record);
  }

  // ---------------------------------------------------------------- the next block

  /** The base fee (wei per gas) the next block will have. */
  nextBlockBaseFee(): bigint {
    return this.time.nextBlockBaseFee();
  }

  setNextBlockBaseFee(fee: bigint): void {
    this.time.setNextBlockBaseFee(fee);
  }

  /** Moves the clock forward by `seconds`; returns the total offset. */
  increaseTime(seconds: number): number {
    return this.time.increaseTime(seconds);
  }

  setNextBlockTimestamp(timestamp: number): void {
    this.time.setNextBlockTimestamp(timestamp);
  }
  /** A VM of its own over `state`, which nothing observes (a trace's replay). */
  detachedVm(state: NativeStateManager): Promise<VM> {
    return this.state.detachedVm(state);
  }

  /** The clock of the blocks to come (anvil_setTime, anvil_setBlockTimestampInterval). */
  get clock(): Pick<BlockTime, "setTime" | "setBlockInterval"> {
    return this.time;
  }


  setNextPrevRandao(value: Uint8Array): void {
    this.time.setNextPrevRandao(value);
  }

  setBlockGasLimit(gasLimit: bigint): void {
    this.time.setBlockGasLimit(gasLimit);
  }

  setCoinbase(address: Address): void {
    this.time.setCoinbase(address);
  }

  /** The next block (mined, or an atomic one) gets exactly these header fields (a follower re-executing a block). */
  pinNextHeader(fields: PinnedHeader): void {
    this.time.pinNextHeader(fields);
  }

  // ---------------------------------------------------------------- blocks and transactions

  /**
   * Mines one block with the given transactions (or the pool's), at an optional timestamp.
   * Invalid transactions are left out and reported; the rest are mined in order.
   */
  mineBlock(opts: MineOptions = {}): Promise<{ record: BlockRecord; rejected: RejectedTransaction[] }> {
    return this.blocks.mineBlock(opts);
  }

  /** Accepts an atomic operation in a block of its own (see AtomicChainHost). */
  mineAtomic(operation: AtomicOperation): Promise<BlockRecord> {
    return this.blocks.mineAtomic(operation);
  }

  /** Builds and signs (or impersonates) a transaction from a request, filling defaults like a node (with `signer`, that key signs). */
  prepareTransaction(request: TransactionRequest, signer?: UnlockedAccount): Promise<PooledTransaction> {
    return this.transactions.prepare(request, signer);
  }

  /** The keys unlocked and locked at run time (the personal_ namespace's accounts). */
  get runtimeKeys(): RuntimeKeys {
    return this.transactions;
  }

  /** Decodes and checks a signed transaction; throws InvalidInputError naming the rule it breaks. */
  decodeRawTransaction(raw: Uint8Array): Promise<PooledTransaction> {
    return this.transactions.decodeRaw(raw);
  }

  /**
   * Accepts a transaction: mines it at once with automine, else pools it. Returns its hash once
   * it has run. With `held` (the caller runs inside `serialize`), its block may be sealed after
   * the caller answered: the outcome is known once the transaction has run, and the next
   * operation waits for the seal anyway.
   */
  async submit(pooled: PooledTransaction, held?: LockHeld): Promise<string> {
    await this.pool.validate(pooled, this.mineOnArrival);
    if (!this.mineOnArrival) {
      this.pool.add(pooled);
      return pooled.hash;
    }
    const executed = await this.blocks.executeBlock({ transactions: [pooled] }, held);
    if (!executed.sealedAfterAnswer) await executed.sealed;
    if (executed.rejected.length > 0) {
      throw new TransactionRejectedError(`transaction rejected: ${cleanVmMessage(executed.rejected[0]!.error.message)}`);
    }
    const { execResult } = executed.results[0]!;
    const error = execResult.exceptionError;
    if (this.settings.throwOnTransactionFailures && error !== undefined) {
      throw new ExecutionFailedError(error.error, execResult.returnValue, pooled.hash, failureTraceOf(execResult));
    }
    return pooled.hash;
  }

  get pendingTransactions(): readonly PooledTransaction[] {
    return this.pool.pending;
  }

  dropPendingTransaction(hash: string): boolean {
    return this.pool.drop(hash);
  }

  pendingNonce(address: Address): Promise<bigint> {
    return this.pool.pendingNonce(address);
  }

  // ---------------------------------------------------------------- calls and estimates

  /** Runs a call against the state of a block without keeping any change. */
  call(request: TransactionRequest, selector: BlockSelector): Promise<CallOutcome> {
    return this.executor.call(request, selector);
  }

  /** Smallest gas limit with which the transaction succeeds (geth's search). */
  estimateGas(request: TransactionRequest, selector: BlockSelector): Promise<bigint> {
    return this.executor.estimateGas(request, selector);
  }

  // ---------------------------------------------------------------- test-only powers

  setAssetBalance(address: Address, assetIdHex64: string, amount: bigint): Promise<void> {
    return this.edits.setAssetBalance(address, assetIdHex64, amount);
  }

  setBalance(address: Address, balance: bigint): Promise<void> {
    return this.edits.setBalance(address, balance);
  }

  setNonce(address: Address, nonce: bigint): Promise<void> {
    return this.edits.setNonce(address, nonce);
  }

  setCode(address: Address, code: Uint8Array): Promise<void> {
    return this.edits.setCode(address, code);
  }

  setStorageAt(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return this.edits.setStorageAt(address, slot, value);
  }

  snapshot(): Promise<number> {
    return this.snapshots.snapshot();
  }

  /** Returns to a snapshot; it and every later snapshot are consumed (Hardhat semantics). */
  revertTo(id: number): Promise<boolean> {
    return this.snapshots.revertTo(id);
  }

  /**
   * Makes evm_snapshot, evm_revert and hardhat_reset take `companion`'s state along with the
   * chain's (see Snapshots.addCompanion). A companion that joins after its start (`atStart`
   * false: restored from a store) makes hardhat_reset refuse, naming it.
   */
  addSnapshotCompanion(companion: SnapshotCompanion, options: { name?: string; atStart?: boolean } = {}): void {
    this.snapshots.addCompanion(companion, options.name ?? "companion", options.atStart ?? true);
  }
}

/** A fork's chain ID (unless the options fixed one) and its precompile behaviour (unless forced). */
function adoptFork(settings: ResolvedEngineOptions, fork: OpenedFork): void {
  if (!settings.explicit.chainId) {
    settings.chainId = fork.source.chainId;
    if (!settings.explicit.networkId) settings.networkId = fork.source.chainId;
  }
  if (!settings.explicit.deprecatedPrecompiles) settings.deprecatedPrecompiles = fork.precompileMode === "deprecated";
}

/** Why forking and a data directory do not go together (yet). */
const FORK_WITH_STORE =
  "a fork is kept in memory and cannot be combined with a data directory (--db-dir); the remote's answers are cached in the fork cache directory instead";

function genesisAddress(text: string): Address {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw new InvalidInputError(`invalid address ${JSON.stringify(text)}: expected 0x followed by 40 hex digits`);
  return createAddressFromString(text);
}

function genesisAssetId(text: string): string {
  try {
    return bytesToUnprefixedHex(parseAssetId(text));
  } catch (error) {
    throw new InvalidInputError(`assetID: ${(error as Error).message}`);
  }
}
