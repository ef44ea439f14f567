import { Block, createBlock, createBlockHeader } from "@ethereumjs/block";
import { ConsensusType, createCustomCommon, Mainnet, type Common } from "@ethereumjs/common";
import { NobleBN254, type EVMResult } from "@ethereumjs/evm";
import { Caches } from "@ethereumjs/statemanager";
import {
  createTx,
  createTxFromRLP,
  TransactionType,
  type TypedTransaction,
  type TypedTxData,
} from "@ethereumjs/tx";
import {
  Account,
  Address,
  bytesToHex,
  bytesToUnprefixedHex,
  createAddressFromString,
  createZeroAddress,
  KECCAK256_RLP,
  setLengthLeft,
  bytesToBigInt,
  bigIntToBytes,
  ValueEncoding,
} from "@ethereumjs/util";
import { RLP } from "@ethereumjs/rlp";
import { Bloom, buildBlock, createVM, encodeReceipt, paramsVM, runTx, type RunTxResult, type VM } from "@ethereumjs/vm";
import { paramsBlock } from "@ethereumjs/block";
import { paramsEVM } from "@ethereumjs/evm";
import { paramsTx } from "@ethereumjs/tx";
import { FlatKeyMapDB, NodeCachingTrie } from "./node-cache-trie";
import { deriveMnemonicKeys, unlockedAccount, type UnlockedAccount } from "./accounts";
import { ChainStore, type BlockRecord, type LogRecord, type MinedTransaction, type ReceiptRecord } from "./chain";
import { RpcError, RpcErrorCode } from "../rpc/errors";
import {
  BLACKHOLE_ADDRESS,
  DEFAULT_BLOCK_GAS_LIMIT,
  DEFAULT_MIN_BASE_FEE,
  LOCAL_CHAIN_ID,
  resolveAccounts,
  type EngineOptions,
  type ResolvedEngineOptions,
} from "./options";
import { NativeEVM, nativePrecompiles } from "./precompiles";
import { formatConsoleLog } from "./console-log";
import { ecrecover, ecsign } from "./ecdsa";
import { keccak256, loadKeccak } from "./keccak";
import { orderedTrieRoot } from "./block-roots";
import { revertError, failureMessage } from "./revert";
import { NativeStateManager } from "./state-manager";
import type { MultiCoinSnapshot } from "./multicoin";
import { parseAssetIdHex } from "./params";
import type { AtomicChainHost, AtomicOperation, AtomicStateReader } from "./atomic-host";

/** A transaction request as eth_sendTransaction / eth_call receive it, already parsed. */
export interface TransactionRequest {
  from?: Address;
  to?: Address;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value?: bigint;
  data?: Uint8Array;
  nonce?: bigint;
  accessList?: { address: string; storageKeys: string[] }[];
  type?: number;
}

export type BlockSelector = bigint | "latest" | "earliest" | "pending" | "safe" | "finalized" | { hash: string };

export interface LogFilter {
  fromBlock: bigint;
  toBlock: bigint;
  addresses: Uint8Array[];
  /** Per position: undefined = any, else any of the listed topics. */
  topics: (Uint8Array[] | undefined)[];
}

export interface CallOutcome {
  returnValue: Uint8Array;
  gasUsed: bigint;
  error: string | undefined;
  reverted: boolean;
}

interface EngineSnapshot {
  height: bigint;
  stateRoot: Uint8Array;
  multiCoin: MultiCoinSnapshot;
  timeOffset: number;
  nextTimestamp: number | undefined;
  pending: TypedTransaction[];
  nextBaseFee: bigint | undefined;
  /** Restores the companions' state of the same moment (see addSnapshotCompanion). */
  companions: (() => void)[];
}

/**
 * State kept outside the engine that must move with the contract chain's: a local network's
 * exchange chain and shared atomic memory. `capture` returns a function that puts the state
 * back to what it was at the capture, and that can be called any number of times.
 */
export interface SnapshotCompanion {
  capture(): () => void;
}


/** A transaction waiting in the pool (automine off), with its sender resolved. */
interface PooledTransaction {
  tx: TypedTransaction;
  from: Address;
  hash: string;
  /** `tx.serialize()`, when already computed (the transactions trie needs it again). */
  serialized?: Uint8Array;
}

interface MineOptions {
  timestamp?: bigint;
  transactions?: PooledTransaction[];
  atomic?: AtomicOperation[];
}

/** What running a block's candidate transactions gave, filled in as they run. */
interface BlockOutcome {
  /** The transactions that ran, in order, with their results. */
  included: PooledTransaction[];
  results: RunTxResult[];
  /** The transactions left out, with the reason. */
  rejected: { pooled: PooledTransaction; error: Error }[];
}

/** A block whose transactions have run. */
interface ExecutedBlock extends BlockOutcome {
  /** The block's record, once its roots are computed and it is on the chain. */
  sealed: Promise<BlockRecord>;
}

/** What sealing needs from running a block's transactions. */
interface BlockRun {
  header: HeaderData & { excessBlobGas?: bigint };
  gasUsed: bigint;
  checkpointed: boolean;
  cancun: boolean;
}

const ZERO32 = new Uint8Array(32);
const BEACON_ROOTS_ADDRESS = createAddressFromString("0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02");

/** Rules with block-level effects the lean block assembly does not apply (Prague and later). */
const LEAN_PATH_UNKNOWN_EIPS = [2935, 7002, 7251, 7594, 7685, 7843, 7928, 8037];

/** The header fields the engine chooses for a new block (the rest follow from its content). */
interface HeaderData {
  parentHash: Uint8Array;
  number: bigint;
  timestamp: bigint;
  baseFeePerGas: bigint;
  gasLimit: bigint;
  coinbase: `0x${string}`;
  difficulty: bigint;
  parentBeaconBlockRoot?: Uint8Array;
  mixHash: Uint8Array;
}

/**
 * The contract-chain engine: an EVM with the native-asset precompiles and multi-coin state,
 * a chain of blocks, a transaction pool, and the queries a node answers. It knows nothing of
 * JSON-RPC framing, HTTP or Hardhat; `rpc.ts` maps methods onto it.
 */
export class Engine implements AtomicChainHost {
  readonly options: ResolvedEngineOptions;
  readonly common: Common;
  stateManager: NativeStateManager;
  chain = new ChainStore();
  readonly unlocked = new Map<string, UnlockedAccount>();
  /** Addresses eth_sendTransaction may send from without a key (hardhat_impersonateAccount). */
  readonly impersonated = new Set<string>();
  automine: boolean;

