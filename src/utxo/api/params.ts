import { decodeCb58, decodeNodeBytes, EncodingError } from "../../encoding";
import { describeValue, invalidParams, type NamedParams } from "../../rpc";

/*
 * The parameters the UTXO chains' APIs read alike, on top of `NamedParams`: byte encodings,
 * byte values and transaction IDs. Every failure is -32602 in the reference node's words,
 * naming the field.
 */

/** The byte encodings the UTXO chains' APIs take and answer in: cb58 (the default) and hex with checksum. */
export type ByteEncoding = "cb58" | "hex";

/** The `encoding` of a method that reads or writes bytes: "cb58" (absent or "") or "hex", in any case. */
export function encodingParam(p: NamedParams): ByteEncoding {
  return readEncoding(p, false) as ByteEncoding;
}

/** getTx's `encoding`: "cb58" (absent or ""), "hex" or "json". */
export function txFormatParam(p: NamedParams): ByteEncoding | "json" {
  return readEncoding(p, true);
}

function readEncoding(p: NamedParams, allowJson: boolean): ByteEncoding | "json" {
  return allowJson ? p.choice("encoding", ["cb58", "hex", "json"], "cb58") : p.choice("encoding", ["cb58", "hex"], "cb58");
}

/**
 * The encoding of a transaction sent to issueTx: the `encoding` parameter when given; when it
 * is absent, hex if the value starts with "0x", else cb58. The seed's default is cb58, but
 * the reference node defaults to hex since avalanchego v1.7.14 (utils/formatting: `Hex` is the
 * zero Encoding, cb58 removed), and current SDKs (avalanchejs `issueSignedTx`) send "0x…"
 * without naming the encoding. No cb58 value starts with "0x" ("0" is not a base58 digit),
 * so the inference never reads a cb58 value as hex.
 */
export function txEncodingParam(p: NamedParams, text: string): ByteEncoding {
  if (p.optionalString("encoding") === undefined && text.startsWith("0x")) return "hex";
  return encodingParam(p);
}

/**
 * Bytes sent as text in `encoding` (hex needs the 0x prefix and ends with the 4-byte checksum;
 * "" is no bytes). A problem is "problem decoding <what>: <the node's wording>".
 */
export function decodeBytes(text: string, encoding: ByteEncoding, what: string): Uint8Array {
  try {
    return decodeNodeBytes(text, encoding);
  } catch (error) {
    if (error instanceof EncodingError) throw invalidParams(`problem decoding ${what}: ${error.detail}`);
    throw error;
  }
}

/** The `txID` of getTx and getTxStatus: required, a cb58 ID, not the empty ID. */
export function txIdParam(p: NamedParams): Uint8Array {
  const id = decodeId(p.string("txID", "nil transaction ID: missing parameter txID"), p.nameOf("txID"));
  if (id.every((b) => b === 0)) throw invalidParams("nil transaction ID");
  return id;
}

/** A 32-byte ID in cb58 (transaction, asset, UTXO or chain ID). */
export function decodeId(text: string, name: string): Uint8Array {
  let id: Uint8Array;
  try {
    id = decodeCb58(text);
  } catch (error) {
    if (error instanceof EncodingError) throw invalidParams(`couldn't parse ${name} ${describeValue(text)}: ${error.detail}`);
    throw error;
  }
  if (id.length !== 32) throw invalidParams(`couldn't parse ${name} ${describeValue(text)}: an ID is 32 bytes, got ${id.length}`);
  return id;
}
