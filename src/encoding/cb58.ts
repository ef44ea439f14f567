import { base58 } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";
import { EncodingError, fail } from "./errors";
import { bytesToHex, hexToBytes } from "./hex";

/** Number of checksum bytes appended by cb58: the last 4 bytes of sha256(payload). */
export const CB58_CHECKSUM_LENGTH = 4;

/**
 * Largest payload cb58 handles here (256 KiB, far above any ID, key, UTXO or transaction).
 * base58 conversion is superlinear, so the bound keeps hostile input cheap to reject.
 */
export const CB58_MAX_PAYLOAD_BYTES = 256 * 1024;

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

/** Inputs up to these sizes go through @scure/base; larger ones through the bigint path. */
const SCURE_MAX_BYTES = 2048;
const SCURE_MAX_CHARS = 4096;
/** Upper bound on the base58 length of CB58_MAX_PAYLOAD_BYTES + checksum (log 256 / log 58 < 1.3658). */
const MAX_CHARS = Math.ceil((CB58_MAX_PAYLOAD_BYTES + CB58_CHECKSUM_LENGTH) * 1.3658) + 1;

function checksumOf(payload: Uint8Array): Uint8Array {
  return sha256(payload).subarray(32 - CB58_CHECKSUM_LENGTH);
}

/** Chunk of 9 base58 digits: 58^9 < 2^53, so a chunk fits exactly in a float64. */
const CHUNK_DIGITS = 9;
const CHUNK_BASE = 58n ** BigInt(CHUNK_DIGITS);

/** CHUNK_BASE^(2^i) for i = 0..; grown on demand. */
const chunkPowers: bigint[] = [CHUNK_BASE];
function chunkPower(level: number): bigint {
  while (chunkPowers.length <= level) {
    const last = chunkPowers[chunkPowers.length - 1]!;
    chunkPowers.push(last * last);
  }
  return chunkPowers[level]!;
}

/**
 * base58 (Bitcoin alphabet) for inputs of any size, by divide-and-conquer on bigints.
 * Same output as @scure/base, which caps its input at 2 KiB.
 * @internal exported for tests
 */
export function base58EncodeLarge(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  if (zeros === bytes.length) return "1".repeat(zeros);
  const value = BigInt(bytesToHex(bytes.subarray(zeros)));
  let level = 0;
  while (chunkPower(level) * chunkPower(level) <= value) level++;
  const chunks: string[] = [];
  // Emit the digits of `v` (< CHUNK_BASE^(2^(level+1))): exactly 9 * 2^(level+1) of them when
  // `pad`, otherwise without leading zeros.
  const emit = (v: bigint, lvl: number, pad: boolean): void => {
    if (lvl < 0) {
      let n = Number(v);
      let text = "";
      for (let k = 0; k < CHUNK_DIGITS && (pad || n > 0); k++) {
        text = ALPHABET[n % 58]! + text;
        n = Math.floor(n / 58);
      }
      chunks.push(text);
      return;
    }
    const power = chunkPower(lvl);
    const high = v / power;
    const low = v - high * power;
    if (!pad && high === 0n) {
      emit(low, lvl - 1, false);
    } else {
      emit(high, lvl - 1, pad);
      emit(low, lvl - 1, true);
    }
  };
  emit(value, level, false);
  return "1".repeat(zeros) + chunks.join("");
}

/**
 * Inverse of base58EncodeLarge; `text` must already be known to hold only base58 digits.
 * @internal exported for tests
 */
