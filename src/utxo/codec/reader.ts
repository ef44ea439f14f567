import { CodecError } from "./errors";
import { MAX_SLICE_LENGTH } from "./writer";

/**
 * Byte reader for the reference node's linear codec (the counterpart of ByteWriter). Every
 * read is bounds-checked; errors name the offset, the primitive and the field, e.g.
 * `unexpected end of input at offset 12 reading uint64 (BaseTx.inputs[0].input.amount): need 8 bytes, 4 remain`.
 */

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export class ByteReader {
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private position = 0;

  constructor(bytes: Uint8Array) {
    if (!(bytes instanceof Uint8Array)) {
      throw new CodecError(`cannot decode: expected a Uint8Array, got ${bytes === null ? "null" : typeof bytes}`, { path: "" });
    }
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Offset of the next byte to read. */
  get offset(): number {
    return this.position;
  }

  /** Bytes not read yet. */
  get remaining(): number {
    return this.bytes.length - this.position;
  }

  /** Error at the current offset (or at `offset`). */
  fail(path: string, problem: string, offset: number = this.position): never {
    throw new CodecError(`${problem} at offset ${offset} (${path})`, { path, offset });
  }

  private take(length: number, kind: string, path: string): number {
    const start = this.position;
    if (length > this.remaining) {
      throw new CodecError(
        `unexpected end of input at offset ${start} reading ${kind} (${path}): need ${length} bytes, ${this.remaining} remain`,
        { path, offset: start },
      );
    }
    this.position = start + length;
    return start;
  }

  uint8(path: string): number {
    return this.bytes[this.take(1, "uint8", path)]!;
  }

  uint16(path: string): number {
    return this.view.getUint16(this.take(2, "uint16", path), false);
  }

  uint32(path: string): number {
    return this.view.getUint32(this.take(4, "uint32", path), false);
  }

  uint64(path: string): bigint {
    return this.view.getBigUint64(this.take(8, "uint64", path), false);
  }

  /** A fixed-size array read raw (a copy). */
  fixedBytes(length: number, path: string): Uint8Array {
    const start = this.take(length, `[${length}]byte`, path);
    return this.bytes.slice(start, start + length);
  }

  /**
   * The uint32 element count of a slice (at most the codec maximum). Elements are then read
   * one at a time, so a count the input cannot hold fails at the first missing element,
   * without allocating for the declared count.
   */
  count(path: string): number {
    const start = this.position;
    const n = this.uint32(`${path} length`);
    if (n > MAX_SLICE_LENGTH) this.fail(path, `slice length ${n} exceeds the codec maximum ${MAX_SLICE_LENGTH}`, start);
    return n;
  }

  /** A byte slice: uint32 length, then that many bytes. */
  bytesWithLength(path: string): Uint8Array {
    return this.fixedBytes(this.count(path), path);
  }

  /** A slice of elements, each read by `read(index)`. */
  list<T>(path: string, read: (index: number) => T): T[] {
    const n = this.count(path);
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(read(i));
    return out;
  }

  /** A string: uint16 byte length, then UTF-8 bytes (rejected when not valid UTF-8). */
  string(path: string): string {
    const n = this.uint16(`${path} length`);
    const start = this.position;
    const raw = this.fixedBytes(n, path);
    try {
      return utf8.decode(raw);
    } catch {
      return this.fail(path, `string of ${n} bytes is not valid UTF-8`, start);
    }
  }

  /** Reject unread bytes after a complete structure. */
  end(what: string): void {
    if (this.remaining !== 0) {
      throw new CodecError(
        `trailing bytes after ${what}: ${this.remaining} unread byte(s) at offset ${this.position} (input is ${this.bytes.length} bytes)`,
        { path: what, offset: this.position },
      );
    }
  }
}
