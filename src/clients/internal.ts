/**
 * Helpers shared by the clients: argument checks and serialization, typed reading of results,
 * status polling. @internal — not part of the public API.
 */
import { type CallContext, NodeResponseError, TxRejectedError, TxWaitTimeoutError } from "./errors";
import type { JsonObject, JsonRpcParams, JsonValue } from "./json";
import type { CallOptions, Transport } from "./transport";
import type { ByteEncoding } from "./bytes";
import { encodeNodeBytes } from "./bytes";
import { UINT64_MAX } from "../encoding";

// ---------------------------------------------------------------- arguments

/** Checks arguments of one method; errors are `TypeError` / `RangeError` naming the method. */
export class Args {
  constructor(readonly method: string) {}

  private describe(value: unknown): string {
    if (typeof value === "bigint") return `${value}n`;
    if (typeof value === "string") return JSON.stringify(value);
    if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
    if (Array.isArray(value)) return "an array";
    if (value === null) return "null";
    if (value === undefined) return "nothing";
    return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
  }

  type(name: string, expected: string, value: unknown): never {
    throw new TypeError(`${this.method}: ${name} must be ${expected}, got ${this.describe(value)}`);
  }

  object<T>(value: T, name = "parameters"): T {
    if (typeof value !== "object" || value === null || Array.isArray(value)) this.type(name, "an object", value);
    return value;
  }

  string(value: unknown, name: string): string {
    if (typeof value !== "string") this.type(name, "a string", value);
    return value;
  }

  nonEmptyString(value: unknown, name: string): string {
    if (typeof value !== "string" || value === "") this.type(name, "a non-empty string", value);
    return value;
  }

  optionalString(value: unknown, name: string): string | undefined {
    return value === undefined ? undefined : this.string(value, name);
  }

  stringArray(value: unknown, name: string, options: { nonEmpty?: boolean } = {}): string[] {
    if (!Array.isArray(value)) this.type(name, "an array of strings", value);
    const list = value as unknown[];
    if (options.nonEmpty === true && list.length === 0) {
      throw new RangeError(`${this.method}: ${name} must list at least one entry`);
    }
    return list.map((item, i) => this.string(item, `${name}[${i}]`));
  }

  optionalStringArray(value: unknown, name: string): string[] | undefined {
    return value === undefined ? undefined : this.stringArray(value, name);
  }

  boolean(value: unknown, name: string): boolean {
    if (typeof value !== "boolean") this.type(name, "a boolean", value);
    return value;
  }

  optionalBoolean(value: unknown, name: string): boolean | undefined {
    return value === undefined ? undefined : this.boolean(value, name);
  }

  /** A uint64 amount, written as a decimal string (the node's json.Uint64 accepts it exactly). */
  uint64(value: unknown, name: string): string {
    if (typeof value !== "bigint") this.type(name, "a bigint", value);
    if (value < 0n || value > UINT64_MAX) {
      throw new RangeError(`${this.method}: ${name} must be from 0 to 2^64-1, got ${value}`);
    }
    return value.toString();
  }

  optionalUint64(value: unknown, name: string): string | undefined {
    return value === undefined ? undefined : this.uint64(value, name);
  }

  /** A small integer (count, threshold, denomination, network ID), written as a JSON number. */
  integer(value: unknown, name: string, min: number, max: number): number {
    if (typeof value !== "number" || !Number.isInteger(value)) this.type(name, "an integer", value);
    if (value < min || value > max) {
      throw new RangeError(`${this.method}: ${name} must be from ${min} to ${max}, got ${value}`);
    }
    return value;
  }

  optionalInteger(value: unknown, name: string, min: number, max: number): number | undefined {
    return value === undefined ? undefined : this.integer(value, name, min, max);
  }

  encoding<E extends string>(value: unknown, name: string, allowed: readonly E[]): E | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
      this.type(name, allowed.map((e) => JSON.stringify(e)).join(" or "), value);
    }
    return value as E;
  }

  /**
   * Byte values given as an encoded string (sent as is, with `encoding` if given) or as bytes
   * (encoded here in `encoding`, hex when none is given, and the encoding is then always sent).
   */
  bytes(
    value: unknown,
    name: string,
    encoding: ByteEncoding | undefined,
  ): { text: string; encoding: ByteEncoding | undefined } {
    if (typeof value === "string") return { text: value, encoding };
    if (value instanceof Uint8Array) {
      const chosen = encoding ?? "hex";
      return { text: encodeNodeBytes(value, chosen), encoding: chosen };
    }
    return this.type(name, "an encoded string or a Uint8Array", value);
  }

  credentials(value: unknown): { username: string; password: string } {
    if (typeof value !== "object" || value === null) this.type("credentials", "{ username, password }", value);
    const { username, password } = value as { username?: unknown; password?: unknown };
    return {
      username: this.string(username, "credentials.username"),
      password: this.string(password, "credentials.password"),
    };
  }

  /** The optional `from` / `changeAddr` members of spending methods. */
  spend(value: { from?: unknown; changeAddr?: unknown }): { from?: string[]; changeAddr?: string } {
    const from = this.optionalStringArray(value.from, "from");
    const changeAddr = this.optionalString(value.changeAddr, "changeAddr");
    return { ...(from === undefined ? {} : { from }), ...(changeAddr === undefined ? {} : { changeAddr }) };
  }
}

// ---------------------------------------------------------------- results

/** Reads one value of a result, reporting type problems as {@link NodeResponseError}. */
export class Reader {
  constructor(
    readonly context: CallContext,
    readonly value: JsonValue | undefined,
    readonly where: string,
  ) {}