export function base58DecodeLarge(text: string): Uint8Array {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* "1" */) zeros++;
  if (zeros === text.length) return new Uint8Array(zeros);
  // Value of text[start, end), where end - start <= 9 * 2^(level+1).
  const valueOf = (start: number, end: number, level: number): bigint => {
    if (end - start <= CHUNK_DIGITS) {
      let n = 0;
      for (let i = start; i < end; i++) n = n * 58 + DIGIT[text.charCodeAt(i)]!;
      return BigInt(n);
    }
    while (CHUNK_DIGITS * 2 ** level >= end - start) level--;
    const split = end - CHUNK_DIGITS * 2 ** level;
    return valueOf(start, split, level) * chunkPower(level) + valueOf(split, end, level);
  };
  let level = 0;
  while (CHUNK_DIGITS * 2 ** (level + 1) < text.length - zeros) level++;
  const value = valueOf(zeros, text.length, level);
  let hex = value.toString(16);
  if (hex.length % 2 !== 0) hex = `0${hex}`;
  const digits = hexToBytes(`0x${hex}`);
  const out = new Uint8Array(zeros + digits.length);
  out.set(digits, zeros);
  return out;
}

/**
 * cb58: base58 (Bitcoin alphabet) of `bytes` followed by the last 4 bytes of sha256(bytes).
 * Used for asset, transaction and chain IDs and for private keys.
 */
export function encodeCb58(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) fail("cb58 payload", bytes, "expected a Uint8Array");
  if (bytes.length > CB58_MAX_PAYLOAD_BYTES) {
    fail("cb58 payload", bytes, `too long (at most ${CB58_MAX_PAYLOAD_BYTES} bytes)`);
  }
  const checked = new Uint8Array(bytes.length + CB58_CHECKSUM_LENGTH);
  checked.set(bytes);
  checked.set(checksumOf(bytes), bytes.length);
  return checked.length <= SCURE_MAX_BYTES ? base58.encode(checked) : base58EncodeLarge(checked);
}

/**
 * Decode a cb58 string and verify its checksum; returns the payload without the checksum.
 * Throws EncodingError naming the first non-base58 character and its position, a string too
 * short to hold the 4-byte checksum, or a checksum mismatch.
 */
export function decodeCb58(text: string): Uint8Array {
  const what = "cb58 string";
  if (typeof text !== "string") fail(what, text, "expected a string");
  if (text.length === 0) fail(what, text, "empty string");
  if (text.length > MAX_CHARS) {
    fail(what, text, `too long (at most ${MAX_CHARS} characters, a ${CB58_MAX_PAYLOAD_BYTES}-byte payload)`);
  }
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || DIGIT[code]! < 0) {
      const char = String.fromCodePoint(text.codePointAt(i)!);
      const hint = char === "0" || char === "O" || char === "I" || char === "l" ? ` (base58 has no "${char}")` : "";
      fail(what, text, `non-base58 character ${JSON.stringify(char)} at position ${i}${hint}`);
    }
  }
  const checked = text.length <= SCURE_MAX_CHARS ? base58.decode(text) : base58DecodeLarge(text);
  if (checked.length < CB58_CHECKSUM_LENGTH) {
    fail(what, text, `too short: decodes to ${checked.length} byte${checked.length === 1 ? "" : "s"}, fewer than the ${CB58_CHECKSUM_LENGTH}-byte checksum`);
  }
  const split = checked.length - CB58_CHECKSUM_LENGTH;
  const payload = checked.slice(0, split);
  if (payload.length > CB58_MAX_PAYLOAD_BYTES) {
    fail(what, text, `payload too long (at most ${CB58_MAX_PAYLOAD_BYTES} bytes)`);
  }
  const got = checked.subarray(split);
  const expected = checksumOf(payload);
  for (let i = 0; i < CB58_CHECKSUM_LENGTH; i++) {
    if (got[i] !== expected[i]) {
      fail(what, text, `checksum mismatch (expected ${bytesToHex(expected)}, got ${bytesToHex(got)})`);
    }
  }
  return payload;
}

/** True when `text` is a valid cb58 string (optionally: whose payload has `length` bytes). */
export function isCb58(text: unknown, length?: number): boolean {
  if (typeof text !== "string") return false;
  try {
    const payload = decodeCb58(text);
    return length === undefined || payload.length === length;
  } catch (error) {
    if (error instanceof EncodingError) return false;
    throw error;
  }
}
