/**
 * JSON-RPC 2.0 framing, independent of the transport.
 *
 * `handleJsonRpcBody` takes the raw text of a request (a single request object or a batch),
 * hands every valid call to a dispatch function and returns the text of the response, or
 * `undefined` when nothing must be sent back (notifications only). It never throws and never
 * leaks a stack trace: every failure becomes a JSON-RPC error object.
 *
 * Spec: https://www.jsonrpc.org/specification
 */
import { RpcErrorCode } from "./errors";
import { jsonNestingDepth } from "./json-depth";
import { JsonText } from "./json-text";
import type { Dispatch } from "./types";

/** A request or response id: the spec allows a string, a number or null. */
export type JsonRpcId = string | number | null;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: JsonRpcId; result: unknown }
  | { jsonrpc: "2.0"; id: JsonRpcId; error: JsonRpcErrorObject };

export interface JsonRpcLimits {
  /**
   * Largest number of requests accepted in one batch. Default {@link DEFAULT_MAX_BATCH_SIZE};
   * the public API node of the reference network uses 40.
   */
  maxBatchSize?: number;
  /**
   * Deepest nesting of arrays and objects accepted in a message, checked before it is parsed.
   * Default {@link DEFAULT_MAX_JSON_DEPTH}.
   */
  maxJsonDepth?: number;
}

/** Default batch size limit; generous for local development and benchmarks. */
export const DEFAULT_MAX_BATCH_SIZE = 1000;

/**
 * Default nesting limit. A request is a batch (1) of request objects (2) whose params (3) hold
 * values such as a transaction, a filter's topics or EIP-712 typed data (a few levels more, a
 * dozen for deeply nested structs): 64 leaves room for every real request while a hostile body of
 * millions of `[` is refused by a scan of its first 65 brackets instead of seconds of parsing.
 */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/** Builds a JSON-RPC error response. */
export function errorResponse(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: "2.0", id, error };
}

/**
 * Turns anything thrown by a dispatch function into a JSON-RPC error object.
 * Objects with an integer `code` and a string `message` (such as the engine's `RpcError`) keep
 * their code, message and data; anything else is an internal error (-32603) carrying only its
 * message.
 */
function toJsonRpcError(thrown: unknown): JsonRpcErrorObject {
  if (typeof thrown === "object" && thrown !== null) {
    const candidate = thrown as { code?: unknown; message?: unknown; data?: unknown };
    if (
      typeof candidate.code === "number" &&
      Number.isInteger(candidate.code) &&
      typeof candidate.message === "string"
    ) {
      return candidate.data === undefined
        ? { code: candidate.code, message: candidate.message }
        : { code: candidate.code, message: candidate.message, data: candidate.data };
    }
    if (typeof candidate.message === "string" && candidate.message !== "") {
      return { code: RpcErrorCode.InternalError, message: candidate.message };
    }
  } else if (typeof thrown === "string" && thrown !== "") {
    return { code: RpcErrorCode.InternalError, message: thrown };
  }
  return { code: RpcErrorCode.InternalError, message: "internal error" };
}

/**
 * Handles the text of one JSON-RPC 2.0 message (a request object or a batch array).
 *
 * - Invalid JSON: a -32700 error with id null.
 * - A message nested deeper than `limits.maxJsonDepth`: a -32600 error with id null, found by a
 *   scan before parsing (parsing it is what would cost the time and memory).
 * - A request object that is not valid (wrong or missing `jsonrpc`, non-string `method`,
 *   `params` neither array nor object, id neither string, number nor null): a -32600 error that
 *   names the problem, echoing the id when it is a valid one.
 * - A notification (no `id` member) is run but produces no response entry.
 * - A batch is run in order, one call after another (so a batch may send a transaction and
 *   then read its effects); responses keep the order of the requests. An empty batch and a
 *   batch above `limits.maxBatchSize` produce a single -32600 error object.
 * - Returns `undefined` when there is nothing to send back (only notifications).
 */
export async function handleJsonRpcBody(body: string, dispatch: Dispatch, limits: JsonRpcLimits = {}): Promise<string | undefined> {
  return (await handleJsonRpcBodyInParts(body, dispatch, limits))?.join("");
}

/**
 * {@link handleJsonRpcBody}'s answer in parts, to be sent one after another: a result given as
 * {@link JsonText} keeps its parts (a 4 MB logs answer never becomes one string).
 */