  private vm!: VM;
  /** Whether `assembleBlock` covers the active rules (else blocks go through BlockBuilder). */
  private readonly canAssembleBlocks: boolean;
  private pool: PooledTransaction[] = [];
  private timeOffset = 0;
  private nextTimestamp: number | undefined;
  private nextBaseFee: bigint | undefined;
  private snapshots = new Map<number, EngineSnapshot>();
  private nextSnapshotId = 1;
  /** Each companion with the restore function of its state when it joined (hardhat_reset). */
  private readonly companions: { companion: SnapshotCompanion; restoreInitial: () => void }[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** A block being sealed after its operation answered (see `executeBlock`); the queue waits for it. */
  private sealing: Promise<void> | undefined;
  /** Set if sealing a block ever failed: the chain would miss a block, so nothing more runs. */
  private fault: Error | undefined;
  private readonly blockListeners = new Set<(record: BlockRecord) => void>();
  private nextPrevRandao: Uint8Array | undefined;

  private constructor(options: ResolvedEngineOptions) {
    this.options = options;
    this.automine = options.automine;
    this.common = withCheapLookups(
      createCustomCommon({ name: "nativekit", chainId: options.chainId }, Mainnet, {
        hardfork: options.hardfork,
        // Signing, sender recovery, ECRECOVER and every Keccak-256 (tries, transactions,
        // headers, the KECCAK256 opcode) go through these faster implementations.
        customCrypto: { ecsign, ecrecover, keccak256 },
      }),
    );
    this.stateManager = this.newStateManager();
    this.canAssembleBlocks =
      this.common.consensusType() === ConsensusType.ProofOfStake &&
      !LEAN_PATH_UNKNOWN_EIPS.some((eip) => this.common.isActivatedEIP(eip));
  }

  static async create(opts: EngineOptions = {}): Promise<Engine> {
    const chainId = opts.chainId ?? LOCAL_CHAIN_ID;
    const options: ResolvedEngineOptions = {
      chainId,
      networkId: opts.networkId ?? chainId,
      hardfork: opts.hardfork ?? "cancun",
      accounts: resolveAccounts(opts.accounts, deriveMnemonicKeys),
      assetBalances: opts.assetBalances ?? [],
      deprecatedPrecompiles: opts.deprecatedPrecompiles ?? false,
      blockGasLimit: opts.blockGasLimit ?? DEFAULT_BLOCK_GAS_LIMIT,
      minBaseFeePerGas: opts.minBaseFeePerGas ?? DEFAULT_MIN_BASE_FEE,
      automine: opts.automine ?? true,
      genesisTimestamp: opts.genesisTimestamp ?? Math.floor(Date.now() / 1000),
      coinbase: opts.coinbase ?? BLACKHOLE_ADDRESS,
      allowUnlimitedContractSize: opts.allowUnlimitedContractSize ?? false,
      throwOnTransactionFailures: opts.throwOnTransactionFailures ?? false,
      throwOnCallFailures: opts.throwOnCallFailures ?? true,
      log: opts.log ?? (() => {}),
    };
    if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`chainId must be a positive integer, got ${chainId}`);
    await loadKeccak();
    const engine = new Engine(options);
    await engine.initialise();
    return engine;
  }

  private async initialise(): Promise<void> {
    this.vm = await this.makeVm(this.stateManager);
    for (const { privateKey, balance } of this.options.accounts) {
      const account = unlockedAccount(privateKey);
      this.unlocked.set(account.addressHex, account);
      await this.stateManager.putAccount(account.address, new Account(0n, balance));
    }
    for (const { address, assetId, amount } of this.options.assetBalances) {
      await this.stateManager.setAssetBalance(parseAddress(address), parseAssetIdHex(assetId), amount);
    }
    const stateRoot = await this.stateManager.getStateRoot();
    const genesis = createBlock(
      {
        header: {
          number: 0n,
          gasLimit: this.options.blockGasLimit,
          timestamp: BigInt(this.options.genesisTimestamp),
          baseFeePerGas: this.options.minBaseFeePerGas,
          stateRoot,
          coinbase: this.options.coinbase as `0x${string}`,
          difficulty: 0n,
          ...this.cancunHeaderFields(),
          blobGasUsed: this.common.isActivatedEIP(4844) ? 0n : undefined,
          withdrawalsRoot: KECCAK256_RLP,
        },
        withdrawals: [],
      },
      { common: this.common, setHardfork: false },
    );
    this.chain.append(this.record(genesis, [], []));
  }

  /** Back to a fresh genesis with the same options (hardhat_reset without forking). */
  async reset(): Promise<void> {
    this.stateManager = this.newStateManager();
    this.chain = new ChainStore();
    this.unlocked.clear();
    this.impersonated.clear();
    this.pool = [];
    this.timeOffset = 0;
    this.nextTimestamp = undefined;
    this.nextBaseFee = undefined;
    this.nextPrevRandao = undefined;
    this.snapshots.clear();
    this.automine = this.options.automine;
    (this.options as { genesisTimestamp: number }).genesisTimestamp = Math.floor(Date.now() / 1000);
    await this.initialise();
    for (const { restoreInitial } of this.companions) restoreInitial();
  }

  /**
   * Makes evm_snapshot, evm_revert and hardhat_reset take `companion`'s state along with the
   * chain's: a revert restores it as of the snapshot, a reset as of this call, so a companion
   * joins when both are at their start (a local network joins its chains at creation).
   */
  addSnapshotCompanion(companion: SnapshotCompanion): void {
    this.companions.push({ companion, restoreInitial: companion.capture() });
  }

  private newStateManager(): NativeStateManager {
    // Trie nodes kept as bytes (the default hex-string encoding converts every node on each
    // access), and kept decoded in memory (NodeCachingTrie).
    const trie = new NodeCachingTrie({ useKeyHashing: true, common: this.common, db: new FlatKeyMapDB(), valueEncoding: ValueEncoding.Bytes });
    return new NativeStateManager({ common: this.common, caches: new Caches(), trie });
  }

  setBlockGasLimit(gasLimit: bigint): void {
    if (gasLimit <= 0n) throw new RpcError(RpcErrorCode.InvalidParams, "the block gas limit must be positive");
    (this.options as { blockGasLimit: bigint }).blockGasLimit = gasLimit;
  }

  setCoinbase(address: Address): void {
    (this.options as { coinbase: string }).coinbase = address.toString();
  }

  setNextPrevRandao(value: Uint8Array): void {
    this.nextPrevRandao = setLengthLeft(value, 32);
  }

  private get evm(): NativeEVM {
    return this.vm.evm as NativeEVM;
  }

  /** Runs `work` while collecting console.log payloads, then prints them (as Hardhat's network does). */
  private async withConsole<T>(work: () => Promise<T>): Promise<T> {
    const payloads: Uint8Array[] = [];
    this.evm.consoleSink = (payload) => payloads.push(payload.slice());
    try {
      return await work();
    } finally {
      this.evm.consoleSink = undefined;
      for (const payload of payloads) {
        this.options.log(formatConsoleLog(payload) ?? `console.log payload with unknown selector: ${bytesToHex(payload)}`);
      }
    }
  }

