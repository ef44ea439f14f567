/**
 * Reading and writing the small records domains keep in the durable store (users, atomic
 * elements, transaction records): JSON objects whose byte strings are hex. A record that does
 * not read as expected is a {@link DamagedRecordError} naming its key: a store is never half
 * trusted, so loaders stop there rather than skip it.
 */

/** A stored record that cannot be read; `key` is its key in the domain's namespace. */
export class DamagedRecordError extends Error {
  override readonly name = "DamagedRecordError";
  constructor(
    readonly key: string,
    readonly detail: string,
  ) {
    super(`the stored record "${key}" is damaged: ${detail}`);
  }
}

export type RecordValue = string | number | boolean | null | readonly RecordValue[] | { readonly [field: string]: RecordValue | undefined };

/** Lowercase hex digits (the even count is checked apart: a pair-repeating pattern overflows on long text). */
const HEX_DIGITS = /^[0-9a-f]*$/;

export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

/** The bytes of a record (`undefined` fields are left out). */
export function encodeRecord(fields: { readonly [field: string]: RecordValue | undefined }): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(fields));
}

/** Runs `read`; a failure other than DamagedRecordError becomes one naming `key`. */
export function readingRecord<T>(key: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof DamagedRecordError) throw error;
    throw new DamagedRecordError(key, error instanceof Error ? error.message : String(error));
  }
}

/** The fields of one record, each read with the type it must have. */
export class RecordReader {
  private constructor(
    readonly key: string,
    private readonly fields: Record<string, unknown>,
    private readonly path: string,
  ) {}

  /** Parses the record stored under `key`. */
  static of(key: string, bytes: Uint8Array): RecordReader {
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new DamagedRecordError(key, "it is not a JSON record");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new DamagedRecordError(key, "it is not a JSON object");
    return new RecordReader(key, parsed as Record<string, unknown>, "");
  }

  fail(detail: string): never {
    throw new DamagedRecordError(this.key, detail);
  }

  private field(name: string): unknown {
    return this.fields[name];
  }

  private expected(name: string, what: string): never {
    return this.fail(`field ${this.path}${name} must be ${what}`);
  }

  has(name: string): boolean {
    return this.field(name) !== undefined;
  }

  string(name: string): string {
    const value = this.field(name);
    return typeof value === "string" ? value : this.expected(name, "a string");
  }

  /** A non-negative safe integer. */
  count(name: string): number {
    const value = this.field(name);
    return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : this.expected(name, "a non-negative integer");
  }

  /** A non-negative integer written as a decimal string (amounts, heights). */
  bigint(name: string): bigint {
    const value = this.field(name);
    return typeof value === "string" && /^(0|[1-9][0-9]*)$/.test(value) ? BigInt(value) : this.expected(name, "a decimal integer string");
  }

  boolean(name: string): boolean {
    const value = this.field(name);
    return typeof value === "boolean" ? value : this.expected(name, "true or false");
  }

  /** Bytes written as lowercase hex, of `length` bytes when given. */
  bytes(name: string, length?: number): Uint8Array {
    return this.hexBytes(this.field(name), name, length);
  }

  bytesList(name: string, length?: number): Uint8Array[] {
    const value = this.field(name);
    if (!Array.isArray(value)) return this.expected(name, "a list of hex strings");
    return value.map((item, i) => this.hexBytes(item, `${name}[${i}]`, length));
  }

  /** A list of nested records. */
  list(name: string): RecordReader[] {
    const value = this.field(name);
    if (!Array.isArray(value)) return this.expected(name, "a list of objects");
    return value.map((item, i) => {
      if (item === null || typeof item !== "object" || Array.isArray(item)) return this.expected(`${name}[${i}]`, "an object");
      return new RecordReader(this.key, item as Record<string, unknown>, `${this.path}${name}[${i}].`);
    });
  }

  private hexBytes(value: unknown, name: string, length: number | undefined): Uint8Array {
    if (typeof value !== "string" || value.length % 2 !== 0 || !HEX_DIGITS.test(value)) return this.expected(name, "lowercase hex");
    const bytes = new Uint8Array(Buffer.from(value, "hex"));
    if (length !== undefined && bytes.length !== length) return this.expected(name, `${length} bytes`);
    return bytes;
  }
}
