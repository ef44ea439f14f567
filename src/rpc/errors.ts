/**
 * JSON-RPC error codes and the error every API throws at its boundary. Domain code throws its
 * own errors; an API module maps them to an `RpcError` (see `RpcApi`'s `mapError`), and the
 * transports (HTTP node, Hardhat plugin, in-process provider) pass `code`, `message` and `data`
 * through unchanged, so every transport reports the same error.
 */
export const RpcErrorCode = {
  /** Invalid JSON was received. */
  ParseError: -32700,
  /** The JSON sent is not a valid request object. */
  InvalidRequest: -32600,
  /** The method does not exist or is not available. */
  MethodNotFound: -32601,
  /** Invalid method parameters. */
  InvalidParams: -32602,
  /** Internal JSON-RPC error. */
  InternalError: -32603,
  /** Generic server error: execution reverted, transaction rejected, a refusal of the node's. */
  ServerError: -32000,
  /** Execution reverted; `data` holds the revert bytes (geth convention). */
  ExecutionReverted: 3,
  /** The request is larger than the server accepts. */
  LimitExceeded: -32005,
} as const;

export type RpcErrorCodeValue = (typeof RpcErrorCode)[keyof typeof RpcErrorCode];

export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** -32602: a parameter that cannot be read; the message names it and what was expected. */
export function invalidParams(message: string): RpcError {
  return new RpcError(RpcErrorCode.InvalidParams, message);
}

/** -32000: a request the node understood and refuses (a rule, a state, a password), with optional data. */
export function serverError(message: string, data?: unknown): RpcError {
  return new RpcError(RpcErrorCode.ServerError, message, data);
}