  /** Header fields that exist only from Cancun on (the contract chain has no blobs or beacon roots). */
  private cancunHeaderFields(): { excessBlobGas?: bigint; parentBeaconBlockRoot?: Uint8Array } {
    return {
      ...(this.common.isActivatedEIP(4844) ? { excessBlobGas: 0n } : {}),
      ...(this.common.isActivatedEIP(4788) ? { parentBeaconBlockRoot: ZERO32 } : {}),
    };
  }

  private async makeVm(stateManager: NativeStateManager): Promise<VM> {
    const blockchain = {
      getBlock: async (n: number) => {
        const record = this.chain.byNumberOrUndefined(BigInt(n));
        if (record === undefined) throw new Error(`block ${n} not found`);
        return record.block;
      },
      putBlock: async () => {},
      shallowCopy() {
        return this;
      },
    };
    const evm = new NativeEVM({
      common: this.common,
      stateManager,
      blockchain,
      bn254: new NobleBN254(),
      customPrecompiles: nativePrecompiles({ deprecated: this.options.deprecatedPrecompiles }),
      allowUnlimitedContractSize: this.options.allowUnlimitedContractSize,
    });
    return createVM({ common: this.common, stateManager, blockchain, evm });
  }

  private throwIfFaulted(): void {
    if (this.fault !== undefined) {
      throw new RpcError(RpcErrorCode.InternalError, `the simulator stopped after an internal error: ${this.fault.message}`);
    }
  }

  /** Runs operations one at a time: the EVM state is shared and every step awaits. */
  serialize<T>(work: () => Promise<T>): Promise<T> {
    const guarded = () => {
      this.throwIfFaulted();
      return work();
    };
    const run = this.queue.then(guarded, guarded);
    // The next operation also waits for a block this one left sealing.
    const settle = () => {
      const sealing = this.sealing;
      this.sealing = undefined;
      return sealing;
    };
    this.queue = run.then(settle, settle);
    return run;
  }

  onBlock(listener: (record: BlockRecord) => void): () => void {
    this.blockListeners.add(listener);
    return () => this.blockListeners.delete(listener);
  }

  // ---------------------------------------------------------------- blocks and time

  get head(): BlockRecord {
    return this.chain.head;
  }

  resolveBlock(selector: BlockSelector): BlockRecord {
    if (selector === "latest" || selector === "pending" || selector === "safe" || selector === "finalized") return this.chain.head;
    if (selector === "earliest") return this.chain.byNumberOrUndefined(0n)!;
    if (typeof selector === "bigint") {
      const record = this.chain.byNumberOrUndefined(selector);
      if (record === undefined) {
        throw new RpcError(RpcErrorCode.InvalidParams, `block ${selector} is not known: the latest block is ${this.chain.height}`);
      }
      return record;
    }
    const record = this.chain.byHashOrUndefined(selector.hash);
    if (record === undefined) throw new RpcError(RpcErrorCode.InvalidParams, `block with hash ${selector.hash} is not known`);
    return record;
  }

  /** The base fee the next block will have. */
  nextBlockBaseFee(): bigint {
    if (this.nextBaseFee !== undefined) return this.nextBaseFee;
    const computed = this.head.block.header.calcNextBaseFee();
    return computed > this.options.minBaseFeePerGas ? computed : this.options.minBaseFeePerGas;
  }

  setNextBlockBaseFee(fee: bigint): void {
    this.nextBaseFee = fee;
  }

  private nextBlockTimestamp(): bigint {
    const parent = Number(this.head.block.header.timestamp);
    if (this.nextTimestamp !== undefined) return BigInt(this.nextTimestamp);
    const now = Math.floor(Date.now() / 1000) + this.timeOffset;
    // The contract chain allows blocks with their parent's timestamp, never an earlier one.
    return BigInt(now > parent ? now : parent);
  }

  increaseTime(seconds: number): number {
    this.timeOffset += seconds;
    return this.timeOffset;
  }

  setNextBlockTimestamp(timestamp: number): void {
    const parent = Number(this.head.block.header.timestamp);
    if (timestamp <= parent) {
      throw new RpcError(
        RpcErrorCode.InvalidParams,
        `timestamp ${timestamp} is lower than or equal to the previous block's timestamp ${parent}`,
      );
    }
    this.nextTimestamp = timestamp;
  }

  /**
   * Mines one block with the given transactions (or the pool's), at an optional timestamp.
   * Invalid transactions are left out and reported; the rest are mined in order.
   */
  async mineBlock(opts: MineOptions = {}): Promise<{
    record: BlockRecord;
    rejected: { pooled: PooledTransaction; error: Error }[];
  }> {
    const executed = await this.executeBlock(opts, false);
    return { record: await executed.sealed, rejected: executed.rejected };
  }

  /**
   * Runs the next block's transactions; `sealed` then resolves once the block's roots are
   * computed and it is on the chain. With `sealLater`, sealing starts only on the next turn of
   * the event loop, so a caller can answer its client first: callers that pass it must run
   * inside `serialize`, which holds back the next operation until the block is sealed.
   */
  private async executeBlock(opts: MineOptions, sealLater: boolean): Promise<ExecutedBlock> {
    // A block still being sealed is the parent of this one.
    if (this.sealing !== undefined) await this.sealing;
    this.throwIfFaulted();
    const parent = this.head;
    const timestamp = opts.timestamp ?? this.nextBlockTimestamp();
    if (opts.timestamp !== undefined) this.timeOffset = Number(timestamp) - Math.floor(Date.now() / 1000);
    this.nextTimestamp = undefined;
    const baseFeePerGas = this.nextBlockBaseFee();
    this.nextBaseFee = undefined;
    const prevRandao = this.nextPrevRandao;
    this.nextPrevRandao = undefined;
    const headerData = {
      parentHash: parent.block.hash(),
      number: parent.number + 1n,
      timestamp,
      baseFeePerGas,
      gasLimit: this.options.blockGasLimit,
      coinbase: this.options.coinbase as `0x${string}`,
      difficulty: 0n,
      ...(this.common.isActivatedEIP(4788) ? { parentBeaconBlockRoot: ZERO32 } : {}),
      mixHash: prevRandao ?? ZERO32,
    };
    const candidates = opts.transactions ?? this.takePoolForBlock(baseFeePerGas);
    const outcome: BlockOutcome = { included: [], results: [], rejected: [] };
    const finish = (block: Block): BlockRecord => {
      const record = this.record(block, outcome.included, outcome.results, opts.atomic ?? []);
      this.chain.append(record);
      for (const listener of this.blockListeners) listener(record);
      return record;
    };
    if (!this.canAssembleBlocks) {
      const block = await this.buildWithBlockBuilder(parent.block, headerData, candidates, outcome);
      return { ...outcome, sealed: Promise.resolve(finish(block)) };
    }
    const run = await this.runBlockTransactions(parent.block, headerData, candidates, outcome);
    const seal = async () => finish(await this.sealBlock(run, outcome.included, outcome.results));
    if (!sealLater) return { ...outcome, sealed: seal() };
    const sealed = new Promise<void>((resolve) => setImmediate(resolve)).then(seal);
    this.sealing = sealed.then(
      () => undefined,
      (error: unknown) => {
        // Nothing in sealing is expected to fail; if it does, the block is lost, so stop here
        // instead of serving a chain that misses it.
        this.fault = error instanceof Error ? error : new Error(String(error));
        this.options.log(`internal error: block ${headerData.number} could not be sealed (${this.fault.message}); the simulator must be restarted`);
      },
    );
    return { ...outcome, sealed };
  }

