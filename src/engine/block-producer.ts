/**
 * Block production: runs a block's transactions on the head state, seals the block (roots,
 * bloom, header) and appends its record to the chain. Most blocks go through the engine's own
 * lean assembly; rule sets it does not cover go through ethereumjs' BlockBuilder. A block may be
 * sealed after its operation has answered (see `executeBlock` and `EngineLock.sealAfterAnswer`).
 */
import { Block, createBlock, createBlockHeader } from "@ethereumjs/block";
import { ConsensusType } from "@ethereumjs/common";
import type { TypedTransaction } from "@ethereumjs/tx";
import { bigIntToBytes, bytesToHex, createAddressFromString, hexToBytes, KECCAK256_RLP, setLengthLeft } from "@ethereumjs/util";
import { Bloom, buildBlock, encodeReceipt, runTx, type RunTxResult } from "@ethereumjs/vm";
import type { AtomicOperation } from "./atomic-host";
import { orderedTrieRoot } from "./block-roots";
import type { BlockTime, HeaderData } from "./block-time";
import { emptyBlockRecord, type BlockRecord, type LogRecord, type MinedTransaction, type ReceiptRecord } from "./chain";
import type { ChainState } from "./chain-state";
import { cancunHeaderFields, engineBlockOptions, nextExcessBlobGas, ZERO32 } from "./common";
import type { EngineLock, LockHeld } from "./engine-lock";
import { SimulatorFaultError } from "./errors";
import type { ForkPoint } from "./fork/fork-source";
import type { ResolvedEngineOptions } from "./options";
import type { TransactionPool } from "./pool";
import { failureMessage } from "./revert";
import type { PooledTransaction } from "./types";
import type { ChainPersistence } from "./persistence/chain-persistence";

const BEACON_ROOTS_ADDRESS = createAddressFromString("0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02");

/** Rules with block-level effects the lean block assembly does not apply (Prague and later). */
const LEAN_PATH_UNKNOWN_EIPS = [2935, 7002, 7251, 7594, 7685, 7843, 7928, 8037];

export interface MineOptions {
  timestamp?: bigint;
  /** The block's transactions; absent, the pool's. */
  transactions?: PooledTransaction[];
  atomic?: AtomicOperation[];
}

/** A transaction left out of a block, with the reason. */
export interface RejectedTransaction {
  pooled: PooledTransaction;
  error: Error;
}

/** What running a block's candidate transactions gave, filled in as they run. */
interface BlockOutcome {
  /** The transactions that ran, in order, with their results. */
  included: PooledTransaction[];
  results: RunTxResult[];
  /** The transactions left out, with the reason. */
  rejected: RejectedTransaction[];
}

/** A block whose transactions have run. */
export interface ExecutedBlock extends BlockOutcome {
  /** The block's record, once its roots are computed and it is on the chain. */
  sealed: Promise<BlockRecord>;
  /** Whether the block is sealed after its operation answered (the engine's lock holds the next one back until then). */
  sealedAfterAnswer: boolean;
}

/** What sealing needs from running a block's transactions. */
interface BlockRun {
  header: HeaderData & { excessBlobGas?: bigint };
  gasUsed: bigint;
  checkpointed: boolean;
  cancun: boolean;
}

export class BlockProducer {
  /** Whether `runBlockTransactions` covers the active rules (else blocks go through BlockBuilder). */
  private readonly canAssembleBlocks: boolean;
  private readonly blockListeners = new Set<(record: BlockRecord) => void>();

  constructor(
    private readonly state: ChainState,
    private readonly settings: Readonly<ResolvedEngineOptions>,
    private readonly time: BlockTime,
    private readonly pool: TransactionPool,
    /** Seals blocks after their operation answered, and stops the engine when a block is lost. */
    private readonly lock: EngineLock,
    /** With a durable store, each block is committed to it before its transactions are answered. */
    private readonly persistence?: ChainPersistence,
  ) {
    const common = state.common;
    this.canAssembleBlocks =
      common.consensusType() === ConsensusType.ProofOfStake && !LEAN_PATH_UNKNOWN_EIPS.some((eip) => common.isActivatedEIP(eip));
  }

  private announce(record: BlockRecord): BlockRecord {
    for (const listener of this.blockListeners) listener(record);
    return record;
  }

  /** Calls `listener` with every block appended from now on (once durable, with a store); returns the function that stops it. */
  onBlock(listener: (record: BlockRecord) => void): () => void {
    this.blockListeners.add(listener);
    return () => this.blockListeners.delete(listener);
  }

