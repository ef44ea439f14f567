import { sha256 } from "@noble/hashes/sha2.js";
import { decodeCb58, encodeCb58 } from "../encoding";

/**
 * Text forms of byte values in the node's APIs ("encoding" parameters):
 *
 *   cb58   base58 of the bytes followed by the last 4 bytes of their sha256 (the default here)
 *   hex    "0x" + hex of the bytes followed by the same 4-byte checksum (also "hexc")
 *   hexnc  "0x" + hex of the bytes, no checksum
 */
export type ApiByteEncoding = "cb58" | "hex" | "hexc" | "hexnc";

export const API_BYTE_ENCODINGS: readonly ApiByteEncoding[] = ["cb58", "hex", "hexc", "hexnc"];

const CHECKSUM_LENGTH = 4;

export class ApiEncodingError extends Error {
  override readonly name = "ApiEncodingError";
}

/** An encoding name as the node accepts it (case-insensitive); undefined or null means `fallback`. */
export function parseApiByteEncoding(value: unknown, fallback: ApiByteEncoding = "cb58"): ApiByteEncoding {
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "string") {
    const lower = value.toLowerCase();
    if ((API_BYTE_ENCODINGS as readonly string[]).includes(lower)) return lower as ApiByteEncoding;
  }
  throw new ApiEncodingError(`invalid encoding ${JSON.stringify(value)}: expected one of ${API_BYTE_ENCODINGS.map((e) => `"${e}"`).join(", ")}`);
}

/**
 * The encoding of a transaction sent to issueTx: `value` (the encoding parameter) when given;
 * when it is absent, hex if the text starts with "0x", else cb58. The reference node defaults
 * to hex since avalanchego v1.7.14 (coreth's avax.issueTx decodes api.FormattedTx, whose zero
 * Encoding is Hex) and current SDKs (avalanchejs `issueSignedTx`) send "0x…" without naming the
 * encoding; no cb58 text starts with "0x" ("0" is not a base58 digit).
 */
export function parseTxEncoding(value: unknown, text: string): ApiByteEncoding {
  if ((value === undefined || value === null || value === "") && text.startsWith("0x")) return "hex";
  return parseApiByteEncoding(value);
}

function checksum(bytes: Uint8Array): Uint8Array {
  return sha256(bytes).subarray(32 - CHECKSUM_LENGTH);
}

/** Bytes as text in the given encoding. */
export function encodeApiBytes(bytes: Uint8Array, encoding: ApiByteEncoding): string {
  switch (encoding) {
    case "cb58":
      return encodeCb58(bytes);
    case "hex":
    case "hexc":
      return "0x" + Buffer.from(bytes).toString("hex") + Buffer.from(checksum(bytes)).toString("hex");
    case "hexnc":
      return "0x" + Buffer.from(bytes).toString("hex");
  }
}

/** Text in the given encoding back to bytes; the checksum, when the encoding has one, must match. */
export function decodeApiBytes(text: string, encoding: ApiByteEncoding): Uint8Array {
  if (typeof text !== "string") throw new ApiEncodingError(`expected a string, got ${text === null ? "null" : typeof text}`);
  if (encoding === "cb58") {
    try {
      return decodeCb58(text);
    } catch (error) {
      throw new ApiEncodingError(error instanceof Error ? error.message : String(error));
    }
  }
  if (!text.startsWith("0x")) throw new ApiEncodingError("missing 0x prefix to hex encoding");
  const digits = text.slice(2);
  if (!/^([0-9a-fA-F]{2})*$/.test(digits)) throw new ApiEncodingError("invalid hex: expected an even number of hex digits after 0x");
  const decoded = new Uint8Array(Buffer.from(digits, "hex"));
  if (encoding === "hexnc") return decoded;
  if (decoded.length < CHECKSUM_LENGTH) throw new ApiEncodingError("input string is smaller than the checksum size");
  const raw = decoded.slice(0, decoded.length - CHECKSUM_LENGTH);
  const expected = checksum(raw);
  const given = decoded.subarray(decoded.length - CHECKSUM_LENGTH);
  if (!expected.every((b, i) => b === given[i])) throw new ApiEncodingError("invalid input checksum (the last 4 bytes must be the tail of sha256 of the rest)");
  return raw;
}