  /** ethereumjs' BlockBuilder, for rule sets the lean path below does not know. */
  private async buildWithBlockBuilder(
    parentBlock: Block,
    headerData: HeaderData,
    candidates: PooledTransaction[],
    { included, results, rejected }: BlockOutcome,
  ): Promise<Block> {
    const builder = await buildBlock(this.vm, {
      parentBlock,
      headerData,
      withdrawals: [],
      blockOpts: { putBlockIntoBlockchain: false, setHardfork: false, common: this.common },
    });
    for (const pooled of candidates) {
      try {
        results.push(await this.withConsole(() => builder.addTransaction(pooled.tx, { skipHardForkValidation: true })));
        included.push(pooled);
      } catch (error) {
        rejected.push({ pooled, error: error instanceof Error ? error : new Error(String(error)) });
      }
    }
    return (await builder.build()).block;
  }

  /**
   * What BlockBuilder does for the Cancun and Shanghai rules (no PoW reward, no withdrawals,
   * no requests), step for step, without its per-transaction costs: one
   * header-only block serves every transaction (runTx reads only the header, and takes the gas
   * used so far as an option), the tries' roots are computed directly for one transaction, and
   * the final block is constructed once. This half runs the transactions; `sealBlock` computes
   * the roots and builds the block.
   */
  private async runBlockTransactions(
    parentBlock: Block,
    headerData: HeaderData,
    candidates: PooledTransaction[],
    { included, results, rejected }: BlockOutcome,
  ): Promise<BlockRun> {
    const common = this.common;
    const blockOpts = { setHardfork: false, common };
    const cancun = common.isActivatedEIP(4844);
    const header = cancun ? { ...headerData, excessBlobGas: parentBlock.header.calcNextExcessBlobGas(common) } : { ...headerData };
    const journal = this.vm.evm.journal;
    let checkpointed = false;
    if (common.isActivatedEIP(4788)) {
      await journal.checkpoint();
      checkpointed = true;
      await this.accumulateParentBeaconBlockRoot(header.parentBeaconBlockRoot ?? ZERO32, header.timestamp);
    }
    const runBlock = createBlock({ header: { ...header, gasUsed: 0n } }, blockOpts);
    let gasUsed = 0n;
    for (const pooled of candidates) {
      try {
        if (!checkpointed) {
          await journal.checkpoint();
          checkpointed = true;
        }
        if (pooled.tx.gasLimit > header.gasLimit - gasUsed) {
          throw new Error("tx has a higher gas limit than the remaining gas in the block");
        }
        const blockGasUsed = gasUsed;
        const result = await this.withConsole(() =>
          runTx(this.vm, { tx: pooled.tx, block: runBlock, skipHardForkValidation: true, blockGasUsed }),
        );
        results.push(result);
        gasUsed += result.blockGasSpent;
        included.push(pooled);
      } catch (error) {
        rejected.push({ pooled, error: error instanceof Error ? error : new Error(String(error)) });
      }
    }
    return { header, gasUsed, checkpointed, cancun };
  }

  /** The second half of the lean block assembly: roots, bloom, header, and the journal's commit. */
  private async sealBlock(run: BlockRun, included: PooledTransaction[], results: RunTxResult[]): Promise<Block> {
    const { header, gasUsed, checkpointed, cancun } = run;
    const common = this.common;
    const blockOpts = { setHardfork: false, common };
    const journal = this.vm.evm.journal;
    const transactions = included.map((pooled) => pooled.tx);
    const transactionsTrie = await orderedTrieRoot(
      included.map((pooled) => pooled.serialized ?? pooled.tx.serialize()),
      common,
    );
    const receiptTrie = await orderedTrieRoot(
      results.map((result, i) => encodeReceipt(result.receipt, transactions[i]!.type)),
      common,
    );
    const bloom = new Bloom(undefined, common);
    for (const result of results) bloom.or(result.bloom);
    // Committing the block's checkpoint first writes the state to the tries directly, instead of
    // through a checkpoint layer that would copy every node it touched once more on commit.
    if (checkpointed) await journal.commit();
    const stateRoot = await this.vm.stateManager.getStateRoot();
    // As createBlock, but with the transactions as they are (createBlock rebuilds each one).
    const block = new Block(
      createBlockHeader(
        {
          ...header,
          stateRoot,
          transactionsTrie,
          withdrawalsRoot: KECCAK256_RLP,
          receiptTrie,
          logsBloom: bloom.bitvector,
          gasUsed,
          blobGasUsed: cancun ? 0n : undefined,
        },
        blockOpts,
      ),
      transactions,
      [],
      [],
      blockOpts,
    );
    return block;
  }

  /** EIP-4788 as ethereumjs applies it: a no-op unless the beacon roots contract has code. */
  private async accumulateParentBeaconBlockRoot(root: Uint8Array, timestamp: bigint): Promise<void> {
    const state = this.vm.stateManager;
    if ((await state.getCode(BEACON_ROOTS_ADDRESS)).length === 0) return;
    const historicalRootsLength = BigInt(this.common.param("historicalRootsLength"));
    const timestampIndex = timestamp % historicalRootsLength;
    const timestampExtended = timestampIndex + historicalRootsLength;
    await state.putStorage(BEACON_ROOTS_ADDRESS, setLengthLeft(bigIntToBytes(timestampIndex), 32), bigIntToBytes(timestamp));
    await state.putStorage(BEACON_ROOTS_ADDRESS, setLengthLeft(bigIntToBytes(timestampExtended), 32), root);
    await this.vm.evm.journal.cleanup();
  }

  /**
   * Accepts an atomic transaction in a block of its own: its state transfer is applied first
   * (all or nothing), then the block is mined, as the contract chain includes atomic
   * transactions in its blocks.
   */
  async mineAtomic(operation: AtomicOperation): Promise<BlockRecord> {
    await this.stateManager.checkpoint();
    try {
      await operation.apply(this.stateManager);
      await this.stateManager.commit();
    } catch (error) {
      await this.stateManager.revert();
      throw error;
    }
    const { record } = await this.mineBlock({ transactions: [], atomic: [operation] });
    return record;
  }

  headTimestamp(): bigint {
    return this.head.block.header.timestamp;
  }

  get currentState(): AtomicStateReader {
    return this.stateManager;
  }

  blockAt(height: bigint): BlockRecord | undefined {
    return this.chain.byNumberOrUndefined(height);
  }

  get deprecatedPrecompiles(): boolean {
    return this.options.deprecatedPrecompiles;
  }

