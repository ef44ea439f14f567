import { sha256 } from "@noble/hashes/sha2.js";
import { decodeCb58, encodeCb58 } from "./cb58";
import { EncodingError } from "./errors";

/**
 * Byte values as the node's APIs write them (their `encoding` parameter):
 *
 *   cb58   base58 of the bytes followed by the last 4 bytes of their sha256
 *   hex    "0x" + hex of the bytes followed by the same 4-byte checksum (also named "hexc")
 *   hexnc  "0x" + hex of the bytes, no checksum
 *
 * Transactions, UTXOs, genesis bytes, NFT payloads and index containers all travel this way.
 */
export type NodeByteEncoding = "cb58" | "hex" | "hexc" | "hexnc";

export const NODE_BYTE_ENCODINGS: readonly NodeByteEncoding[] = ["cb58", "hex", "hexc", "hexnc"];

export const NODE_BYTES_CHECKSUM_LENGTH = 4;

function checksum(bytes: Uint8Array): Uint8Array {
  return sha256(bytes).subarray(32 - NODE_BYTES_CHECKSUM_LENGTH);
}

function fail(detail: string, text: string): never {
  const shown = text.length > 80 ? `${text.slice(0, 80)}...` : text;
  throw new EncodingError(`invalid node bytes ${JSON.stringify(shown)}: ${detail}`, { detail });
}

/** Bytes as text in `encoding`. */
export function encodeNodeBytes(bytes: Uint8Array, encoding: NodeByteEncoding): string {
  switch (encoding) {
    case "cb58":
      return encodeCb58(bytes);
    case "hex":
    case "hexc":
      return "0x" + Buffer.from(bytes).toString("hex") + Buffer.from(checksum(bytes)).toString("hex");
    case "hexnc":
      return "0x" + Buffer.from(bytes).toString("hex");
    default:
      throw new TypeError(`encoding must be one of ${NODE_BYTE_ENCODINGS.join(", ")}, got ${JSON.stringify(encoding)}`);
  }
}

/**
 * Text in `encoding` back to bytes; the checksum, where the encoding has one, must match.
 * Throws `EncodingError` whose `detail` is the node's wording of the problem ("missing 0x prefix
 * to hex encoding", "invalid input checksum", ...). The empty string is no bytes.
 */
export function decodeNodeBytes(text: string, encoding: NodeByteEncoding): Uint8Array {
  if (text === "") return new Uint8Array(0);
  if (encoding === "cb58") return decodeCb58(text);
  if (!text.startsWith("0x")) fail("missing 0x prefix to hex encoding", text);
  const digits = text.slice(2);
  // A digit class and a length check: a regular expression of repeated digit pairs overflows
  // the stack on megabytes of text.
  if (digits.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(digits)) fail("not an even number of hex digits after 0x", text);
  const decoded = new Uint8Array(Buffer.from(digits, "hex"));
  if (encoding === "hexnc") return decoded;
  if (decoded.length < NODE_BYTES_CHECKSUM_LENGTH) fail("input string is smaller than the checksum size", text);
  const body = decoded.slice(0, decoded.length - NODE_BYTES_CHECKSUM_LENGTH);
  const given = decoded.subarray(decoded.length - NODE_BYTES_CHECKSUM_LENGTH);
  if (!checksum(body).every((b, i) => b === given[i])) {
    fail("invalid input checksum (hex values end with the last 4 bytes of the sha256 of the bytes)", text);
  }
  return body;
}
