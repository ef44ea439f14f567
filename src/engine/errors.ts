/**
 * The engine's own errors, in the chain's terms: what was wrong with a request or what the chain
 * refused. The engine knows nothing of JSON-RPC; its API module (`api/errors.ts`) maps each kind
 * to the code, message and data a node answers with.
 */
import type { FailureTrace } from "./failure-trace";
import { failureMessage } from "./revert";

export abstract class EngineError extends Error {}

/** A value the engine cannot use: a malformed transaction, a timestamp before the head's, a gas limit of 0. */
export class InvalidInputError extends EngineError {
  override readonly name: string = "InvalidInputError";
}

/** An operation this engine cannot carry out as it is set up (a reset of a node restored from its store). */
export class UnavailableOperationError extends EngineError {
  override readonly name = "UnavailableOperationError";
}

/** A block number or hash that is not on the chain. */
export class UnknownBlockError extends InvalidInputError {
  override readonly name = "UnknownBlockError";
}

/**
 * A transaction or call the chain refuses by one of its rules: the pool's (nonce, funds, fee,
 * gas limit), an account the node holds no key for, a sender that cannot pay.
 */
export class TransactionRejectedError extends EngineError {
  override readonly name = "TransactionRejectedError";
}

/**
 * A call, estimate or transaction whose execution failed in the EVM: `evmError` is the EVM's
 * code ("revert", "out of gas", ...), `returnData` what the failing frame returned (the revert
 * data), `transactionHash` the mined transaction's when there is one, `trace` the path of the
 * failed frames when the EVM ran code. The message is the person-readable failure
 * ("execution reverted: reason").
 */
export class ExecutionFailedError extends EngineError {
  override readonly name = "ExecutionFailedError";

  constructor(
    readonly evmError: string,
    readonly returnData: Uint8Array,
    readonly transactionHash?: string,
    readonly trace?: FailureTrace,
  ) {
    super(failureMessage(evmError, returnData));
  }
}

/** The simulator stopped after an internal error (a block that could not be sealed); nothing more runs. */
export class SimulatorFaultError extends EngineError {
  override readonly name = "SimulatorFaultError";

  constructor(readonly fault: Error) {
    super(`the simulator stopped after an internal error: ${fault.message}`);
  }
}

/**
 * The chain kept in the durable store cannot be opened: it was written for another chain ID or
 * rule set, or it is damaged (a block missing or unreadable).
 */
export class StoredChainError extends EngineError {
  override readonly name = "StoredChainError";
}

/**
 * The remote a fork reads from failed: it could not be reached, kept refusing (rate limits,
 * timeouts) after the retries, or answered something that is not what the call returns. The
 * message names the remote and the call.
 */
export class ForkRemoteError extends EngineError {
  override readonly name = "ForkRemoteError";
}

/**
 * A query that would return or scan more than the node is set to serve in one request (a logs
 * query over too many blocks, or with too many results). `limit` is the bound that was passed.
 */
export class QueryLimitError extends EngineError {
  override readonly name = "QueryLimitError";

  constructor(
    message: string,
    readonly limit: number,
  ) {
    super(message);
  }
}

/**
 * An eth_call or eth_estimateGas that ran past the node's time limit (`rpc-evm-timeout`); the
 * message is geth's, with the limit written as Go writes a duration ("5s", "1.5s", "250ms").
 */
export class ExecutionTimeoutError extends EngineError {
  override readonly name = "ExecutionTimeoutError";

  constructor(readonly timeoutMs: number) {
    super(`execution aborted (timeout = ${goDuration(timeoutMs)})`);
  }
}

function goDuration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${ms / 1000}s`;
}