  /** The block that accepted an atomic transaction, if any. */
  atomicTransactionBlock(id: string): BlockRecord | undefined {
    for (let n = this.chain.height; n >= 0n; n--) {
      const record = this.chain.byNumberOrUndefined(n)!;
      if (record.atomicTransactions.includes(id)) return record;
    }
    return undefined;
  }

  private record(block: Block, included: PooledTransaction[], results: RunTxResult[], atomic: AtomicOperation[] = []): BlockRecord {
    const hash = bytesToHex(block.hash());
    const transactions: MinedTransaction[] = [];
    const record: BlockRecord = {
      block,
      hash,
      number: block.header.number,
      transactions,
      multiCoin: this.stateManager.multiCoin.snapshot(),
      atomicTransactions: atomic.map((a) => a.id),
      atomicGasUsed: atomic.reduce((sum, a) => sum + a.gasUsed, 0n),
    };
    const baseFee = block.header.baseFeePerGas ?? 0n;
    let logIndex = 0;
    for (let i = 0; i < included.length; i++) {
      const pooled = included[i]!;
      const result = results[i]!;
      const logs: LogRecord[] = (result.execResult.logs ?? []).map(([address, topics, data]) => ({
        address,
        topics,
        data,
        logIndex: logIndex++,
        transactionIndex: i,
        transactionHash: pooled.hash,
        blockHash: hash,
        blockNumber: block.header.number,
      }));
      const error = result.execResult.exceptionError;
      const receipt: ReceiptRecord = {
        status: error === undefined ? 1 : 0,
        gasUsed: result.totalGasSpent,
        cumulativeGasUsed: result.receipt.cumulativeBlockGasUsed,
        effectiveGasPrice: effectiveGasPrice(pooled.tx, baseFee),
        logs,
        logsBloom: result.bloom.bitvector,
        contractAddress: result.createdAddress,
        returnData: result.execResult.returnValue,
        error: error === undefined ? undefined : failureMessage(error.error, result.execResult.returnValue),
        evmError: error?.error,
      };
      transactions.push({ tx: pooled.tx, hash: pooled.hash, from: pooled.from, index: i, block: record, receipt });
    }
    return record;
  }

  // ---------------------------------------------------------------- transactions

  /** Builds and signs (or impersonates) a transaction from a request, filling defaults like a node. */
  async prepareTransaction(request: TransactionRequest): Promise<PooledTransaction> {
    const from = request.from;
    if (from === undefined) throw new RpcError(RpcErrorCode.InvalidParams, "eth_sendTransaction needs a `from` address");
    const fromHex = from.toString();
    const key = this.unlocked.get(fromHex);
    if (key === undefined && !this.impersonated.has(fromHex)) {
      throw new RpcError(
        RpcErrorCode.ServerError,
        `unknown account ${fromHex}: eth_sendTransaction signs only for the node's unlocked accounts (see eth_accounts); sign it yourself and use eth_sendRawTransaction`,
      );
    }
    const nonce = request.nonce ?? (await this.pendingNonce(from));
    const gasLimit = request.gas ?? (await this.estimateGas({ ...request, nonce }, "pending"));
    const data: TypedTxData = {
      nonce,
      gasLimit,
      to: request.to,
      value: request.value ?? 0n,
      data: request.data ?? new Uint8Array(0),
      accessList: request.accessList,
      chainId: BigInt(this.options.chainId),
    } as TypedTxData;
    const wantsLegacy = request.gasPrice !== undefined || request.type === 0 || request.type === 1;
    if (wantsLegacy) {
      Object.assign(data, {
        type: request.type === 1 || (request.type === undefined && request.accessList !== undefined) ? TransactionType.AccessListEIP2930 : TransactionType.Legacy,
        gasPrice: request.gasPrice ?? this.nextBlockBaseFee(),
      });
    } else {
      const maxPriorityFeePerGas = request.maxPriorityFeePerGas ?? 0n;
      Object.assign(data, {
        type: TransactionType.FeeMarketEIP1559,
        maxPriorityFeePerGas,
        maxFeePerGas: request.maxFeePerGas ?? this.nextBlockBaseFee() * 2n + maxPriorityFeePerGas,
      });
    }
    if (key !== undefined) {
      // Deterministic (RFC 6979) signatures, as other devnets make them: the same request gives the same hash.
      const tx = createTx(data, { common: this.common }).sign(key.privateKey, false);
      // We know the signer: spare the EVM a signature recovery per transaction.
      tx.cache.senderPubKey = key.publicKey;
      // The hash is that of the serialization, which the block's transactions trie needs too.
      const serialized = tx.serialize();
      tx.cache.hash ??= keccak256(serialized);
      return { tx, from, hash: bytesToHex(tx.hash()), serialized };
    }
    return this.impersonatedTransaction(data, from);
  }

  /** An impersonated sender has no key: a placeholder signature keeps the hash defined. */
  private impersonatedTransaction(data: TypedTxData, from: Address): PooledTransaction {
    const fake = { ...data, v: data.type === TransactionType.Legacy ? BigInt(this.options.chainId) * 2n + 35n : 1n, r: 1n, s: BigInt("0x" + bytesToUnprefixedHex(from.bytes)) || 1n } as TypedTxData;
    const tx = createTx(fake, { common: this.common, freeze: false });
    tx.getSenderAddress = () => from;
    return { tx, from, hash: bytesToHex(tx.hash()) };
  }

  /** Decodes and checks a signed transaction; throws RpcError naming the rule it breaks. */
  async decodeRawTransaction(raw: Uint8Array): Promise<PooledTransaction> {
    const declaredChainId = rawTransactionChainId(raw);
    if (declaredChainId !== undefined && declaredChainId !== BigInt(this.options.chainId)) {
      throw new RpcError(RpcErrorCode.InvalidParams, `invalid chain id ${declaredChainId} for this node: expected ${this.options.chainId}`);
    }
    let tx: TypedTransaction;
    try {
      tx = createTxFromRLP(raw, { common: this.common });
    } catch (error) {
      throw new RpcError(RpcErrorCode.InvalidParams, `invalid raw transaction: ${(error as Error).message.split(" (")[0]}`);
    }
    if (tx.type === TransactionType.BlobEIP4844 || tx.type === TransactionType.EOACodeEIP7702) {
      throw new RpcError(RpcErrorCode.InvalidParams, `transaction type ${tx.type} is not supported by the contract chain`);
    }
    let from: Address;
    try {
      from = tx.getSenderAddress();
    } catch {
      throw new RpcError(RpcErrorCode.InvalidParams, "invalid transaction signature: the sender cannot be recovered");
    }
    if (tx.type === TransactionType.Legacy && !tx.isSigned()) {
      throw new RpcError(RpcErrorCode.InvalidParams, "the transaction is not signed");
    }
    const txChainId = tx.type === TransactionType.Legacy ? legacyChainId(tx.v!) : tx.common.chainId();
    if (txChainId !== undefined && txChainId !== BigInt(this.options.chainId)) {
      throw new RpcError(RpcErrorCode.InvalidParams, `invalid chain id ${txChainId} for this node: expected ${this.options.chainId}`);
    }
    return { tx, from, hash: bytesToHex(tx.hash()) };
  }

