/**
 * The engine's errors as JSON-RPC errors: the one place that decides the code, message and data
 * a client sees for each kind (geth's conventions, which ethers and viem decode).
 */
import { bytesToHex } from "@ethereumjs/util";
import { invalidParams, RpcError, RpcErrorCode, serverError } from "../../rpc/errors";
import type { FailureTrace } from "../failure-trace";
import { RemoteCallError } from "../fork/remote";
import { EngineError, ExecutionFailedError, ExecutionTimeoutError, ForkRemoteError, InvalidInputError, QueryLimitError, SimulatorFaultError, TransactionRejectedError, UnavailableOperationError } from "../errors";

/** `RpcApi`'s `mapError` for the engine's methods: undefined for what is not an engine error. */
export function engineErrorToRpc(error: unknown): RpcError | undefined {
  // A fork's remote refused a call forwarded to it (a call before the fork reverting): its own error.
  if (error instanceof RemoteCallError) return new RpcError(error.code, error.remoteMessage, error.data);
  if (!(error instanceof EngineError)) return undefined;
  if (error instanceof ExecutionFailedError) return executionFailure(error);
  // -32602 names the value that was wrong, as parameter errors do.
  if (error instanceof InvalidInputError) return invalidParams(error.message);
  if (error instanceof TransactionRejectedError || error instanceof UnavailableOperationError) return serverError(error.message);
  if (error instanceof ForkRemoteError || error instanceof ExecutionTimeoutError) return serverError(error.message);
  // -32005 "limit exceeded", the code providers answer a too-wide logs query with; data names the limit.
  if (error instanceof QueryLimitError) return new RpcError(RpcErrorCode.LimitExceeded, error.message, { limit: error.limit });
  if (error instanceof SimulatorFaultError) return new RpcError(RpcErrorCode.InternalError, error.message);
  return undefined;
}

/**
 * A failed call, estimate or transaction: geth uses code 3 with the revert bytes in `data`,
 * which ethers decodes into reasons and custom errors; other failures are -32000, naming the
 * transaction when there is one.
 */
function executionFailure({ evmError, returnData, transactionHash, message, trace }: ExecutionFailedError): RpcError {
  if (evmError === "revert" && returnData.length > 0) {
    return new ExecutionFailureRpcError(RpcErrorCode.ExecutionReverted, message, bytesToHex(returnData), { trace, transactionHash });
  }
  const suffix = transactionHash === undefined ? "" : ` (transaction ${transactionHash})`;
  return new ExecutionFailureRpcError(RpcErrorCode.ServerError, message + suffix, evmError === "revert" ? "0x" : undefined, { trace, transactionHash });
}

/**
 * A failed execution's error, as geth answers it, carrying for in-process callers (the Hardhat
 * plugin's Solidity stack traces) the path of the failed frames and the mined transaction's
 * hash. Neither is part of the JSON-RPC answer a transport sends.
 */
export class ExecutionFailureRpcError extends RpcError {
  readonly trace: FailureTrace | undefined;
  readonly transactionHash: string | undefined;

  constructor(code: number, message: string, data: string | undefined, details: { trace: FailureTrace | undefined; transactionHash: string | undefined }) {
    super(code, message, data);
    this.trace = details.trace;
    this.transactionHash = details.transactionHash;
  }
}

