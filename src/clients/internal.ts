/**
 * The typed edges of a call, shared by the clients: {@link Args} checks and serializes a
 * method's arguments, {@link Reader} reads its result. @internal — not part of the public API.
 */
import { UINT64_MAX } from "../encoding";
import { type ByteEncoding, encodeNodeBytes } from "./bytes";
import { type CallContext, NodeResponseError } from "./errors";
import type { JsonObject, JsonValue } from "./json";

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

  /** The `encoding` member of this result, one of `allowed`; `fallback` when the node sends none. */
  encodingMember<E extends string>(allowed: readonly E[], fallback: E): E {
    return this.maybe("encoding")?.encoding(allowed, fallback) ?? fallback;
  }
}
