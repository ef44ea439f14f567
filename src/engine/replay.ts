/**
 * Traces (debug_traceTransaction, debug_traceBlockBy*, debug_traceCall): a transaction run
 * again, exactly as it ran, with a tracer listening to the EVM's public events.
 *
 * A mined transaction is traced by running its block again from the parent block's state: the
 * block's earlier transactions first, untraced, then the transaction itself, in the block's own
 * header. A call is traced on the state of the block it names, in that block's header (as geth
 * does), with the node's gas cap. All of it runs on a view of the state that nobody else sees
 * (`NativeStateManager.viewAt`) with a VM of its own, inside a checkpoint that is never
 * committed: the chain's state, its VMs and its listeners are never touched, and a trace
 * stopped half-way (too large, too slow) leaves nothing behind.
 *
 * Bounds: every traced transaction has a time limit (geth's `timeout`, 5 s by default) and the
 * struct logger refuses a log of more than 100 000 entries or about 64 MiB of JSON
 * (TraceLimitError), so a trace never builds gigabytes; a call runs with at most the node's
 * gas cap (`rpcGasCap`), and a mined transaction with the gas it was mined with.
 */
import { createBlock, type Block } from "@ethereumjs/block";
import type { EVMResult, InterpreterStep, Message } from "@ethereumjs/evm";
import type { TypedTransaction } from "@ethereumjs/tx";
import { createZeroAddress, KECCAK256_RLP, type Address } from "@ethereumjs/util";
import { runTx, type RunTxResult, type VM } from "@ethereumjs/vm";
import type { BlockRecord, MinedTransaction } from "./chain";
import { cancunHeaderFields, engineBlockOptions } from "./common";
import { callTransaction, senderAccount } from "./executor";
import type { Engine } from "./engine";
import { TransactionRejectedError } from "./errors";
import type { NativeEVM } from "./precompiles";
import { cleanVmMessage } from "./revert";
import type { NativeStateManager } from "./state-manager";
import { TraceLimitError, TraceRefusedError, TraceTimeoutError } from "./tracing/errors";
import { makeTracer, type TraceConfig } from "./tracing/trace-config";
import type { TracedTransaction, TxTracer } from "./tracing/tracer";
import type { BlockSelector, TransactionRequest } from "./types";

export interface TraceLimits {
  /** Most entries in one struct log. */
  readonly maxStructLogEntries: number;
  /** Most bytes (about) of one struct log's JSON. */
  readonly maxStructLogBytes: number;
  /** How long one transaction's trace may run when the request sets no `timeout` (milliseconds). */
  readonly defaultTimeoutMs: number;
}

const DEFAULT_TRACE_LIMITS: TraceLimits = {
  maxStructLogEntries: 100_000,
  maxStructLogBytes: 64 * 1024 * 1024,
  defaultTimeoutMs: 5_000,
};

/** One transaction's trace in a block's (debug_traceBlockByNumber/ByHash), or why it was stopped. */
export interface TransactionTrace {
  readonly txHash: string;
  readonly result?: unknown;
  readonly error?: string;
}

/** How often (in instructions) the time limit is checked. */
const CLOCK_EVERY = 1024;

export class TraceReplay {
  constructor(
    private readonly engine: Engine,
    private readonly limits: TraceLimits = DEFAULT_TRACE_LIMITS,
  ) {}

  /** The trace of a mined transaction; throws TraceRefusedError ("transaction not found") for any other hash. */
  async traceTransaction(hash: string, config: TraceConfig): Promise<unknown> {
    const mined = this.engine.chain.transaction(hash);
    if (mined === undefined) throw new TraceRefusedError("transaction not found");
    const traces = await this.replayBlock(mined.block, config, mined.index);
    return traces[traces.length - 1]!.result;
  }

  /** The traces of every transaction of a block, in order. */
  traceBlock(record: BlockRecord, config: TraceConfig): Promise<TransactionTrace[]> {
    return this.replayBlock(record, config, undefined);
  }

