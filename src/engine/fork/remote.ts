/**
 * The remote node a fork reads from: JSON-RPC over HTTP with what public endpoints need from a
 * client. A request that times out, gets a 5xx or 429, or a rate-limit JSON-RPC error is retried
 * with exponential backoff (a 429's Retry-After is honoured); requests are spaced to stay under
 * a requests-per-second limit when one is set; identical requests in flight are sent once and
 * their answer shared. An answer that is not JSON-RPC is a ForkRemoteError naming the remote and
 * the call, never a value the state could be built from.
 */
import { ForkRemoteError } from "../errors";

/** What the fork needs of a remote: one JSON-RPC call at a time, answered or refused. */
export interface RemoteJsonRpc {
  /** The endpoint as people see it in messages (credentials and query removed). */
  readonly label: string;
  /** The remote's answer (`result`); a JSON-RPC error of the remote is a RemoteCallError. */
  call(method: string, params: readonly unknown[]): Promise<unknown>;
}

/** A JSON-RPC error the remote answered with: not a failure of the transport, so never retried (but rate limits). */
export class RemoteCallError extends Error {
  override readonly name = "RemoteCallError";
  constructor(
    readonly code: number,
    readonly remoteMessage: string,
    readonly data: unknown,
    message: string,
  ) {
    super(message);
  }
}

export interface HttpRemoteOptions {
  url: string;
  headers?: Readonly<Record<string, string>>;
  /** Per attempt, in milliseconds (default 20 000). */
  timeoutMs?: number;
  /** Attempts after the first (default 5). */
  retries?: number;
  /** The first backoff, doubled on each retry (default 500 ms, at most 16 s). */
  backoffMs?: number;
  /** At most this many requests started per second; absent or 0: no limit. */
  requestsPerSecond?: number;
  /** At most this many requests in flight at once (default 20, as Hardhat's fork). */
  maxConcurrent?: number;
  /** The fetch to use (tests); default the global one. */
  fetch?: typeof fetch;
}

const MAX_BACKOFF_MS = 16_000;

export class HttpRemote implements RemoteJsonRpc {
  readonly label: string;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private nextId = 1;
  /** When the next request may start, under the requests-per-second limit. */
  private nextSlot = 0;
  private running = 0;
  /** Requests waiting for one in flight to end (maxConcurrent). */
  private readonly waiting: (() => void)[] = [];
  /** Requests sent over the network (tests and the cold/warm figures count them). */
  requestsSent = 0;

  constructor(private readonly options: HttpRemoteOptions) {
    this.label = endpointLabel(options.url);
  }

  /** One attempt, no retries: whether the remote is there at all (an offline start asks this). */
  async probe(method: string, params: readonly unknown[]): Promise<unknown> {
    const outcome = await this.attempt(method, params);
    if (outcome.kind === "answer") return outcome.result;
    throw outcome.error;
  }

  call(method: string, params: readonly unknown[]): Promise<unknown> {
    const key = JSON.stringify([method, params]);
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;
    const request = this.callWithRetries(method, params).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, request);
    return request;
  }

  private async callWithRetries(method: string, params: readonly unknown[]): Promise<unknown> {
    const retries = this.options.retries ?? 5;
    let backoff = this.options.backoffMs ?? 500;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(method, params);
      if (outcome.kind === "answer") return outcome.result;
      if (outcome.kind === "fatal" || attempt >= retries) throw outcome.error;
      await sleep(outcome.retryAfterMs ?? backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }

  private async attempt(method: string, params: readonly unknown[]): Promise<Attempt> {
    if (this.running >= (this.options.maxConcurrent ?? 20)) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await this.send(method, params);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async send(method: string, params: readonly unknown[]): Promise<Attempt> {
    await this.waitForSlot();
    const where = `${this.label} (${method})`;
    const id = this.nextId++;
    let response: Response;
    try {
      this.requestsSent++;
      response = await (this.options.fetch ?? fetch)(this.options.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...this.options.headers },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 20_000),
      });
    } catch (error) {
      const reason = isTimeout(error) ? `no answer within ${this.options.timeoutMs ?? 20_000} ms` : errorText(error);
      // Nothing listening, or no such host: waiting will not change that (a reset connection might).
      const kind = /ECONNREFUSED|ENOTFOUND|bad port/.test(reason) ? "fatal" : "retry";
      return { kind, error: new ForkRemoteError(`fork remote ${where}: ${reason}`) };
    }
    const text = await response.text().catch(() => "");
    if (response.status === 429) {
      return { kind: "retry", error: new ForkRemoteError(`fork remote ${where}: rate limited (HTTP 429)`), retryAfterMs: retryAfter(response) };
    }
    if (response.status >= 500) return { kind: "retry", error: new ForkRemoteError(`fork remote ${where}: HTTP ${response.status}`) };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { kind: "fatal", error: new ForkRemoteError(`fork remote ${where}: answered HTTP ${response.status} with something that is not JSON: ${preview(text)}`) };
    }
    if (!isRecord(body) || body.jsonrpc !== "2.0" || !("result" in body || "error" in body)) {
      return { kind: "fatal", error: new ForkRemoteError(`fork remote ${where}: the answer is not a JSON-RPC response: ${preview(text)}`) };
    }
    if ("error" in body && body.error !== undefined && body.error !== null) {
      const rpcError = isRecord(body.error) ? body.error : {};
      const code = typeof rpcError.code === "number" ? rpcError.code : 0;
      const message = typeof rpcError.message === "string" ? rpcError.message : JSON.stringify(body.error);
      const error = new RemoteCallError(code, message, rpcError.data, `fork remote ${where}: ${message} (code ${code})`);
      return isRateLimit(code, message) ? { kind: "retry", error } : { kind: "fatal", error };
    }
    return { kind: "answer", result: body.result };
  }

  /** Spaces request starts 1/rps seconds apart (a token bucket of one: simple and predictable). */
  private async waitForSlot(): Promise<void> {
    const rps = this.options.requestsPerSecond;
    if (rps === undefined || rps <= 0) return;
    const now = Date.now();
    const start = Math.max(now, this.nextSlot);
    this.nextSlot = start + 1000 / rps;
    if (start > now) await sleep(start - now);
  }
}

type Attempt =
  | { kind: "answer"; result: unknown }
  | { kind: "retry"; error: Error; retryAfterMs?: number }
  | { kind: "fatal"; error: Error };

/** Providers signal rate limits with 429, -32005 ("limit exceeded") or -32090, or only in the message. */
function isRateLimit(code: number, message: string): boolean {
  return code === 429 || code === -32005 || code === -32090 || /rate.?limit|too many requests|exceeded.*(quota|capacity)/i.test(message);
}

function retryAfter(response: Response): number | undefined {
  const header = response.headers.get("retry-after");
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 60_000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.min(date - Date.now(), 60_000));
}

/** The URL without credentials or query (API keys often travel there). */
export function endpointLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return url;
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { message?: unknown; code?: unknown } }).cause;
  if (cause === undefined || cause === null) return error.message;
  const code = typeof cause.code === "string" ? cause.code : undefined;
  const message = typeof cause.message === "string" && cause.message !== "" ? cause.message : code;
  return `${error.message} (${message}${code !== undefined && message !== code && !String(message).includes(code) ? `, ${code}` : ""})`;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > 120 ? `${flat.slice(0, 120)}…` : flat);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
