import { invalidParams } from "./errors";

/**
 * The parameters of a node-style call (the exchange chain's `xvm.*`, `cvm.*`, `keystore.*`,
 * `info.*`, `auth.*`, `index.*`, ...): one object of named values, read the way the reference
 * node's JSON codec reads them:
 *
 * - the params member is an object, an array holding one object (what some clients send), or
 *   absent (no parameters); unknown fields are ignored;
 * - integers come as JSON numbers or as decimal strings (the node writes uint64s quoted and
 *   accepts both); `null` reads as absent;
 * - a value of the wrong type is refused with -32602 naming the field and what was expected.
 *
 * Nested objects (`startIndex`, `outputs[2]`) are read through the same class, so their errors
 * name the whole path ("outputs[2].amount must be ...").
 */
export class NamedParams {
  private constructor(
    /** The method being called, for messages. */
    readonly method: string,
    private readonly values: Readonly<Record<string, unknown>>,
    /** Where these values sit in the request ("" for the top level, "outputs[2]" below). */
    private readonly path: string,
  ) {}

  /** The named parameters of a call to `method`, from the request's params member as sent. */
  static of(params: unknown, method: string): NamedParams {
    return new NamedParams(method, namedObject(params, method), "");
  }

  /** The full name of a field, for messages: `amount`, `outputs[2].amount`. */
  nameOf(name: string): string {
    return this.path === "" ? name : `${this.path}.${name}`;
  }

  /** The value as sent (undefined when absent). */
  raw(name: string): unknown {
    return Object.prototype.hasOwnProperty.call(this.values, name) ? this.values[name] : undefined;
  }

  /** Whether the field is given: present and not null. */
  has(name: string): boolean {
    const value = this.raw(name);
    return value !== undefined && value !== null;
  }

  /** Whether the field is given with a value other than the empty string. */
  given(name: string): boolean {
    return this.has(name) && this.raw(name) !== "";
  }

  /** A required string: absent, null or "" is "missing parameter <name>" (or `missing` when given). */
  string(name: string, missing?: string): string {
    const value = this.optionalString(name);
    if (value === undefined) throw invalidParams(missing ?? `missing parameter ${this.nameOf(name)}`);
    return value;
  }

  /** An optional string: absent, null or "" reads as undefined. */
  optionalString(name: string): string | undefined {
    const value = this.stringOr(name, "");
    return value === "" ? undefined : value;
  }

  /** A string whose empty value means something (a memo, a name): absent or null gives `fallback`. */
  stringOr(name: string, fallback: string): string {
    if (!this.has(name)) return fallback;
    const value = this.raw(name);
    if (typeof value !== "string") throw this.wrongType(name, "a string", value);
    return value;
  }

  /**
   * One of `allowed` (compared without regard to case, as the node reads `encoding`); absent,
   * null or "" gives `fallback`.
   */
  choice<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.optionalString(name);
    if (value === undefined) return fallback;
    const lower = value.toLowerCase();
    const chosen = allowed.find((option) => option === lower);
    if (chosen === undefined) {
      throw invalidParams(`invalid ${this.nameOf(name)} ${describeValue(value)}: expected ${allowed.map((option) => JSON.stringify(option)).join(" or ")}`);
    }
    return chosen;
  }

  /** The names of the fields given, for parameters that are maps (genesis data keyed by asset alias). */
  fieldNames(): string[] {
    return Object.keys(this.values);
  }

  /** A list of strings; absent or null is the empty list. */
  stringArray(name: string): string[] {
    if (!this.has(name)) return [];
    const value = this.raw(name);
    if (!Array.isArray(value)) throw this.wrongType(name, "an array of strings", value);
    return value.map((item: unknown, i) => {
      if (typeof item !== "string") throw this.wrongType(`${name}[${i}]`, "a string", item);
      return item;
    });
  }

  /** A flag; absent or null is false. */
  boolean(name: string): boolean {
    if (!this.has(name)) return false;
    const value = this.raw(name);
    if (typeof value !== "boolean") throw this.wrongType(name, "true or false", value);
    return value;
  }

  /**
   * An unsigned integer of `bits` bits, as a JSON number or a decimal string. Absent or null
   * gives `fallback` when one is given, else "missing parameter <name>".
   */
  uint(name: string, bits: number, fallback?: bigint): bigint {
    const value = this.optionalUint(name, bits);
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    throw invalidParams(`missing parameter ${this.nameOf(name)}`);
  }

  /** An optional unsigned integer of `bits` bits (absent or null: undefined). */
  optionalUint(name: string, bits: number): bigint | undefined {
    if (!this.has(name)) return undefined;
    return parseUint(this.raw(name), this.nameOf(name), bits);
  }

  /** A nested object of named values; absent or null is undefined. */
  object(name: string): NamedParams | undefined {
    if (!this.has(name)) return undefined;
    const value = this.raw(name);
    if (!isPlainObject(value)) throw this.wrongType(name, "an object", value);
    return new NamedParams(this.method, value, this.nameOf(name));
  }

  /** A list of objects of named values; absent or null is the empty list. */
  objects(name: string, shape = "an object"): NamedParams[] {
    if (!this.has(name)) return [];
    const value = this.raw(name);
    if (!Array.isArray(value)) throw this.wrongType(name, `an array of ${shape.replace(/^an? /, "")}s`, value);
    return value.map((item: unknown, i) => {
      if (!isPlainObject(item)) throw this.wrongType(`${name}[${i}]`, shape, item);
      return new NamedParams(this.method, item, this.nameOf(`${name}[${i}]`));
    });
  }

  private wrongType(name: string, expected: string, value: unknown): Error {
    return invalidParams(`${this.nameOf(name)} must be ${expected}, got ${describeValue(value)}`);
  }
}

/**
 * The node's JSON integer (`json.Uint64` and friends): a non-negative integer as a JSON number
 * (up to 2^53 - 1, beyond which JSON numbers lose digits) or as a decimal string, below 2^bits.
 */
export function parseUint(value: unknown, name: string, bits: number): bigint {
  let n: bigint;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw invalidParams(`${name} must be a non-negative integer (as a number up to 2^53 - 1, or a decimal string), got ${value}`);
    }
    n = BigInt(value);
  } else if (typeof value === "string" && /^[0-9]+$/.test(value)) {
    n = BigInt(value);
  } else {
    throw invalidParams(`${name} must be a non-negative integer (a number or a decimal string such as "1000"), got ${describeValue(value)}`);
  }
  const limit = 1n << BigInt(bits);
  if (n >= limit) throw invalidParams(`${name} is ${n}, above the largest uint${bits} (${limit - 1n})`);
  return n;
}

/** A value as messages show it: strings quoted (and cut at 80 characters), other values by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The params member of a named-parameter call: an object, `[object]`, `[]`, `[null]` or nothing. */
function namedObject(params: unknown, method: string): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (Array.isArray(params)) {
    if (params.length === 0 || (params.length === 1 && (params[0] === undefined || params[0] === null))) return {};
    if (params.length === 1 && isPlainObject(params[0])) return params[0];
  } else if (isPlainObject(params)) {
    return params;
  }
  throw invalidParams(`${method} takes named parameters: send params as one object such as {"address": "X-..."}, got ${describeValue(params)}`);
}