  /** The trace of a call on the state of a block, in that block's header. */
  async traceCall(request: TransactionRequest, selector: BlockSelector, config: TraceConfig): Promise<unknown> {
    const engine = this.engine;
    const record = engine.resolveBlock(selector);
    const live = engine.stateManager;
    // The head's state is the live one (with the edits made since the head block); a copy of it.
    const state = record === engine.head ? live.viewAt(await live.getStateRoot(), live.multiCoin.snapshot()) : live.viewAt(record.block.header.stateRoot, record.multiCoin);
    const from = request.from ?? createZeroAddress();
    const value = request.value ?? 0n;
    const account = await senderAccount(state, from, value);
    const gas = this.capped(request.gas ?? engine.options.blockGasLimit);
    const gasPrice = request.gasPrice ?? request.maxFeePerGas ?? 0n;
    const tx = callTransaction(request, { from, nonce: account.nonce, gas, gasPrice }, engine.common);
    // Like geth's traceCall, a call that names no fee runs at base fee 0.
    const block = this.callBlock(record, gas, gasPrice === 0n ? 0n : (record.block.header.baseFeePerGas ?? 0n));
    const vm = await this.engine.detachedVm(state);
    await vm.evm.journal.checkpoint();
    const tracer = makeTracer(config, this.structLogLimits());
    const run = () => runTx(vm, { tx, block, skipNonce: true, skipBalance: gasPrice === 0n, skipHardForkValidation: true, skipBlockGasLimitValidation: true });
    const { trace } = await this.traced(vm, state, tracer, this.tracedTransaction(tx, from, block), config, run);
    return trace;
  }

  /**
   * Runs a block again from its parent's state: every transaction up to `upTo` (all if absent),
   * tracing `upTo` alone, or all of them.
   */
  private async replayBlock(record: BlockRecord, config: TraceConfig, upTo: number | undefined): Promise<TransactionTrace[]> {
    const chain = this.engine.chain;
    if (record.number === 0n) throw new TraceRefusedError("genesis is not traceable");
    const parent = chain.byNumberOrUndefined(record.number - 1n);
    if (parent === undefined) {
      throw new TraceRefusedError(`block #${record.number} is not traceable: it is the fork block, whose transactions ran on the remote chain`);
    }
    // Fails before any work for a tracer this node does not have.
    makeTracer(config, this.structLogLimits());
    let replay = await this.replayFrom(parent);
    const traces: TransactionTrace[] = [];
    let blockGasUsed = 0n;
    for (const mined of record.transactions) {
      if (upTo !== undefined && mined.index > upTo) break;
      const opts = { tx: mined.tx, block: record.block, skipHardForkValidation: true, blockGasUsed };
      const { vm, state } = replay;
      let result: RunTxResult;
      try {
        if (upTo === undefined || mined.index === upTo) {
          const tracer = makeTracer(config, this.structLogLimits());
          const run = await this.traced(vm, state, tracer, this.tracedTransaction(mined.tx, mined.from, record.block), config, () => runTx(vm, opts));
          traces.push({ txHash: mined.hash, result: run.trace });
          result = run.result;
        } else {
          result = await runTx(vm, opts);
        }
      } catch (error) {
        // In a block's trace, a transaction whose trace was stopped (too large, too slow) gets its
        // error, as geth answers, and the others their traces: the stopped run left the state
        // half-way, so the block is run again up to this transaction, untraced.
        if (upTo === undefined && (error instanceof TraceLimitError || error instanceof TraceTimeoutError)) {
          traces.push({ txHash: mined.hash, error: error.message });
          replay = await this.replayFrom(parent);
          blockGasUsed = 0n;
          for (const earlier of record.transactions.slice(0, mined.index + 1)) {
            blockGasUsed += (await runTx(replay.vm, { tx: earlier.tx, block: record.block, skipHardForkValidation: true, blockGasUsed })).blockGasSpent;
          }
          continue;
        }
        if (error instanceof TraceRefusedError || error instanceof TraceLimitError) throw error;
        // A mined transaction is valid on the state it ran on: refused now, it runs on another.
        throw diverged(record, mined, `it is refused (${cleanVmMessage((error as Error).message)})`);
      }
      checkSameOutcome(record, mined, result);
      blockGasUsed += result.blockGasSpent;
    }
    return traces;
  }

  /** A copy of the state after `parent`, and a VM over it, ready to run the next block's transactions. */
  private async replayFrom(parent: BlockRecord): Promise<{ state: NativeStateManager; vm: VM }> {
    const state = this.engine.stateManager.viewAt(parent.block.header.stateRoot, parent.multiCoin);
    const vm = await this.engine.detachedVm(state);
    // As the block producer: one checkpoint around the block's transactions (never committed here).
    await vm.evm.journal.checkpoint();
    return { state, vm };
  }

