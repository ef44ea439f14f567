/**
 * Calls and gas estimates: a transaction run against the state of a block, as if in the block
 * after it, with every change thrown away. eth_call and eth_estimateGas answer from here, and a
 * transaction request without a gas limit gets its limit here.
 */
import { createBlock, type Block } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import type { EVMResult } from "@ethereumjs/evm";
import { createTx, TransactionType, type TypedTransaction, type TypedTxData } from "@ethereumjs/tx";
import { Account, type Address, createZeroAddress, KECCAK256_RLP } from "@ethereumjs/util";
import { runTx, type RunTxResult } from "@ethereumjs/vm";
import type { BlockTime } from "./block-time";
import type { BlockRecord } from "./chain";
import type { ChainState } from "./chain-state";
import { cancunHeaderFields, engineBlockOptions } from "./common";
import { ExecutionFailedError, TransactionRejectedError } from "./errors";
import { failureTraceOf } from "./failure-trace";
import type { ResolvedEngineOptions } from "./options";
import { isPrecompileAddress, type NativeEVM } from "./precompiles";
import { cleanVmMessage } from "./revert";
import type { StateReads } from "./state-reads";
import type { BlockSelector, CallOutcome, TransactionRequest } from "./types";

/** The block a call last ran in, with what it was made from. */
interface CallBlock {
  readonly record: BlockRecord;
  readonly isHead: boolean;
  readonly gasLimit: bigint;
  readonly baseFee: bigint;
  readonly timestamp: bigint;
  readonly block: Block;
}

export class Executor {
  private lastCallBlock: CallBlock | undefined;

  constructor(
    private readonly state: ChainState,
    private readonly settings: Readonly<ResolvedEngineOptions>,
    private readonly time: BlockTime,
    private readonly reads: StateReads,
  ) {}

  /**
   * A call's gas within `rpcGasCap`: a request for more runs with the cap (the reference node's
   * rule), so no call can take the node for longer than the cap's worth of gas.
   */
  private capped(gas: bigint): bigint {
    const cap = this.settings.rpcGasCap;
    return cap > 0n && gas > cap ? cap : gas;
  }

  /** Runs a call against the state of a block without keeping any change. */
  async call(request: TransactionRequest, selector: BlockSelector): Promise<CallOutcome> {
    const record = this.reads.resolveBlock(selector);
    const gas = this.capped(request.gas ?? this.settings.blockGasLimit);
    return this.withinTimeLimit(record, () => this.state.withConsole(() => this.execute(request, record, gas)));
  }

  /**
   * Runs `work` (a call, or an estimate's whole search) within `rpcEvmTimeoutMs`, the reference
   * node's `rpc-evm-timeout`: past it, every frame still running halts and the answer is geth's
   * "execution aborted (timeout = …)" instead of the failure the halt would look like.
   */
  private async withinTimeLimit<T>(record: BlockRecord, work: () => Promise<T>): Promise<T> {
    const budget = ((await this.state.vmAt(record)).evm as NativeEVM).budget;
    if (budget === undefined) return work();
    const end = budget.begin(this.settings.rpcEvmTimeoutMs);
    try {
      const result = await work();
      if (budget.timedOut) throw budget.timeoutError();
      return result;
    } catch (error) {
      throw budget.timedOut ? budget.timeoutError() : error;
    } finally {
      end();
    }
  }

