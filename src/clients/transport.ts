/**
 * JSON-RPC 2.0 over HTTP POST to a node's `/ext/...` paths, with the global `fetch`.
 *
 * ```ts
 * const transport = createTransport({ url: "http://127.0.0.1:9650" });
 * const { networkID } = await transport.call("/ext/info", "info.getNetworkID");
 * ```
 *
 * Every failure is a {@link NodeClientError} whose message names the method and what went wrong:
 * the node's error verbatim (`xvm.send failed: insufficient funds (code -32000)`), an HTTP status
 * (`HTTP 404 Not Found: nothing is served at /ext/bc/C/cvm …`), an unreachable node
 * (`cannot reach the node at http://127.0.0.1:9650 — is it running? …`) or a timeout.
 */
import {
  type CallContext,
  NodeApiError,
  NodeConnectionError,
  NodeHttpError,
  NodeResponseError,
  NodeTimeoutError,
} from "./errors";
import { PATHS } from "../network/paths";
import { type JsonObject, type JsonRpcParams, type JsonValue, parseJsonLossless } from "./json";

/** The `fetch` function used; the global one by default. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Default time a call may take before it fails with {@link NodeTimeoutError}: 30 s. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface TransportOptions {
  /**
   * Base URL of the node, without an API path: `http://127.0.0.1:9650` (a path prefix in front of
   * `/ext`, as some proxies use, is kept).
   */
  url: string;
  /** Replaces the global `fetch` (for proxies, custom agents, tests). */
  fetch?: FetchFunction;
  /** Time allowed for each call, in milliseconds, from sending to the end of the body. Default 30 000. */
  timeoutMs?: number;
  /** Extra HTTP headers sent with every call, e.g. `{ Authorization: "Bearer <token>" }`. */
  headers?: Readonly<Record<string, string>>;
}

export interface CallOptions {
  /** Overrides the transport's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Aborts the call; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** HTTP headers for this call, over the transport's (e.g. the `Authorization` of a token). */
  headers?: Readonly<Record<string, string>>;
}

/** Sends JSON-RPC calls to one node. Clients need only this interface, so it can be replaced. */
export interface Transport {
  /** Base URL of the node, without a trailing slash. */
  readonly url: string;
  /**
   * Posts `{ jsonrpc: "2.0", id, method, params }` to `url + path` and returns `result`.
   * `params` defaults to `{}`: the reference node rejects requests without a params member.
   */
  call(path: string, method: string, params?: JsonRpcParams, options?: CallOptions): Promise<JsonValue>;
}

/** Longest part of a response body kept in errors. */
const MAX_BODY_IN_ERROR = 1000;
/** Longest part of a response body quoted in an error message. */
const MAX_BODY_IN_MESSAGE = 200;

/** Creates a {@link Transport} for the node at `options.url`. */
export function createTransport(options: TransportOptions): Transport {
  const baseUrl = checkBaseUrl(options.url);
  const timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, "timeoutMs");
  const fetchFn: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const extraHeaders = { ...(options.headers ?? {}) };
  for (const [name, value] of Object.entries(extraHeaders)) {
    if (typeof value !== "string") {
      throw new TypeError(`createTransport: header ${JSON.stringify(name)} must be a string, got ${typeof value}`);
    }
  }
  let nextId = 1;
  const settings: TransportSettings = { baseUrl, timeoutMs, fetchFn, extraHeaders, takeId: () => nextId++ };
  return {
    url: baseUrl,
    call: (path, method, params = {}, callOptions = {}) => call(settings, path, method, params, callOptions),
  };
}

/** What every call of one transport shares. */
interface TransportSettings {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly fetchFn: FetchFunction;
  readonly extraHeaders: Readonly<Record<string, string>>;
  /** The next request id (taken once the call's arguments passed their checks). */
  takeId(): number;
}

/** An HTTP answer, read whole. */
interface HttpReply {
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string;
  readonly text: string;
}

/** {@link Transport.call}: posts one JSON-RPC request and returns its result. */
async function call(
  settings: TransportSettings,
  path: string,
  method: string,
  params: JsonRpcParams,
  callOptions: CallOptions,
): Promise<JsonValue> {
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw new TypeError(`transport.call: path must start with "/", got ${JSON.stringify(path)}`);
  }
  if (typeof method !== "string" || method === "") {
    throw new TypeError(`transport.call: method must be a non-empty string, got ${JSON.stringify(method)}`);
  }
  const limit = callOptions.timeoutMs === undefined ? settings.timeoutMs : checkTimeout(callOptions.timeoutMs, "timeoutMs");
  const url = settings.baseUrl + path;
  const context: CallContext = { method, path, url };
  const id = settings.takeId();
  const body = JSON.stringify({ jsonrpc: "2.0", id, method, params });

  const headers = new Headers({ "content-type": "application/json", accept: "application/json" });
  for (const [name, value] of Object.entries(settings.extraHeaders)) headers.set(name, value);
  for (const [name, value] of Object.entries(callOptions.headers ?? {})) headers.set(name, value);

  const reply = await post(settings, context, { headers, body }, limit, callOptions.signal);
  return readReply(context, id, reply);
}

