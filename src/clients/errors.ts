/**
 * Errors thrown by the clients. Every message starts with the JSON-RPC method that failed
 * (as sent on the wire, e.g. `avm.send` with reference naming) and says what went wrong:
 *
 * - {@link NodeApiError}: the node answered with a JSON-RPC error object (its message verbatim);
 * - {@link NodeHttpError}: the HTTP status was not 2xx (404: nothing is served at that path);
 * - {@link NodeConnectionError}: no HTTP answer at all (connection refused, unknown host);
 * - {@link NodeTimeoutError}: no answer within `timeoutMs`;
 * - {@link NodeResponseError}: an answer that is not a JSON-RPC response of the expected shape;
 * - {@link TxRejectedError} / {@link TxWaitTimeoutError}: `waitFor*Status` did not see Accepted.
 *
 * All of them extend {@link NodeClientError}, so `catch (e) { if (e instanceof NodeClientError) … }`
 * catches everything the node or the network caused. Invalid arguments are reported before any
 * request is sent, as `TypeError` / `RangeError`.
 */
import type { JsonValue } from "./json";

/** Which call failed: the JSON-RPC method, the path and the full URL it was posted to. */
export interface CallContext {
  /** JSON-RPC method as sent, e.g. `xvm.send` or `avm.send`. */
  readonly method: string;
  /** Path on the node, e.g. `/ext/bc/X`. */
  readonly path: string;
  /** Full URL posted to, e.g. `http://127.0.0.1:9650/ext/bc/X`. */
  readonly url: string;
}

/** Base class of every error caused by the node or the network. */
export class NodeClientError extends Error {
  override readonly name: string = "NodeClientError";
  readonly method: string;
  readonly path: string;
  readonly url: string;
  /** The problem alone, without the `<method> failed: ` preamble. */
  readonly detail: string;

  constructor(context: CallContext, detail: string, options?: { cause?: unknown; message?: string }) {
    super(
      options?.message ?? `${context.method} failed: ${detail}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.method = context.method;
    this.path = context.path;
    this.url = context.url;
    this.detail = detail;
  }
}

/**
 * The node answered the call with a JSON-RPC error object. `code`, `nodeMessage` and `data`
 * are the node's, unchanged; the error's `message` reads
 * `xvm.send failed: insufficient funds (code -32000)`.
 */
export class NodeApiError extends NodeClientError {
  override readonly name: string = "NodeApiError";
  /** The JSON-RPC error code sent by the node. */
  readonly code: number;
  /** The node's error message, verbatim. */
  readonly nodeMessage: string;
  /** The `data` member of the node's error object, if any. */
  readonly data: JsonValue | undefined;

  constructor(context: CallContext, error: { code: number; message: string; data?: JsonValue }) {
    super(context, `${error.message} (code ${error.code})`);
    this.code = error.code;
    this.nodeMessage = error.message;
    this.data = error.data;
  }
}

/** The node (or something in front of it) answered with an HTTP status other than 2xx. */
export class NodeHttpError extends NodeClientError {
  override readonly name: string = "NodeHttpError";
  /** HTTP status code, e.g. 404. */
  readonly status: number;
  readonly statusText: string;
  /** Start of the response body (at most 1000 characters). */
  readonly body: string;
  /** The JSON-RPC error object in the body, when the body held one. */
  readonly rpcError: { readonly code: number; readonly message: string; readonly data?: JsonValue } | undefined;

  constructor(
    context: CallContext,
    detail: string,
    response: {
      status: number;
      statusText: string;
      body: string;
      rpcError?: { code: number; message: string; data?: JsonValue };
    },
  ) {
    super(context, detail);
    this.status = response.status;
    this.statusText = response.statusText;
    this.body = response.body;
    this.rpcError = response.rpcError;
  }
}

/** The request never got an HTTP answer: connection refused, host not found, TLS failure… */
export class NodeConnectionError extends NodeClientError {
  override readonly name: string = "NodeConnectionError";
  /** Base URL of the node that could not be reached. */
  readonly nodeUrl: string;
  /** System error code when known, e.g. `ECONNREFUSED`, `ENOTFOUND`. */
  readonly reason: string | undefined;

  constructor(context: CallContext, detail: string, nodeUrl: string, reason: string | undefined, cause: unknown) {
    super(context, detail, { cause });
    this.nodeUrl = nodeUrl;
    this.reason = reason;
  }
}

/** No complete answer arrived within the transport's (or the call's) `timeoutMs`. */
export class NodeTimeoutError extends NodeClientError {
  override readonly name: string = "NodeTimeoutError";
  readonly timeoutMs: number;

  constructor(context: CallContext, detail: string, timeoutMs: number) {
    super(context, detail);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The answer was not what the API promises: not JSON, not a JSON-RPC response, or a result
 * whose fields have the wrong type (e.g. a balance that is not a uint64).
 */
export class NodeResponseError extends NodeClientError {
  override readonly name: string = "NodeResponseError";
}

/**
 * Base class of the errors of `waitForTxStatus` / `waitForAtomicTxStatus`. The message reads
 * `waitForTxStatus (xvm.getTxStatus): transaction … is Rejected (it will never be accepted)`.
 */
export class TxStatusError extends NodeClientError {
  override readonly name: string = "TxStatusError";
  readonly txID: string;
  /** The last status seen, or `undefined` when no poll completed. */
  readonly lastStatus: string | undefined;

  constructor(context: CallContext & { waiter: string }, detail: string, txID: string, lastStatus: string | undefined) {
    super(context, detail, { message: `${context.waiter} (${context.method}): ${detail}` });
    this.txID = txID;
    this.lastStatus = lastStatus;
  }
}

/**
 * The transaction reached a final status other than Accepted: `Rejected` on the exchange chain,
 * `Dropped` on the contract chain.
 */
export class TxRejectedError extends TxStatusError {
  override readonly name: string = "TxRejectedError";
  readonly status: string;

  constructor(context: CallContext & { waiter: string }, txID: string, status: string) {
    super(
      context,
      `transaction ${txID} is ${status}${status === "Dropped" ? " (the node considered it invalid)" : " (it will never be accepted)"}`,
      txID,
      status,
    );
    this.status = status;
  }
}

/** `waitFor*Status` gave up: the transaction was not Accepted within `timeoutMs`. */
export class TxWaitTimeoutError extends TxStatusError {
  override readonly name: string = "TxWaitTimeoutError";
  readonly timeoutMs: number;

  constructor(context: CallContext & { waiter: string }, txID: string, lastStatus: string | undefined, timeoutMs: number) {
    super(
      context,
      `transaction ${txID} was not Accepted within ${timeoutMs} ms (last status: ${lastStatus ?? "none received"})`,
      txID,
      lastStatus,
    );
    this.timeoutMs = timeoutMs;
  }
}