  /**
   * `traced: false`: a failure is not replayed for its stack trace (an estimate's trial runs at
   * lower gas, whose failures nobody sees).
   */
  private async execute(request: TransactionRequest, record: BlockRecord, gas: bigint, { traced = true }: { traced?: boolean } = {}): Promise<CallOutcome> {
    const isHead = record === this.state.head;
    const state = this.state.stateAt(record);
    const vm = await this.state.vmAt(record);
    const from = request.from ?? createZeroAddress();
    const value = request.value ?? 0n;
    const account = await senderAccount(state, from, value);
    const gasPrice = request.gasPrice ?? request.maxFeePerGas ?? 0n;
    // Like geth, a call that names no fee runs at base fee 0, so it needs no balance for gas.
    const baseFee = gasPrice === 0n ? 0n : this.time.nextBlockBaseFee();
    const block = this.callBlock(record, isHead, gas, baseFee);
    const tx = callTransaction(request, { from, nonce: account.nonce, gas, gasPrice }, this.state.common);
    const evm = vm.evm as NativeEVM;
    const replayFailures = evm.replayFailures;
    if (!traced) evm.replayFailures = false;
    await state.checkpoint();
    try {
      const result = await runTx(vm, { tx, block, skipNonce: true, skipBalance: gasPrice === 0n, skipHardForkValidation: true, skipBlockGasLimitValidation: true });
      return outcomeOf(result);
    } catch (error) {
      throw new TransactionRejectedError(cleanVmMessage((error as Error).message));
    } finally {
      evm.replayFailures = replayFailures;
      await state.revert();
    }
  }

  /**
   * The block a call runs in: the head's successor for a call on the head, else the block itself,
   * with room for the call's gas. Consecutive calls in the same context share one (the matchers
   * read the same block several times in a row, and a header costs as much to make as a small
   * call to run); a call only reads its block.
   */
  private callBlock(record: BlockRecord, isHead: boolean, gas: bigint, baseFee: bigint): Block {
    const header = record.block.header;
    const timestamp = isHead ? this.time.nextBlockTimestamp() : header.timestamp;
    const gasLimit = header.gasLimit > gas ? header.gasLimit : gas;
    const last = this.lastCallBlock;
    if (last !== undefined && last.record === record && last.isHead === isHead && last.gasLimit === gasLimit && last.baseFee === baseFee && last.timestamp === timestamp) {
      return last.block;
    }
    const block = createBlock(
      {
        header: {
          number: isHead ? header.number + 1n : header.number,
          timestamp,
          gasLimit,
          baseFeePerGas: baseFee,
          coinbase: header.coinbase,
          parentHash: isHead ? record.block.hash() : header.parentHash,
          difficulty: 0n,
          ...cancunHeaderFields(this.state.common),
          withdrawalsRoot: KECCAK256_RLP,
        },
        withdrawals: [],
      },
      engineBlockOptions(this.state.common),
    );
    this.lastCallBlock = { record, isHead, gasLimit, baseFee, timestamp, block };
    return block;
  }

  /**
   * Smallest gas limit with which the transaction succeeds, found like geth does: run it with
   * the block gas limit, then binary search between what it used and that limit.
   */
  async estimateGas(request: TransactionRequest, selector: BlockSelector): Promise<bigint> {
    const record = this.reads.resolveBlock(selector);
    return this.withinTimeLimit(record, () => this.searchGas(request, record));
  }

