/**
 * Byte strings as the node APIs write them (`encoding` parameter): `cb58`, or `hex`, which on the
 * reference node is `0x` + hex of the bytes followed by a 4-byte checksum (the last 4 bytes of
 * their sha256, the same checksum cb58 appends).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, decodeCb58, encodeCb58, EncodingError, hexToBytes } from "../encoding";

/** Encodings of byte values (transactions, UTXOs, genesis, NFT payloads). */
export type ByteEncoding = "cb58" | "hex";

export const BYTE_ENCODINGS: readonly ByteEncoding[] = ["cb58", "hex"];

const CHECKSUM_LENGTH = 4;

function checksum(bytes: Uint8Array): Uint8Array {
  return sha256(bytes).subarray(32 - CHECKSUM_LENGTH);
}

/** Writes bytes the way the node expects them in `encoding` (hex carries the 4-byte checksum). */
export function encodeNodeBytes(bytes: Uint8Array, encoding: ByteEncoding): string {
  if (!(bytes instanceof Uint8Array)) throw new TypeError("encodeNodeBytes: expected a Uint8Array");
  if (encoding === "cb58") return encodeCb58(bytes);
  if (encoding === "hex") {
    const checked = new Uint8Array(bytes.length + CHECKSUM_LENGTH);
    checked.set(bytes);
    checked.set(checksum(bytes), bytes.length);
    return bytesToHex(checked);
  }
  throw new TypeError(`encodeNodeBytes: encoding must be "cb58" or "hex", got ${JSON.stringify(encoding)}`);
}

/**
 * Reads a byte string the node returned in `encoding` and verifies its checksum. Throws
 * `EncodingError` for malformed input or a checksum mismatch.
 */
export function decodeNodeBytes(text: string, encoding: ByteEncoding): Uint8Array {
  if (encoding === "cb58") return decodeCb58(text);
  if (encoding === "hex") {
    const checked = hexToBytes(text);
    if (checked.length < CHECKSUM_LENGTH) {
      throw new EncodingError(
        `invalid hex bytes ${JSON.stringify(text)}: ${checked.length} bytes, too short for the 4-byte checksum`,
      );
    }
    const payload = checked.slice(0, checked.length - CHECKSUM_LENGTH);
    const got = checked.subarray(checked.length - CHECKSUM_LENGTH);
    const expected = checksum(payload);
    for (let i = 0; i < CHECKSUM_LENGTH; i++) {
      if (got[i] !== expected[i]) {
        throw new EncodingError(
          `invalid hex bytes ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text)}: checksum mismatch (expected ${bytesToHex(expected)}, got ${bytesToHex(got)})`,
        );
      }
    }
    return payload;
  }
  throw new TypeError(`decodeNodeBytes: encoding must be "cb58" or "hex", got ${JSON.stringify(encoding)}`);
}