/**
 * Posts `request` to `context.url` and reads the answer whole, within `limit` ms (else a
 * {@link NodeTimeoutError}); `external` aborts it with its own reason.
 */
async function post(
  settings: TransportSettings,
  context: CallContext,
  request: { readonly headers: Headers; readonly body: string },
  limit: number,
  external: AbortSignal | undefined,
): Promise<HttpReply> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limit);
  const onExternalAbort = () => controller.abort(external?.reason);
  if (external !== undefined) {
    if (external.aborted) {
      clearTimeout(timer);
      throw external.reason;
    }
    external.addEventListener("abort", onExternalAbort, { once: true });
  }

  try {
    const response = await settings.fetchFn(context.url, { method: "POST", ...request, signal: controller.signal });
    const status = response.status;
    const statusText = response.statusText;
    const contentType = response.headers.get("content-type") ?? "";
    return { status, statusText, contentType, text: await response.text() };
  } catch (thrown) {
    if (timedOut) {
      throw new NodeTimeoutError(context, `no answer from the node at ${settings.baseUrl} within ${limit} ms (timeoutMs)`, limit);
    }
    if (external?.aborted) throw external.reason;
    throw connectionError(context, settings.baseUrl, thrown);
  } finally {
    clearTimeout(timer);
    external?.removeEventListener("abort", onExternalAbort);
  }
}

/** The result of the JSON-RPC response in `reply`; throws the error it carries or why it is not one. */
function readReply(context: CallContext, id: number, reply: HttpReply): JsonValue {
  const { status, statusText, contentType, text } = reply;
  let message: JsonValue | undefined;
  let parseProblem: string | undefined;
  try {
    message = text.trim() === "" ? undefined : parseJsonLossless(text);
    if (message === undefined) parseProblem = "an empty body";
  } catch {
    parseProblem = `something that is not JSON${contentType === "" ? "" : ` (${contentType})`}: ${quote(text)}`;
  }

  if (status < 200 || status > 299) {
    throw httpError(context, { status, statusText, text, message });
  }
  if (parseProblem !== undefined || message === undefined) {
    throw new NodeResponseError(
      context,
      `the server at ${context.url} answered with ${parseProblem ?? "nothing"}; is this a node's API endpoint?`,
    );
  }
  if (Array.isArray(message) || typeof message !== "object" || message === null) {
    throw new NodeResponseError(context, `expected a JSON-RPC response object, got ${quote(text)}`);
  }
  const response = message as JsonObject;
  const rpcError = readRpcError(response.error);
  if (rpcError !== undefined) throw new NodeApiError(context, rpcError);
  if (response.id !== undefined && response.id !== null && response.id !== id) {
    throw new NodeResponseError(
      context,
      `the response id ${JSON.stringify(response.id)} does not match the request id ${id}`,
    );
  }
  if (!("result" in response)) {
    throw new NodeResponseError(context, `the response has neither "result" nor a valid "error": ${quote(text)}`);
  }
  return response.result!;
}