  /** Runs `run` with `tracer` listening, within the time limit; the tracer's answer and the run's result. */
  private async traced(
    vm: VM,
    state: NativeStateManager,
    tracer: TxTracer,
    tx: TracedTransaction,
    config: TraceConfig,
    run: () => Promise<RunTxResult>,
  ): Promise<{ trace: unknown; result: RunTxResult }> {
    await tracer.start?.(tx, state);
    const events = (vm.evm as NativeEVM).events;
    const timeoutMs = config.timeoutMs ?? this.limits.defaultTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    let steps = 0;
    let failure: unknown;
    const onStep = (step: InterpreterStep) => {
      if (++steps % CLOCK_EVERY === 0 && Date.now() > deadline) throw new TraceTimeoutError();
      tracer.step?.(step);
    };
    const stepAsync = tracer.stepAsync?.bind(tracer);
    const onStepAsync = (step: InterpreterStep, done?: () => void) => {
      stepAsync!(step).then(
        () => done?.(),
        (error: unknown) => {
          failure ??= error;
          done?.();
        },
      );
    };
    const onEnter = (message: Message, done?: () => void) => {
      Promise.resolve(tracer.enter?.(message, state)).then(
        () => done?.(),
        (error: unknown) => {
          failure ??= error;
          done?.();
        },
      );
    };
    const onExit = (result: EVMResult) => tracer.exit?.(result);
    events.on("step", onStep);
    if (stepAsync !== undefined) events.on("step", onStepAsync);
    events.on("beforeMessage", onEnter);
    events.on("afterMessage", onExit);
    let result: RunTxResult;
    try {
      result = await run();
    } catch (error) {
      if (error instanceof TraceRefusedError || error instanceof TraceLimitError) throw error;
      throw new TransactionRejectedError(cleanVmMessage((error as Error).message));
    } finally {
      events.off("step", onStep);
      if (stepAsync !== undefined) events.off("step", onStepAsync);
      events.off("beforeMessage", onEnter);
      events.off("afterMessage", onExit);
    }
    if (failure !== undefined) throw failure;
    const outcome = {
      gasUsed: result.totalGasSpent,
      returnValue: result.execResult.returnValue,
      error: result.execResult.exceptionError?.error,
      createdAddress: result.createdAddress,
    };
    return { trace: await tracer.finish(outcome, state), result };
  }

  private tracedTransaction(tx: TypedTransaction, from: Address, block: Block): TracedTransaction {
    return { from, to: tx.to, gasLimit: tx.gasLimit, value: tx.value, data: tx.data, coinbase: block.header.coinbase };
  }

  private structLogLimits() {
    return { maxEntries: this.limits.maxStructLogEntries, maxBytes: this.limits.maxStructLogBytes };
  }

  /** A call's gas within the node's gas cap (a request for more runs with the cap, as eth_call does). */
  private capped(gas: bigint): bigint {
    const cap = this.engine.options.rpcGasCap;
    return cap > 0n && gas > cap ? cap : gas;
  }

  /** The block a traced call runs in: the block it names, with room for its gas and the fee it asks for. */
  private callBlock(record: BlockRecord, gas: bigint, baseFeePerGas: bigint): Block {
    const header = record.block.header;
    const common = this.engine.common;
    return createBlock(
      {
        header: {
          number: header.number,
          timestamp: header.timestamp,
          gasLimit: header.gasLimit > gas ? header.gasLimit : gas,
          baseFeePerGas,
          coinbase: header.coinbase,
          parentHash: header.parentHash,
          mixHash: header.mixHash,
          difficulty: 0n,
          ...cancunHeaderFields(common),
          withdrawalsRoot: KECCAK256_RLP,
        },
        withdrawals: [],
      },
      engineBlockOptions(common),
    );
  }

}

/**
 * A replayed transaction must end as it did on the chain. It cannot end otherwise unless the
 * state was edited between blocks (hardhat_setBalance, hardhat_setCode, ...): an edit is part of
 * the next block's starting state but of no block's state root, so a replay cannot see it.
 */
function checkSameOutcome(record: BlockRecord, mined: MinedTransaction, result: RunTxResult): void {
  const status = result.execResult.exceptionError === undefined ? 1 : 0;
  if (result.totalGasSpent === mined.receipt.gasUsed && status === mined.receipt.status) return;
  throw diverged(record, mined, `it used ${result.totalGasSpent} gas with status ${status}, its receipt says ${mined.receipt.gasUsed} with status ${mined.receipt.status}`);
}

function diverged(record: BlockRecord, mined: MinedTransaction, how: string): TraceRefusedError {
  return new TraceRefusedError(
    `block #${record.number} cannot be replayed as it ran: at transaction ${mined.hash} ${how}. ` +
      "The state was edited directly (hardhat_set*, evm edits) before the block; such edits are part of no block's state root, so a trace cannot start from them",
  );
}