  /** Validates a transaction against current state, like a node's pool does on arrival. */
  async validateForPool(pooled: PooledTransaction): Promise<void> {
    const { tx, from } = pooled;
    if (this.pool.some((p) => p.hash === pooled.hash)) {
      throw new RpcError(RpcErrorCode.ServerError, `transaction ${pooled.hash} is already known`);
    }
    const account = (await this.stateManager.getAccount(from)) ?? new Account();
    if (tx.nonce < account.nonce) {
      throw new RpcError(RpcErrorCode.ServerError, `nonce too low: address ${from.toString()}, next nonce ${account.nonce}, transaction nonce ${tx.nonce}`);
    }
    const intrinsic = tx.getIntrinsicGas();
    if (tx.gasLimit < intrinsic) {
      throw new RpcError(RpcErrorCode.ServerError, `intrinsic gas too low: gas limit ${tx.gasLimit}, needed at least ${intrinsic}`);
    }
    if (tx.gasLimit > this.options.blockGasLimit) {
      throw new RpcError(RpcErrorCode.ServerError, `gas limit ${tx.gasLimit} exceeds the block gas limit ${this.options.blockGasLimit}`);
    }
    const maxFee = "maxFeePerGas" in tx ? (tx.maxFeePerGas as bigint) : (tx as unknown as { gasPrice: bigint }).gasPrice;
    const cost = tx.gasLimit * maxFee + tx.value;
    if (account.balance < cost) {
      throw new RpcError(
        RpcErrorCode.ServerError,
        `insufficient funds for gas * price + value: address ${from.toString()} has ${account.balance} wei, needs ${cost} wei`,
      );
    }
    if (this.automine) {
      const baseFee = this.nextBlockBaseFee();
      if (maxFee < baseFee) {
        throw new RpcError(RpcErrorCode.ServerError, `max fee per gas ${maxFee} is below the next block's base fee ${baseFee}`);
      }
      const expected = this.nonceAfterPool(from, account.nonce);
      if (tx.nonce > expected) {
        throw new RpcError(
          RpcErrorCode.ServerError,
          `nonce too high: expected ${expected} for ${from.toString()}, got ${tx.nonce}; transactions cannot be queued while automine is on`,
        );
      }
    }
  }

  /**
   * Accepts a transaction: mines it at once with automine, else pools it. Returns its hash once
   * it has run. With `sealLater` (only inside `serialize`), its block is sealed after the
   * caller answered: the outcome is known once the transaction has run, and the next operation
   * waits for the seal anyway.
   */
  async submit(pooled: PooledTransaction, opts: { sealLater?: boolean } = {}): Promise<string> {
    await this.validateForPool(pooled);
    if (!this.automine) {
      this.pool.push(pooled);
      return pooled.hash;
    }
    const executed = await this.executeBlock({ transactions: [pooled] }, opts.sealLater === true);
    if (opts.sealLater !== true) await executed.sealed;
    if (executed.rejected.length > 0) {
      throw new RpcError(RpcErrorCode.ServerError, `transaction rejected: ${cleanVmMessage(executed.rejected[0]!.error.message)}`);
    }
    const { execResult } = executed.results[0]!;
    const error = execResult.exceptionError;
    if (this.options.throwOnTransactionFailures && error !== undefined) {
      throw revertError(error.error, execResult.returnValue, pooled.hash);
    }
    return pooled.hash;
  }

  /** The pool's transactions for the next block: per sender in nonce order, best fee first. */
  private takePoolForBlock(baseFee: bigint): PooledTransaction[] {
    const chosen: PooledTransaction[] = [];
    const remaining: PooledTransaction[] = [];
    let gas = 0n;
    const sorted = [...this.pool].sort((a, b) => {
      if (a.from.equals(b.from)) return a.tx.nonce < b.tx.nonce ? -1 : 1;
      const fa = a.tx.getEffectivePriorityFee(baseFee);
      const fb = b.tx.getEffectivePriorityFee(baseFee);
      return fa === fb ? 0 : fa > fb ? -1 : 1;
    });
    for (const pooled of sorted) {
      if (gas + pooled.tx.gasLimit <= this.options.blockGasLimit) {
        chosen.push(pooled);
        gas += pooled.tx.gasLimit;
      } else remaining.push(pooled);
    }
    this.pool = remaining;
    return chosen;
  }

  get pendingTransactions(): readonly PooledTransaction[] {
    return this.pool;
  }

  dropPendingTransaction(hash: string): boolean {
    const before = this.pool.length;
    this.pool = this.pool.filter((p) => p.hash !== hash.toLowerCase());
    return this.pool.length !== before;
  }

  async pendingNonce(address: Address): Promise<bigint> {
    const account = await this.stateManager.getAccount(address);
    return this.nonceAfterPool(address, account?.nonce ?? 0n);
  }

  /** The next nonce of `address` after its pooled transactions, from its state nonce. */
  private nonceAfterPool(address: Address, stateNonce: bigint): bigint {
    let nonce = stateNonce;
    for (const pooled of this.pool) if (pooled.from.equals(address) && pooled.tx.nonce === nonce) nonce++;
    return nonce;
  }

  // ---------------------------------------------------------------- state reads

  /** The state as of a block: the live state for the head, a read-only view for older blocks. */
  stateAt(record: BlockRecord): NativeStateManager {
    if (record === this.head) return this.stateManager;
    return this.stateManager.viewAt(record.block.header.stateRoot, record.multiCoin);
  }

  async getAccount(address: Address, record: BlockRecord): Promise<Account> {
    return (await this.stateAt(record).getAccount(address)) ?? new Account();
  }

  async getCode(address: Address, record: BlockRecord): Promise<Uint8Array> {
    return this.stateAt(record).getCode(address);
  }

  async getStorageAt(address: Address, slot: Uint8Array, record: BlockRecord): Promise<Uint8Array> {
    const value = await this.stateAt(record).getStorage(address, setLengthLeft(slot, 32));
    return setLengthLeft(value, 32);
  }

  getAssetBalance(address: Address, assetIdHex64: string, record: BlockRecord): bigint {
    if (record === this.head) return this.stateManager.getAssetBalance(address, assetIdHex64);
    return record.multiCoin.balances.get(bytesToUnprefixedHex(address.bytes) + assetIdHex64) ?? 0n;
  }

  // ---------------------------------------------------------------- calls and estimates

  /** Runs a call against the state of a block without keeping any change. */
  async call(request: TransactionRequest, selector: BlockSelector): Promise<CallOutcome> {
    const record = this.resolveBlock(selector);
    const gas = request.gas ?? this.options.blockGasLimit;
    return this.withConsole(() => this.execute(request, record, gas));
  }