function checkBaseUrl(url: unknown): string {
  if (typeof url !== "string" || url === "") {
    throw new TypeError(`createTransport: url must be the node's base URL, e.g. "http://127.0.0.1:9650"; got ${JSON.stringify(url)}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`createTransport: url ${JSON.stringify(url)} is not a valid URL (expected e.g. "http://127.0.0.1:9650")`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`createTransport: url must use http: or https:, got ${JSON.stringify(url)}`);
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    throw new TypeError(`createTransport: url must not carry a query or fragment, got ${JSON.stringify(url)}`);
  }
  const base = `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, "");
  const apiAt = base.indexOf("/ext/");
  if (apiAt !== -1 || base.endsWith("/ext")) {
    throw new TypeError(
      `createTransport: url must be the node's base URL without an API path, e.g. ${JSON.stringify(base.slice(0, apiAt === -1 ? base.length - 4 : apiAt))}; got ${JSON.stringify(url)}`,
    );
  }
  return base;
}

function checkTimeout(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number of milliseconds, got ${String(value)}`);
  }
  return value;
}

function quote(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(oneLine.length > MAX_BODY_IN_MESSAGE ? `${oneLine.slice(0, MAX_BODY_IN_MESSAGE)}...` : oneLine);
}

/** The error member of a response, when it is a JSON-RPC error object. */
function readRpcError(value: JsonValue | undefined): { code: number; message: string; data?: JsonValue } | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const error = value as JsonObject;
  const code = error.code;
  const message = error.message;
  if (typeof code !== "number" || typeof message !== "string") return undefined;
  return error.data === undefined ? { code, message } : { code, message, data: error.data };
}

/** The `code` of a system error, possibly nested in `cause` (undici wraps them in "fetch failed"). */
function systemErrorOf(thrown: unknown): { code: string | undefined; message: string } {
  let current: unknown = thrown;
  let message = thrown instanceof Error ? thrown.message : String(thrown);
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof candidate.code === "string") {
      return { code: candidate.code, message: typeof candidate.message === "string" ? candidate.message : message };
    }
    // Connecting to "localhost" may try several addresses and fail with an AggregateError.
    if (Array.isArray(candidate.errors) && candidate.errors.length > 0) {
      current = candidate.errors[0];
      continue;
    }
    if (typeof candidate.message === "string" && candidate.message !== "") message = candidate.message;
    current = candidate.cause;
  }
  return { code: undefined, message };
}

function connectionError(context: CallContext, baseUrl: string, thrown: unknown): NodeConnectionError {
  const { code, message } = systemErrorOf(thrown);
  let hint: string;
  switch (code) {
    case "ECONNREFUSED":
      hint = "is it running?";
      break;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      hint = "the host name does not resolve";
      break;
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      hint = "the connection was closed before an answer arrived";
      break;
    default:
      hint = "is it running, and is the URL right?";
  }
  const suffix = message === "" || message === "fetch failed" ? (code === undefined ? "" : ` (${code})`) : ` (${message})`;
  return new NodeConnectionError(context, `cannot reach the node at ${baseUrl} — ${hint}${suffix}`, baseUrl, code, thrown);
}

function httpError(
  context: CallContext,
  response: { status: number; statusText: string; text: string; message: JsonValue | undefined },
): NodeHttpError {
  const { status, statusText, text, message } = response;
  const rpcError =
    typeof message === "object" && message !== null && !Array.isArray(message)
      ? readRpcError((message as JsonObject).error)
      : undefined;
  const head = `HTTP ${status}${statusText === "" ? "" : ` ${statusText}`}`;
  const parts: string[] = [];
  if (status === 404) {
    parts.push(`${head}: nothing is served at ${context.path} (${context.url})`);
    const hint = notFoundHint(context.path, servedPathsOf(rpcError?.data));
    if (hint !== undefined) parts.push(hint);
  } else if (status === 401 || status === 403) {
    parts.push(
      `${head}: the node refused the call; a node started with --api-auth-required needs ` +
        `headers: { Authorization: "Bearer <token>" } with a token valid for ${context.path}`,
    );
  } else {
    parts.push(`${head} from ${context.url}`);
  }
  if (rpcError !== undefined) parts.push(`the node said: ${rpcError.message} (code ${rpcError.code})`);
  else if (text.trim() !== "") parts.push(`body: ${quote(text)}`);
  return new NodeHttpError(context, parts.join("; "), {
    status,
    statusText,
    body: text.length > MAX_BODY_IN_ERROR ? text.slice(0, MAX_BODY_IN_ERROR) : text,
    rpcError,
  });
}

/** The `servedPaths` a node listed in the data of its 404 error (the simulator does), if any. */
function servedPathsOf(data: JsonValue | undefined): string[] | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const served = (data as JsonObject).servedPaths;
  return Array.isArray(served) && served.every((p) => typeof p === "string") ? (served as string[]) : undefined;
}

/**
 * Suggests the other naming when a namespace-specific path is missing: always for a node that
 * does not say what it serves, and only when the other path is served for one that does.
 */
function notFoundHint(path: string, served: string[] | undefined): string | undefined {
  const nativekit = /^(\/ext\/bc\/[^/]+\/)cvm$/.exec(path);
  const reference = /^(\/ext\/bc\/[^/]+\/)avax$/.exec(path);
  let other: string | undefined;
  let naming: "nativekit" | "reference" | undefined;
  if (nativekit !== null || path === PATHS.exchangeStaticSeed) {
    other = nativekit !== null ? `${nativekit[1]}avax` : PATHS.exchangeStaticReference;
    naming = "reference";
  } else if (reference !== null || path === PATHS.exchangeStaticReference) {
    other = reference !== null ? `${reference[1]}cvm` : PATHS.exchangeStaticSeed;
    naming = "nativekit";
  }
  if (other !== undefined && naming !== undefined && (served === undefined || served.includes(other))) {
    return naming === "reference"
      ? `a reference node serves this API as avm/avax (at ${other}): create the client with naming: "reference"`
      : `nativekit names this API xvm/cvm (at ${other}): create the client with naming: "nativekit"`;
  }
  if (path === PATHS.keystore && served === undefined) return "the keystore API may be disabled on this node";
  return undefined;
}