export async function handleJsonRpcBodyInParts(
  body: string,
  dispatch: Dispatch,
  limits: JsonRpcLimits = {},
): Promise<readonly string[] | undefined> {
  const maxBatchSize = limits.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
  const maxJsonDepth = limits.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;

  if (jsonNestingDepth(body, maxJsonDepth) > maxJsonDepth) {
    return serialize(
      errorResponse(
        null,
        RpcErrorCode.InvalidRequest,
        `request nested too deeply: more than ${maxJsonDepth} levels of arrays and objects, the limit of this node`,
        { limit: maxJsonDepth },
      ),
    );
  }

  let message: unknown;
  try {
    // A leading byte-order mark is not JSON but some tools write it; ignore it.
    message = JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body);
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return serialize(errorResponse(null, RpcErrorCode.ParseError, `parse error: ${detail}`));
  }

  if (!Array.isArray(message)) {
    const response = await handleRequest(message, dispatch);
    return response === undefined ? undefined : serialize(response);
  }

  if (message.length === 0) {
    return serialize(errorResponse(null, RpcErrorCode.InvalidRequest, "invalid request: empty batch"));
  }
  if (message.length > maxBatchSize) {
    return serialize(
      errorResponse(
        null,
        RpcErrorCode.InvalidRequest,
        `batch too large: ${message.length} requests exceed the limit of ${maxBatchSize} requests per batch`,
      ),
    );
  }

  const parts: string[] = [];
  for (const item of message) {
    const response = await handleRequest(item, dispatch);
    if (response === undefined) continue;
    parts.push(parts.length === 0 ? "[" : ",", ...serialize(response));
  }
  if (parts.length === 0) return undefined;
  parts.push("]");
  return parts;
}

interface ValidRequest {
  method: string;
  params: unknown;
  /** Absent for notifications. */
  id?: JsonRpcId;
  isNotification: boolean;
}

/** Checks one request object; returns the request or a -32600 error response. */
function validateRequest(value: unknown): ValidRequest | JsonRpcResponse {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return errorResponse(
      null,
      RpcErrorCode.InvalidRequest,
      `invalid request: expected a request object, got ${describe(value)}`,
    );
  }
  const request = value as Record<string, unknown>;
  const hasId = Object.prototype.hasOwnProperty.call(request, "id");
  const idIsValid = !hasId || isValidId(request.id);
  const replyId: JsonRpcId = hasId && idIsValid ? (request.id as JsonRpcId) : null;
  const invalid = (problem: string) =>
    errorResponse(replyId, RpcErrorCode.InvalidRequest, `invalid request: ${problem}`);

  if (request.jsonrpc !== "2.0") {
    return invalid(
      request.jsonrpc === undefined
        ? 'missing "jsonrpc" member; it must be the string "2.0"'
        : `"jsonrpc" must be the string "2.0", got ${describe(request.jsonrpc)}`,
    );
  }
  if (!idIsValid) {
    return invalid(`"id" must be a string, a number or null, got ${describe(request.id)}`);
  }
  if (typeof request.method !== "string") {
    return invalid(
      request.method === undefined
        ? 'missing "method" member'
        : `"method" must be a string, got ${describe(request.method)}`,
    );
  }
  // `params: null` is not allowed by the letter of the spec, but several clients send it and the
  // reference node's EVM endpoint treats it as absent; so do we.
  const params = request.params === null ? undefined : request.params;
  if (params !== undefined && typeof params !== "object") {
    return invalid(`"params" must be an array or an object, got ${describe(params)}`);
  }
  return hasId
    ? { method: request.method, params, id: request.id as JsonRpcId, isNotification: false }
    : { method: request.method, params, isNotification: true };
}

async function handleRequest(value: unknown, dispatch: Dispatch): Promise<JsonRpcResponse | undefined> {
  const checked = validateRequest(value);
  if ("jsonrpc" in checked) return checked;

  let response: JsonRpcResponse;
  try {
    const result = await dispatch(checked.method, checked.params);
    response = { jsonrpc: "2.0", id: checked.id ?? null, result: result === undefined ? null : result };
  } catch (thrown) {
    response = { jsonrpc: "2.0", id: checked.id ?? null, error: toJsonRpcError(thrown) };
  }
  return checked.isNotification ? undefined : response;
}

/**
 * Serializes one response. A result or error data that cannot be written as JSON (a bigint, a
 * cycle) becomes an internal error for that entry instead of failing the whole message.
 */
/** A response as the parts of its text (one part, but for a result given as JsonText). */
function serialize(response: JsonRpcResponse): string[] {
  if ("result" in response && response.result instanceof JsonText) {
    return [`{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":`, ...response.result.parts, "}"];
  }
  return [serializeWhole(response)];
}

function serializeWhole(response: JsonRpcResponse): string {
  try {
    return JSON.stringify(response);
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    if ("error" in response) {
      // Keep the error but drop the data that could not be serialized.
      const { code, message } = response.error;
      return JSON.stringify(errorResponse(response.id, code, message));
    }
    return JSON.stringify(
      errorResponse(response.id, RpcErrorCode.InternalError, `internal error: the result is not serializable as JSON (${detail})`),
    );
  }
}

function isValidId(id: unknown): id is JsonRpcId {
  return id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
    case "number":
    case "boolean":
      return `${typeof value} ${String(value)}`;
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}