  /** The first block, on the state as the options set it up. */
  async appendGenesis(timestamp: number): Promise<void> {
    const genesis = await this.firstBlock({ number: 0n, timestamp: BigInt(timestamp), baseFeePerGas: this.settings.minBaseFeePerGas }, true);
    const record = this.record(genesis, [], []);
    this.state.chain.append(record);
    // With a store, the genesis block is committed before anything is answered on it; like
    // the reference node's, it is never announced as accepted.
    await this.accept(record, false);
  }

  /**
   * A fork's first block: the remote's fork block as far as the next block needs it (number,
   * time, base fee, and its hash as the remote gives it: this chain's headers are not
   * Ethereum's, so it is never recomputed), on the local state that reads through to the remote.
   */
  async appendForkPoint(point: ForkPoint): Promise<void> {
    const { minBaseFeePerGas } = this.settings;
    const baseFeePerGas = point.baseFeePerGas > minBaseFeePerGas ? point.baseFeePerGas : minBaseFeePerGas;
    // Not frozen: its hash is set below.
    const block = await this.firstBlock({ number: point.number, timestamp: point.timestamp, baseFeePerGas }, false);
    const hash = hexToBytes(point.hash as `0x${string}`);
    block.hash = () => hash;
    block.header.hash = () => hash;
    this.state.chain.append(this.record(block, [], []));
  }

  /** A block without transactions or parent on the current state: a chain's first. */
  private async firstBlock(fields: { number: bigint; timestamp: bigint; baseFeePerGas: bigint }, freeze: boolean): Promise<Block> {
    const common = this.state.common;
    return createBlock(
      {
        header: {
          ...fields,
          gasLimit: this.settings.blockGasLimit,
          stateRoot: await this.state.stateManager.getStateRoot(),
          coinbase: this.settings.coinbase as `0x${string}`,
          difficulty: 0n,
          ...cancunHeaderFields(common),
          blobGasUsed: common.isActivatedEIP(4844) ? 0n : undefined,
          withdrawalsRoot: KECCAK256_RLP,
        },
        withdrawals: [],
      },
      { common, setHardfork: false, freeze },
    );
  }

  /**
   * Mines one block with the given transactions (or the pool's), at an optional timestamp.
   * Invalid transactions are left out and reported; the rest are mined in order.
   */
  async mineBlock(opts: MineOptions = {}): Promise<{ record: BlockRecord; rejected: RejectedTransaction[] }> {
    const executed = await this.executeBlock(opts);
    return { record: await executed.sealed, rejected: executed.rejected };
  }

  /**
   * Accepts an atomic transaction in a block of its own: its state transfer is applied first
   * (all or nothing), then the block is mined, as the contract chain includes atomic
   * transactions in its blocks.
   */
  async mineAtomic(operation: AtomicOperation): Promise<BlockRecord> {
    const stateManager = this.state.stateManager;
    await stateManager.checkpoint();
    try {
      await operation.apply(stateManager);
      await stateManager.commit();
    } catch (error) {
      await stateManager.revert();
      throw error;
    }
    const { record } = await this.mineBlock({ transactions: [], atomic: [operation] });
    return record;
  }

  /**
   * Runs the next block's transactions; `sealed` then resolves once the block's roots are
   * computed and it is on the chain. With `held` (the caller runs inside the engine's lock), the
   * block is sealed after the caller answered its client (`EngineLock.sealAfterAnswer`).
   */
  async executeBlock(opts: MineOptions, held?: LockHeld): Promise<ExecutedBlock> {
    // A block still being sealed is the parent of this one.
    const pending = this.lock.pendingSeal;
    if (pending !== undefined) await pending;
    this.lock.assertRunning();
    const parent = this.state.head;
    const headerData = this.time.takeNextHeader(parent, opts.timestamp);
    const candidates = opts.transactions ?? this.pool.takeForBlock(headerData.baseFeePerGas);
    const outcome: BlockOutcome = { included: [], results: [], rejected: [] };
    const finish = (block: Block): BlockRecord => {
      const record = this.record(block, outcome.included, outcome.results, opts.atomic ?? []);
      this.state.chain.append(record);
      return record;
    };
    if (!this.canAssembleBlocks) {
      const block = await this.buildWithBlockBuilder(parent.block, headerData, candidates, outcome);
      return { ...outcome, sealed: Promise.resolve(this.accept(finish(block))), sealedAfterAnswer: false };
    }
    const run = await this.runBlockTransactions(parent.block, headerData, candidates, outcome);
    const seal = async () => this.accept(finish(await this.sealBlock(run, outcome.included, outcome.results)));
    // A durable block is answered only once it is committed ("accepted" must survive a kill -9), so it is never sealed later.
    if (held === undefined || this.persistence !== undefined) return { ...outcome, sealed: seal(), sealedAfterAnswer: false };
    return { ...outcome, sealed: this.lock.sealAfterAnswer(held, seal, `block ${headerData.number}`), sealedAfterAnswer: true };
  }