  private async execute(request: TransactionRequest, record: BlockRecord, gas: bigint): Promise<CallOutcome> {
    const isHead = record === this.head;
    const state = this.stateAt(record);
    const vm = isHead ? this.vm : await this.makeVm(state);
    const from = request.from ?? createZeroAddress();
    const account = (await state.getAccount(from)) ?? new Account();
    const value = request.value ?? 0n;
    if (account.balance < value) {
      throw new RpcError(
        RpcErrorCode.ServerError,
        `insufficient funds for transfer: address ${from.toString()} has ${account.balance} wei, the call sends ${value}`,
      );
    }
    const gasPrice = request.gasPrice ?? request.maxFeePerGas ?? 0n;
    // Like geth, a call that names no fee runs at base fee 0, so it needs no balance for gas.
    const baseFee = gasPrice === 0n ? 0n : this.nextBlockBaseFee();
    const header = record.block.header;
    const block = createBlock(
      {
        header: {
          number: isHead ? header.number + 1n : header.number,
          timestamp: isHead ? this.nextBlockTimestamp() : header.timestamp,
          gasLimit: header.gasLimit > gas ? header.gasLimit : gas,
          baseFeePerGas: baseFee,
          coinbase: header.coinbase,
          parentHash: isHead ? record.block.hash() : header.parentHash,
          difficulty: 0n,
          ...this.cancunHeaderFields(),
          withdrawalsRoot: KECCAK256_RLP,
        },
        withdrawals: [],
      },
      { common: this.common, setHardfork: false },
    );
    const data: TypedTxData = {
      // An access list changes the intrinsic gas, so a call that has one runs as type 1.
      type: request.accessList === undefined ? TransactionType.Legacy : TransactionType.AccessListEIP2930,
      nonce: request.nonce ?? account.nonce,
      gasLimit: gas,
      gasPrice,
      to: request.to,
      value,
      data: request.data ?? new Uint8Array(0),
      accessList: request.accessList,
    } as TypedTxData;
    const tx = createTx(data, { common: this.common, freeze: false });
    tx.getSenderAddress = () => from;
    await state.checkpoint();
    try {
      const result = await runTx(vm, { tx, block, skipNonce: true, skipBalance: gasPrice === 0n, skipHardForkValidation: true, skipBlockGasLimitValidation: true });
      return outcomeOf(result);
    } catch (error) {
      throw new RpcError(RpcErrorCode.ServerError, cleanVmMessage((error as Error).message));
    } finally {
      await state.revert();
    }
  }

