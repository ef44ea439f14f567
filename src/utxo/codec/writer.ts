import { UINT64_MAX } from "../../encoding";
import { CodecError } from "./errors";

/**
 * Byte writer for the reference node's linear codec: integers big-endian, byte slices and
 * element slices prefixed by a uint32 count, strings by a uint16 byte length, fixed-size
 * arrays written raw. Every write checks its value and names the field (`path`) in errors.
 */

/** Largest slice length the reference codec writes or reads (Go's math.MaxInt32). */
export const MAX_SLICE_LENGTH = 0x7fff_ffff;
/** Largest string byte length (uint16 prefix). */
export const MAX_STRING_LENGTH = 0xffff;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const utf8 = new TextEncoder();

function encodeError(path: string, problem: string): never {
  throw new CodecError(`cannot encode ${path}: ${problem}`, { path });
}

function describe(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (Array.isArray(value)) return `array(${value.length})`;
  if (value === null) return "null";
  return typeof value === "object" ? "object" : `${typeof value} ${String(value)}`;
}

function checkUint(value: unknown, bits: 8 | 16 | 32, path: string): number {
  const max = 2 ** bits - 1;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max) {
    encodeError(path, `expected an integer in [0, ${max}] (uint${bits}), got ${describe(value)}`);
  }
  return value;
}

export class ByteWriter {
  private buffer: Uint8Array;
  private view: DataView;
  private length = 0;

  constructor(initialCapacity = 256) {
    this.buffer = new Uint8Array(initialCapacity);
    this.view = new DataView(this.buffer.buffer);
  }

  /** Number of bytes written so far. */
  get size(): number {
    return this.length;
  }

  /** Grow the buffer for `extra` more bytes; returns where they start. Callers must read `buffer`/`view` after this call. */
  private reserve(extra: number): number {
    const start = this.length;
    const needed = start + extra;
    if (needed > this.buffer.length) {
      let capacity = this.buffer.length * 2;
      while (capacity < needed) capacity *= 2;
      const next = new Uint8Array(capacity);
      next.set(this.buffer.subarray(0, start));
      this.buffer = next;
      this.view = new DataView(next.buffer);
    }
    this.length = needed;
    return start;
  }

  uint8(value: number, path: string): this {
    const v = checkUint(value, 8, path);
    const at = this.reserve(1);
    this.buffer[at] = v;
    return this;
  }

  uint16(value: number, path: string): this {
    const v = checkUint(value, 16, path);
    const at = this.reserve(2);
    this.view.setUint16(at, v, false);
    return this;
  }

  uint32(value: number, path: string): this {
    const v = checkUint(value, 32, path);
    const at = this.reserve(4);
    this.view.setUint32(at, v, false);
    return this;
  }

  uint64(value: bigint, path: string): this {
    if (typeof value !== "bigint" || value < 0n || value > UINT64_MAX) {
      encodeError(path, `expected a bigint in [0, 2^64 - 1] (uint64), got ${describe(value)}`);
    }
    const at = this.reserve(8);
    this.view.setBigUint64(at, value, false);
    return this;
  }

  /** A fixed-size array (ID, short ID, signature): written raw, the length must match exactly. */
  fixedBytes(value: Uint8Array, length: number, path: string): this {
    if (!(value instanceof Uint8Array)) encodeError(path, `expected a Uint8Array of ${length} bytes, got ${describe(value)}`);
    if (value.length !== length) encodeError(path, `expected ${length} bytes, got ${value.length}`);
    const at = this.reserve(length);
    this.buffer.set(value, at);
    return this;
  }

  /** A byte slice: uint32 length, then the bytes. */
  bytes(value: Uint8Array, path: string): this {
    if (!(value instanceof Uint8Array)) encodeError(path, `expected a Uint8Array, got ${describe(value)}`);
    this.count(value.length, path);
    const at = this.reserve(value.length);
    this.buffer.set(value, at);
    return this;
  }

  /** The uint32 element count that starts every slice. */
  count(length: number, path: string): this {
    if (length > MAX_SLICE_LENGTH) encodeError(path, `slice length ${length} exceeds the codec maximum ${MAX_SLICE_LENGTH}`);
    return this.uint32(length, path);
  }

  /** A slice of elements: uint32 count, then each element written by `write(element, index)`. */
  list<T>(values: readonly T[], path: string, write: (value: T, index: number) => void): this {
    if (!Array.isArray(values)) encodeError(path, `expected an array, got ${describe(values)}`);
    this.count(values.length, path);
    values.forEach(write);
    return this;
  }

  /** A string: uint16 byte length, then its UTF-8 bytes. */
  string(value: string, path: string): this {
    if (typeof value !== "string") encodeError(path, `expected a string, got ${describe(value)}`);
    if (LONE_SURROGATE.test(value)) encodeError(path, "string contains a lone UTF-16 surrogate (not encodable as UTF-8)");
    const encoded = utf8.encode(value);
    if (encoded.length > MAX_STRING_LENGTH) {
      encodeError(path, `string is ${encoded.length} bytes in UTF-8, the codec maximum is ${MAX_STRING_LENGTH}`);
    }
    this.uint16(encoded.length, path);
    const at = this.reserve(encoded.length);
    this.buffer.set(encoded, at);
    return this;
  }

  /** Copy of the bytes written so far. */
  finish(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}
