/**
 * JSON values as they travel over the wire, and a parser that never loses integer precision.
 *
 * Nodes write uint64 fields (balances, amounts, heights, cursors) as decimal strings, but a few
 * send plain JSON numbers, and `JSON.parse` silently rounds integers above 2^53. The parser here
 * turns such integer literals into strings before parsing, so `12345678901234567890` reaches the
 * result readers as `"12345678901234567890"` and parses into the exact bigint.
 */

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** The `params` member of a JSON-RPC request: named (object) or positional (array). */
export type JsonRpcParams = JsonObject | readonly JsonValue[];

/**
 * `JSON.parse` that keeps every integer exactly: integer literals outside the safe range
 * (|n| > 2^53 - 1) become decimal strings. Throws `SyntaxError` for invalid JSON.
 */
export function parseJsonLossless(text: string): JsonValue {
  return JSON.parse(quoteUnsafeIntegers(text)) as JsonValue;
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;

function isDigit(code: number): boolean {
  return code >= DIGIT_0 && code <= DIGIT_9;
}

function isNumberChar(code: number): boolean {
  // digits, '.', 'e', 'E', '+', '-'
  return isDigit(code) || code === 46 || code === 101 || code === 69 || code === 43 || code === MINUS;
}

/** Wraps integer literals that are not safe integers in quotes; strings are left untouched. */
function quoteUnsafeIntegers(text: string): string {
  // Every integer of up to 15 digits is safe: most answers take this fast path.
  if (!/\d{16}/.test(text)) return text;
  let out = "";
  let copiedUpTo = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i += 2;
        else if (d === QUOTE) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (c === MINUS || isDigit(c)) {
      let j = c === MINUS ? i + 1 : i;
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      const integerEnd = j;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      if (j === integerEnd) {
        const token = text.slice(i, integerEnd);
        if (token !== "-" && !Number.isSafeInteger(Number(token))) {
          out += `${text.slice(copiedUpTo, i)}"${token}"`;
          copiedUpTo = integerEnd;
        }
      }
      i = j;
      continue;
    }
    i++;
  }
  return out + text.slice(copiedUpTo);
}

/** Drops the members whose value is `undefined`, so omitted optionals are not sent. */
export function compact(members: { readonly [key: string]: JsonValue | undefined }): JsonObject {
  const out: { [key: string]: JsonValue } = {};
  for (const [key, value] of Object.entries(members)) {
    if (value !== undefined) out[key] = value;
  }
  return out;
}