  /**
   * Smallest gas limit with which the transaction succeeds, found like geth does: run it with
   * the block gas limit, then binary search between what it used and that limit.
   */
  async estimateGas(request: TransactionRequest, selector: BlockSelector): Promise<bigint> {
    const record = this.resolveBlock(selector);
    const state = this.stateAt(record);
    // A plain transfer to an account without code costs exactly 21000 (geth answers it at once).
    const hasData = request.data !== undefined && request.data.length > 0;
    if (!hasData && request.to !== undefined && request.accessList === undefined && !isPrecompileAddress(request.to.bytes)) {
      if ((await state.getCode(request.to)).length === 0) {
        await this.execute({ ...request, gas: 21_000n }, record, 21_000n).then((o) => {
          if (o.error !== undefined) throw revertError(o.error, o.returnValue);
        });
        return 21_000n;
      }
    }
    let cap = request.gas ?? this.options.blockGasLimit;
    // With a fee cap, the search cannot go above what the sender can pay for (geth's allowance).
    const feeCap = request.gasPrice ?? request.maxFeePerGas ?? 0n;
    if (feeCap > 0n) {
      const from = request.from ?? createZeroAddress();
      const balance = ((await state.getAccount(from)) ?? new Account()).balance;
      const available = balance - (request.value ?? 0n);
      if (available < 0n) {
        throw new RpcError(RpcErrorCode.ServerError, `insufficient funds for transfer: ${from.toString()} has ${balance} wei, the transaction sends ${request.value}`);
      }
      const allowance = available / feeCap;
      if (allowance < cap) cap = allowance;
    }
    const first = await this.execute(request, record, cap);
    if (first.error !== undefined) {
      if (first.error === "out of gas" && cap < this.options.blockGasLimit && request.gas === undefined) {
        throw new RpcError(RpcErrorCode.ServerError, `gas required exceeds allowance (${cap}): the sender cannot pay for more gas at this fee`);
      }
      throw revertError(first.error, first.returnValue);
    }
    let lo = first.gasUsed - 1n;
    let hi = cap;
    // Most transactions succeed with what they used plus the 1/64 EIP-150 retention: try that first.
    const optimistic = ((first.gasUsed + 2300n) * 64n) / 63n;
    if (optimistic < hi) {
      const attempt = await this.execute(request, record, optimistic);
      if (attempt.error === undefined) hi = optimistic;
      else lo = optimistic;
    }
    while (lo + 1n < hi) {
      // Stop when within 1.5% of the answer: the remaining steps buy nothing a user notices.
      if ((hi - lo) * 1000n < hi * 15n) break;
      const mid = (lo + hi) / 2n;
      const attempt = await this.execute(request, record, mid);
      if (attempt.error === undefined) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  // ---------------------------------------------------------------- logs

  getLogs(filter: LogFilter): LogRecord[] {
    const out: LogRecord[] = [];
    for (const record of this.chain.range(filter.fromBlock, filter.toBlock)) {
      for (const mined of record.transactions) {
        for (const log of mined.receipt.logs) if (logMatches(log, filter)) out.push(log);
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- test-only powers

  async setAssetBalance(address: Address, assetIdHex64: string, amount: bigint): Promise<void> {
    await this.stateManager.setAssetBalance(address, assetIdHex64, amount);
    await this.commitDirectEdit();
  }

  async setBalance(address: Address, balance: bigint): Promise<void> {
    const account = (await this.stateManager.getAccount(address)) ?? new Account();
    account.balance = balance;
    await this.stateManager.putAccount(address, account);
    await this.commitDirectEdit();
  }

  async setNonce(address: Address, nonce: bigint): Promise<void> {
    const account = (await this.stateManager.getAccount(address)) ?? new Account();
    account.nonce = nonce;
    await this.stateManager.putAccount(address, account);
    await this.commitDirectEdit();
  }

  async setCode(address: Address, code: Uint8Array): Promise<void> {
    if ((await this.stateManager.getAccount(address)) === undefined) await this.stateManager.putAccount(address, new Account());
    await this.stateManager.putCode(address, code);
    await this.commitDirectEdit();
  }

  async setStorageAt(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    if ((await this.stateManager.getAccount(address)) === undefined) await this.stateManager.putAccount(address, new Account());
    await this.stateManager.putStorage(address, setLengthLeft(slot, 32), stripZeros(value));
    await this.commitDirectEdit();
  }

  /**
   * A direct state edit (test-only methods) applies to the head block's state, as on Hardhat's
   * network: reads at "latest" see it at once, and the next block builds on it.
   */
  private async commitDirectEdit(): Promise<void> {
    await this.stateManager.flush();
    const head = this.chain.head as { -readonly [K in keyof BlockRecord]: BlockRecord[K] };
    head.multiCoin = this.stateManager.multiCoin.snapshot();
  }

  async snapshot(): Promise<number> {
    const id = this.nextSnapshotId++;
    this.snapshots.set(id, {
      height: this.chain.height,
      stateRoot: await this.stateManager.getStateRoot(),
      multiCoin: this.stateManager.multiCoin.snapshot(),
      timeOffset: this.timeOffset,
      nextTimestamp: this.nextTimestamp,
      pending: this.pool.map((p) => p.tx),
      nextBaseFee: this.nextBaseFee,
      companions: this.companions.map(({ companion }) => companion.capture()),
    });
    return id;
  }

  /** Returns to a snapshot; it and every later snapshot are consumed (Hardhat semantics). */
  async revertTo(id: number): Promise<boolean> {
    const snapshot = this.snapshots.get(id);
    if (snapshot === undefined) return false;
    for (const key of [...this.snapshots.keys()]) if (key >= id) this.snapshots.delete(key);
    this.chain.truncate(snapshot.height);
    await this.stateManager.setStateRoot(snapshot.stateRoot);
    this.stateManager.multiCoin.restore(snapshot.multiCoin);
    const head = this.chain.head as { -readonly [K in keyof BlockRecord]: BlockRecord[K] };
    head.multiCoin = snapshot.multiCoin;
    this.timeOffset = snapshot.timeOffset;
    this.nextTimestamp = snapshot.nextTimestamp;
    this.nextBaseFee = snapshot.nextBaseFee;
    this.pool = this.pool.filter((p) => snapshot.pending.includes(p.tx));
    for (const restore of snapshot.companions) restore();
    return true;
  }
}

/**
 * Two lookups ethereumjs repeats on its Common, made cheap on our own instance.
 *
 * ethereumjs merges its parameter tables into the Common again for every transaction and block
 * header it constructs (a deep JSON copy each time); they never change here, so merge them once
 * and make later merges of the same tables free. The override is an own property without
 * binding, so the shallow copies block headers make of the Common keep it and act on themselves.
 */
export function withCheapLookups(common: Common): Common {
  const tables = [paramsTx, paramsBlock, paramsEVM, paramsVM];
  for (const params of tables) common.updateParams(params);
  const merged = new Set<object>(tables);
  const original = Object.getPrototypeOf(common).updateParams as Common["updateParams"];
  common.updateParams = function (this: Common, params) {
    if (!merged.has(params)) original.call(this, params);
  };
  // The interpreter asks isActivatedEIP several times per opcode, and ethereumjs answers with
  // a linear search of the active EIP list; a set per list answers the same in constant time.
  // The list is replaced (never changed in place) when the hardfork or EIPs change.
  const setOf = new WeakMap<readonly number[], Set<number>>();
  let lastList: readonly number[] | undefined;
  let lastSet = new Set<number>();
  const originalIsActivated = Object.getPrototypeOf(common).isActivatedEIP as Common["isActivatedEIP"];
  common.isActivatedEIP = function (this: Common, eip: number): boolean {
    const list = (this as unknown as { _activatedEIPsCache?: readonly number[] })._activatedEIPsCache;
    // Should a later ethereumjs keep the list elsewhere, ask it the slow way rather than guess.
    if (!Array.isArray(list)) return originalIsActivated.call(this, eip);
    if (list !== lastList) {
      let set = setOf.get(list);
      if (set === undefined) {
        set = new Set(list);
        setOf.set(list, set);
      }
      lastList = list;
      lastSet = set;
    }
    return lastSet.has(eip);
  };
  return common;
}

function outcomeOf(result: EVMResult & { totalGasSpent?: bigint }): CallOutcome {
  const error = result.execResult.exceptionError;
  return {
    returnValue: result.execResult.returnValue,
    gasUsed: (result as RunTxResult).totalGasSpent ?? result.execResult.executionGasUsed,
    error: error?.error,
    reverted: error?.error === "revert",
  };
}

function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint): bigint {
  if ("maxFeePerGas" in tx) {
    const maxFee = tx.maxFeePerGas as bigint;
    const tip = tx.maxPriorityFeePerGas as bigint;
    return baseFee + tip < maxFee ? baseFee + tip : maxFee;
  }
  return (tx as unknown as { gasPrice: bigint }).gasPrice;
}

/**
 * The chain ID a raw transaction declares, read before full decoding so that a transaction for
 * another chain gets a clear error: typed transactions carry it as their first field, legacy
 * EIP-155 ones fold it into v. Undefined when absent or unreadable (decoding reports those).
 */
function rawTransactionChainId(raw: Uint8Array): bigint | undefined {
  try {
    if (raw.length > 0 && raw[0]! <= 0x7f) {
      const fields = RLP.decode(raw.subarray(1)) as Uint8Array[];
      return bytesToBigInt(fields[0]!);
    }
    const fields = RLP.decode(raw) as Uint8Array[];
    if (fields.length !== 9) return undefined;
    return legacyChainId(bytesToBigInt(fields[6]!));
  } catch {
    return undefined;
  }
}

/** Standard precompiles (0x01–0x11) and the three native ones at 0x0100…00–02. */
function isPrecompileAddress(bytes: Uint8Array): boolean {
  for (let i = 1; i < 19; i++) if (bytes[i] !== 0) return false;
  if (bytes[0] === 0) return bytes[19]! >= 1 && bytes[19]! <= 0x11;
  return bytes[0] === 1 && bytes[19]! <= 2;
}

function legacyChainId(v: bigint): bigint | undefined {
  if (v === 27n || v === 28n) return undefined;
  return (v - 35n) / 2n;
}

function logMatches(log: LogRecord, filter: LogFilter): boolean {
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => bytesEqual(a, log.address))) return false;
  for (let i = 0; i < filter.topics.length; i++) {
    const wanted = filter.topics[i];
    if (wanted === undefined || wanted.length === 0) continue;
    const topic = log.topics[i];
    if (topic === undefined || !wanted.some((t) => bytesEqual(t, topic))) return false;
  }
  return true;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function stripZeros(value: Uint8Array): Uint8Array {
  let i = 0;
  while (i < value.length && value[i] === 0) i++;
  return value.subarray(i);
}

export function parseAddress(text: string): Address {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw new RpcError(RpcErrorCode.InvalidParams, `invalid address ${JSON.stringify(text)}: expected 0x followed by 40 hex digits`);
  return createAddressFromString(text);
}

/** ethereumjs messages end with a dump of the block or tx; people need the first sentence. */
export function cleanVmMessage(message: string): string {
  // ethereumjs appends "(vm hf=… -> block number=… -> tx type=…)" or "(tx type=…)" to its messages.
  return message.replace(/ \(vm hf=.*$/s, "").replace(/ \(block number=.*$/s, "").replace(/ \(tx type=.*$/s, "");
}