  /**
   * A block on the chain, once it is durable: committed to the store when there is one. A failed
   * write stops the simulator, as a failed seal does: the chain in memory would be ahead of the store.
   */
  private accept(record: BlockRecord, announced = true): BlockRecord | Promise<BlockRecord> {
    const persistence = this.persistence;
    if (persistence === undefined) return announced ? this.announce(record) : record;
    // Listeners (subscriptions, the index, IPC) hear of a block only once it is durable.
    return persistence.saveBlock(record).then(
      () => (announced ? this.announce(record) : record),
      (error: unknown) => {
        throw new SimulatorFaultError(this.lock.stop(error, `block ${record.number} could not be written to the store`));
      },
    );
  }

  /** ethereumjs' BlockBuilder, for rule sets the lean path below does not know. */
  private async buildWithBlockBuilder(
    parentBlock: Block,
    headerData: HeaderData,
    candidates: PooledTransaction[],
    { included, results, rejected }: BlockOutcome,
  ): Promise<Block> {
    const builder = await buildBlock(this.state.vm, {
      parentBlock,
      headerData,
      withdrawals: [],
      blockOpts: { putBlockIntoBlockchain: false, setHardfork: false, common: this.state.common },
    });
    for (const pooled of candidates) {
      try {
        results.push(await this.state.withConsole(() => builder.addTransaction(pooled.tx, { skipHardForkValidation: true })));
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
    const common = this.state.common;
    const vm = this.state.vm;
    const blockOpts = engineBlockOptions(common);
    const cancun = common.isActivatedEIP(4844);
    const header = cancun ? { ...headerData, excessBlobGas: nextExcessBlobGas(parentBlock.header, common) } : { ...headerData };
    const journal = vm.evm.journal;
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
        const result = await this.state.withConsole(() => runTx(vm, { tx: pooled.tx, block: runBlock, skipHardForkValidation: true, blockGasUsed }));
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
    const common = this.state.common;
    const vm = this.state.vm;
    const blockOpts = engineBlockOptions(common);
    const transactions: TypedTransaction[] = included.map((pooled) => pooled.tx);
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
    if (checkpointed) {
      await vm.evm.journal.commit();
      // A transaction's run clears the journal when it ends, but the block's own checkpoint
      // (EIP-4788's root, or the one around its transactions) leaves an entry behind on commit:
      // cleared here, or every block, empty ones above all, keeps one for the chain's lifetime.
      await vm.evm.journal.cleanup();
    }
    const stateRoot = await vm.stateManager.getStateRoot();
    // As createBlock, but with the transactions as they are (createBlock rebuilds each one).
    return new Block(
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
  }

  /** EIP-4788 as ethereumjs applies it: a no-op unless the beacon roots contract has code. */
  private async accumulateParentBeaconBlockRoot(root: Uint8Array, timestamp: bigint): Promise<void> {
    const vm = this.state.vm;
    const state = vm.stateManager;
    if ((await state.getCode(BEACON_ROOTS_ADDRESS)).length === 0) return;
    const historicalRootsLength = BigInt(this.state.common.param("historicalRootsLength"));
    const timestampIndex = timestamp % historicalRootsLength;
    const timestampExtended = timestampIndex + historicalRootsLength;
    await state.putStorage(BEACON_ROOTS_ADDRESS, setLengthLeft(bigIntToBytes(timestampIndex), 32), bigIntToBytes(timestamp));
    await state.putStorage(BEACON_ROOTS_ADDRESS, setLengthLeft(bigIntToBytes(timestampExtended), 32), root);
    await vm.evm.journal.cleanup();
  }

  /** The chain's record of a block: its mined transactions with receipts and positioned logs. */
  private record(block: Block, included: PooledTransaction[], results: RunTxResult[], atomic: AtomicOperation[] = []): BlockRecord {
    const record = emptyBlockRecord(
      block,
      this.state.stateManager.multiCoin.snapshot(),
      atomic.map((a) => a.id),
      atomic.reduce((sum, a) => sum + a.gasUsed, 0n),
      atomic.map((a) => a.bytes),
    );
    const { hash, transactions } = record;
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
}

function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint): bigint {
  if ("maxFeePerGas" in tx) {
    const maxFee = tx.maxFeePerGas as bigint;
    const tip = tx.maxPriorityFeePerGas as bigint;
    return baseFee + tip < maxFee ? baseFee + tip : maxFee;
  }
  return (tx as unknown as { gasPrice: bigint }).gasPrice;
}
