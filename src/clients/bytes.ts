/**
 * The byte encodings the clients send and accept (`encoding` parameters): `cb58` and `hex`, the
 * two of the node's encodings ({@link NodeByteEncoding}, defined on the ground floor in
 * `src/encoding/node-bytes.ts`) that its chain APIs take. `encodeNodeBytes` / `decodeNodeBytes`
 * here are the ground floor's, narrowed to these two and reporting in the clients' words.
 */
import {
  decodeCb58,
  decodeNodeBytes as decodeAnyNodeBytes,
  encodeNodeBytes as encodeAnyNodeBytes,
  EncodingError,
  type NodeByteEncoding,
} from "../encoding";

/** Encodings of byte values (transactions, UTXOs, genesis, NFT payloads). */
export type ByteEncoding = Extract<NodeByteEncoding, "cb58" | "hex">;

export const BYTE_ENCODINGS: readonly ByteEncoding[] = ["cb58", "hex"];

function checkEncoding(caller: string, encoding: unknown): asserts encoding is ByteEncoding {
  if (encoding !== "cb58" && encoding !== "hex") {
    throw new TypeError(`${caller}: encoding must be "cb58" or "hex", got ${JSON.stringify(encoding)}`);
  }
}

/** Writes bytes the way the node expects them in `encoding` (hex carries the 4-byte checksum). */
export function encodeNodeBytes(bytes: Uint8Array, encoding: ByteEncoding): string {
  if (!(bytes instanceof Uint8Array)) throw new TypeError("encodeNodeBytes: expected a Uint8Array");
  checkEncoding("encodeNodeBytes", encoding);
  return encodeAnyNodeBytes(bytes, encoding);
}

/**
 * Reads a byte string the node returned in `encoding` and verifies its checksum. Throws
 * `EncodingError` for malformed input or a checksum mismatch; its `detail` is the node's wording.
 * The empty string is refused: the node writes no bytes as `45PJLL` (cb58) or `0x7852b855` (hex).
 */
export function decodeNodeBytes(text: string, encoding: ByteEncoding): Uint8Array {
  checkEncoding("decodeNodeBytes", encoding);
  // cb58 is the ground floor's cb58, whose errors already name the input.
  if (encoding === "cb58") return decodeCb58(text);
  const invalid = (detail: string, cause?: unknown): never => {
    const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);
    throw new EncodingError(`invalid hex bytes ${shown}: ${detail}`, { detail, cause });
  };
  if (text === "") return invalid(`empty (the node writes no bytes as ${encodeAnyNodeBytes(new Uint8Array(0), "hex")})`);
  try {
    return decodeAnyNodeBytes(text, encoding);
  } catch (error) {
    if (error instanceof EncodingError) invalid(error.detail, error);
    throw error;
  }
}
