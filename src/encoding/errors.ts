/**
 * Errors raised by the encoding layer. Every message says what was wrong with which input
 * and, where it helps, what was expected, e.g.
 * `invalid cb58 string "abc": checksum mismatch (expected 0x..., got 0x...)`.
 */
export class EncodingError extends Error {
  override readonly name = "EncodingError";
  /** The problem alone, without the "invalid <what> <input>: " preamble. */
  readonly detail: string;

  constructor(message: string, options?: { cause?: unknown; detail?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.detail = options?.detail ?? message;
  }
}

const MAX_SHOWN_CHARS = 120;

/**
 * Render an arbitrary input for an error message: strings are quoted (and shortened when
 * long), bigints are shown in decimal, byte arrays by their length.
 * @internal
 */
export function describeInput(value: unknown): string {
  if (typeof value === "string") {
    const shown = value.length > MAX_SHOWN_CHARS ? `${value.slice(0, MAX_SHOWN_CHARS)}...` : value;
    const suffix = value.length > MAX_SHOWN_CHARS ? ` (${value.length} characters)` : "";
    return `${JSON.stringify(shown)}${suffix}`;
  }
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (value === null) return "null";
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === "number" || typeof value === "boolean" || value === undefined) {
    return `${typeof value} ${String(value)}`;
  }
  return typeof value;
}

/** @internal */
export function fail(what: string, value: unknown, problem: string, cause?: unknown): never {
  throw new EncodingError(`invalid ${what} ${describeInput(value)}: ${problem}`, {
    cause,
    detail: problem,
  });
}