  private async searchGas(request: TransactionRequest, record: BlockRecord): Promise<bigint> {
    const state = this.state.stateAt(record);
    // A plain transfer to an account without code costs exactly 21000 (geth answers it at once).
    const hasData = request.data !== undefined && request.data.length > 0;
    if (!hasData && request.to !== undefined && request.accessList === undefined && !isPrecompileAddress(request.to.bytes)) {
      if ((await state.getCode(request.to)).length === 0) {
        const feeCap = request.gasPrice ?? request.maxFeePerGas ?? 0n;
        if (feeCap === 0n) {
          // Without a fee nothing can fail but the value: no execution needed.
          await senderAccount(state, request.from ?? createZeroAddress(), request.value ?? 0n);
          return 21_000n;
        }
        await this.execute({ ...request, gas: 21_000n }, record, 21_000n).then((o) => {
          if (o.error !== undefined) throw new ExecutionFailedError(o.error, o.returnValue, undefined, o.trace);
        });
        return 21_000n;
      }
    }
    const blockGasLimit = this.settings.blockGasLimit;
    let cap = this.capped(request.gas ?? blockGasLimit);
    // With a fee cap, the search cannot go above what the sender can pay for (geth's allowance).
    const feeCap = request.gasPrice ?? request.maxFeePerGas ?? 0n;
    if (feeCap > 0n) {
      const from = request.from ?? createZeroAddress();
      const balance = ((await state.getAccount(from)) ?? new Account()).balance;
      const available = balance - (request.value ?? 0n);
      if (available < 0n) {
        throw new TransactionRejectedError(`insufficient funds for transfer: ${from.toString()} has ${balance} wei, the transaction sends ${request.value}`);
      }
      const allowance = available / feeCap;
      if (allowance < cap) cap = allowance;
    }
    const first = await this.execute(request, record, cap);
    if (first.error !== undefined) {
      if (first.error === "out of gas" && cap < blockGasLimit && request.gas === undefined) {
        throw new TransactionRejectedError(`gas required exceeds allowance (${cap}): the sender cannot pay for more gas at this fee`);
      }
      throw new ExecutionFailedError(first.error, first.returnValue, undefined, first.trace);
    }
    let lo = first.gasUsed - 1n;
    let hi = cap;
    // Most transactions succeed with what they used plus the 1/64 EIP-150 retention: try that first.
    const optimistic = ((first.gasUsed + 2300n) * 64n) / 63n;
    if (optimistic < hi) {
      const attempt = await this.execute(request, record, optimistic, { traced: false });
      if (attempt.error === undefined) hi = optimistic;
      else lo = optimistic;
    }
    while (lo + 1n < hi) {
      // Stop when within 1.5% of the answer: the remaining steps buy nothing a user notices.
      if ((hi - lo) * 1000n < hi * 15n) break;
      const mid = (lo + hi) / 2n;
      const attempt = await this.execute(request, record, mid, { traced: false });
      if (attempt.error === undefined) hi = mid;
      else lo = mid;
    }
    return hi;
  }
}

function outcomeOf(result: EVMResult & { totalGasSpent?: bigint }): CallOutcome {
  const error = result.execResult.exceptionError;
  return {
    returnValue: result.execResult.returnValue,
    gasUsed: (result as RunTxResult).totalGasSpent ?? result.execResult.executionGasUsed,
    error: error?.error,
    reverted: error?.error === "revert",
    trace: error === undefined ? undefined : failureTraceOf(result.execResult),
  };
}

/**
 * The transaction a call runs as: from `from`, unsigned (the VM asks it for its sender), with
 * the request's nonce or the account's. An access list changes the intrinsic gas, so a call that
 * has one runs as type 1.
 */
export function callTransaction(
  request: TransactionRequest,
  { from, nonce, gas, gasPrice }: { from: Address; nonce: bigint; gas: bigint; gasPrice: bigint },
  common: Common,
): TypedTransaction {
  const data = {
    type: request.accessList === undefined ? TransactionType.Legacy : TransactionType.AccessListEIP2930,
    nonce: request.nonce ?? nonce,
    gasLimit: gas,
    gasPrice,
    to: request.to,
    value: request.value ?? 0n,
    data: request.data ?? new Uint8Array(0),
    accessList: request.accessList,
  } as TypedTxData;
  const tx = createTx(data, { common, freeze: false });
  tx.getSenderAddress = () => from;
  return tx;
}

/** The sender's account, once it is known to hold the value a call or transfer sends. */
export async function senderAccount(state: AccountReader, from: Address, value: bigint): Promise<Account> {
  const account = (await state.getAccount(from)) ?? new Account();
  if (account.balance < value) {
    throw new TransactionRejectedError(`insufficient funds for transfer: address ${from.toString()} has ${account.balance} wei, the call sends ${value}`);
  }
  return account;
}

interface AccountReader {
  getAccount(address: Address): Promise<Account | undefined>;
}