  fail(expected: string): never {
    const got = this.value === undefined ? "nothing" : JSON.stringify(this.value);
    const shown = got.length > 120 ? `${got.slice(0, 120)}...` : got;
    throw new NodeResponseError(this.context, `unexpected answer from the node: ${this.where} must be ${expected}, got ${shown}`);
  }

  /** The member `key` of this object (possibly absent: then reading it fails, naming it). */
  get(key: string): Reader {
    const object = this.object();
    return new Reader(this.context, Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined, `${this.where}.${key}`);
  }

  /** The member `key`, or `undefined` when it is absent or null. */
  maybe(key: string): Reader | undefined {
    const member = this.get(key);
    return member.value === undefined || member.value === null ? undefined : member;
  }

  /** The first of `keys` present (for fields whose spelling varies between nodes). */
  first(...keys: string[]): Reader {
    for (const key of keys) {
      const member = this.maybe(key);
      if (member !== undefined) return member;
    }
    return this.get(keys[0]!);
  }

  object(): JsonObject {
    if (typeof this.value !== "object" || this.value === null || Array.isArray(this.value)) this.fail("an object");
    return this.value as JsonObject;
  }

  string(): string {
    if (typeof this.value !== "string") this.fail("a string");
    return this.value as string;
  }

  boolean(): boolean {
    if (typeof this.value !== "boolean") this.fail("a boolean");
    return this.value as boolean;
  }

  array(): Reader[] {
    if (!Array.isArray(this.value)) this.fail("an array");
    return (this.value as readonly JsonValue[]).map((item, i) => new Reader(this.context, item, `${this.where}[${i}]`));
  }

  stringArray(): string[] {
    return this.array().map((item) => item.string());
  }

  /** A uint64 written as a decimal string or a JSON number (both are common). */
  uint64(): bigint {
    const value = this.value;
    let parsed: bigint | undefined;
    if (typeof value === "string" && /^[0-9]{1,20}$/.test(value)) parsed = BigInt(value);
    else if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) parsed = BigInt(value);
    if (parsed === undefined || parsed > UINT64_MAX) this.fail("a uint64 (a decimal string or a non-negative integer)");
    return parsed;
  }

  /** A count or small integer (numFetched, denomination, outputIndex, network ID) as a number. */
  count(): number {
    const value = this.value;
    let parsed: number | undefined;
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) parsed = value;
    else if (typeof value === "string" && /^[0-9]{1,15}$/.test(value)) parsed = Number(value);
    if (parsed === undefined) this.fail("a non-negative integer (a number or a decimal string)");
    return parsed;
  }

  /** An EVM hex quantity (`0x…`), as returned by `eth_*` methods. */
  quantity(): bigint {
    const value = this.value;
    if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) this.fail("a hex quantity (0x…)");
    return BigInt(value);
  }

  /** One of `allowed`. */
  oneOf<T extends string>(allowed: readonly T[]): T {
    const value = this.value;
    if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
      this.fail(`one of ${allowed.join(", ")}`);
    }
    return value as T;
  }

  /** An encoding echoed by the node; falls back to `fallback` when the node sends none. */
  encoding<E extends string>(allowed: readonly E[], fallback: E): E {
    if (this.value === undefined || this.value === null || this.value === "") return fallback;
    return this.oneOf(allowed);
  }
}

/** One JSON-RPC call whose result is read by `read`. */
export async function invoke<T>(
  transport: Transport,
  path: string,
  method: string,
  params: JsonRpcParams,
  read: (result: Reader) => T,
  options?: CallOptions,
): Promise<T> {
  const result = await transport.call(path, method, params, options);
  return read(new Reader({ method, path, url: transport.url + path }, result, "result"));
}

// ---------------------------------------------------------------- polling

export interface WaitOptions<S extends string> {
  /** Give up after this many milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** Time between two polls, in milliseconds. Default 500. */
  intervalMs?: number;
  /** Called with the first status seen and with every change. */
  onStatus?: (status: S) => void;
  /** Stops waiting; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 60_000;
export const DEFAULT_WAIT_INTERVAL_MS = 500;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Polls `poll` until its status is `accepted` (returns that reply), one of `failed` (throws
 * {@link TxRejectedError}) or the time is up (throws {@link TxWaitTimeoutError} with the last
 * status). A last poll happens at the deadline.
 */
export async function waitForStatus<S extends string, R extends { status: S }>(args: {
  waiter: string;
  context: CallContext;
  txID: string;
  poll: () => Promise<R>;
  accepted: S;
  failed: readonly S[];
  options: WaitOptions<S> | undefined;
}): Promise<R> {
  const options = args.options ?? {};
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_WAIT_INTERVAL_MS;
  if (typeof timeoutMs !== "number" || !(timeoutMs >= 0) || !Number.isFinite(timeoutMs)) {
    throw new RangeError(`${args.waiter}: timeoutMs must be a non-negative number, got ${String(timeoutMs)}`);
  }
  if (typeof intervalMs !== "number" || !(intervalMs > 0) || !Number.isFinite(intervalMs)) {
    throw new RangeError(`${args.waiter}: intervalMs must be a positive number, got ${String(intervalMs)}`);
  }
  const context = { ...args.context, waiter: args.waiter };
  const deadline = Date.now() + timeoutMs;
  let last: S | undefined;
  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason;
    const reply = await args.poll();
    if (reply.status !== last) {
      last = reply.status;
      options.onStatus?.(reply.status);
    }
    if (reply.status === args.accepted) return reply;
    if (args.failed.includes(reply.status)) throw new TxRejectedError(context, args.txID, reply.status);
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new TxWaitTimeoutError(context, args.txID, last, timeoutMs);
    await sleep(Math.min(intervalMs, remaining), options.signal);
  }
}
