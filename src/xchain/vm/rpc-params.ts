import { sha256 } from "@noble/hashes/sha2.js";
import { decodeCb58, encodeCb58 } from "../../encoding";
import { EncodingError } from "../../encoding/errors";
import { RpcError, RpcErrorCode } from "../../rpc/errors";

/*
 * Parameter parsing for the node-style JSON-RPC services (exchange chain, keystore, static
 * genesis): named parameters in an object, numbers as JSON numbers or decimal strings (as the
 * node's JSON types accept both), byte values in cb58 or hex. Every failure is an RpcError
 * -32602 naming the parameter.
 */

export type Params = Record<string, unknown>;

export function badParams(message: string): RpcError {
  return new RpcError(RpcErrorCode.InvalidParams, message);
}

/** A rule or state problem (-32000), with optional data. */
export function serverError(message: string, data?: unknown): RpcError {
  return new RpcError(RpcErrorCode.ServerError, message, data);
}

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

/**
 * The params object of a call: an object, an array holding one object (what some clients
 * send), or nothing (no parameters).
 */
export function paramsObject(params: unknown, method: string): Params {
  if (params === undefined || params === null) return {};
  if (Array.isArray(params)) {
    if (params.length === 0) return {};
    if (params.length === 1 && typeof params[0] === "object" && params[0] !== null && !Array.isArray(params[0])) return params[0] as Params;
    throw badParams(`${method} takes named parameters: send params as an object such as {"address": "X-..."}`);
  }
  if (typeof params !== "object") throw badParams(`${method} takes named parameters as an object, got ${show(params)}`);
  return params as Params;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A string parameter; absent (or null) gives `fallback` when given, else an error. */
export function stringParam(p: Params, name: string, fallback?: string): string {
  const value = p[name];
  if (!present(value)) {
    if (fallback !== undefined) return fallback;
    throw badParams(`missing parameter ${name}`);
  }
  if (typeof value !== "string") throw badParams(`${name} must be a string, got ${show(value)}`);
  return value;
}

/** A non-empty string parameter. */
export function requiredString(p: Params, name: string): string {
  const value = stringParam(p, name, "");
  if (value === "") throw badParams(`missing parameter ${name}`);
  return value;
}

export function stringArrayParam(p: Params, name: string): string[] {
  const value = p[name];
  if (!present(value)) return [];
  if (!Array.isArray(value)) throw badParams(`${name} must be an array of strings, got ${show(value)}`);
  return value.map((item, i) => {
    if (typeof item !== "string") throw badParams(`${name}[${i}] must be a string, got ${show(item)}`);
    return item;
  });
}

export function booleanParam(p: Params, name: string): boolean {
  const value = p[name];
  if (!present(value)) return false;
  if (typeof value !== "boolean") throw badParams(`${name} must be true or false, got ${show(value)}`);
  return value;
}

/**
 * An unsigned integer of `bits` bits given as a JSON number or a decimal string (the node's
 * JSON integers accept both). Absent gives `fallback` when given, else an error.
 */
export function uintValue(value: unknown, name: string, bits: number, fallback?: bigint): bigint {
  if (!present(value)) {
    if (fallback !== undefined) return fallback;
    throw badParams(`missing parameter ${name}`);
  }
  let n: bigint;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw badParams(`${name} must be a non-negative integer (as a number up to 2^53 - 1, or a decimal string), got ${value}`);
    }
    n = BigInt(value);
  } else if (typeof value === "string" && /^[0-9]+$/.test(value)) {
    n = BigInt(value);
  } else {
    throw badParams(`${name} must be a non-negative integer (a number or a decimal string such as "1000"), got ${show(value)}`);
  }
  if (n >= 1n << BigInt(bits)) throw badParams(`${name} is ${n}, above the largest uint${bits} (${(1n << BigInt(bits)) - 1n})`);
  return n;
}

export function uintParam(p: Params, name: string, bits: number, fallback?: bigint): bigint {
  return uintValue(p[name], name, bits, fallback);
}

export type ByteEncoding = "cb58" | "hex";

/** The encoding parameter: "cb58" (default) or "hex"; "json" too when `allowJson`. */
export function encodingParam(p: Params, name = "encoding", allowJson = false): ByteEncoding | "json" {
  const value = p[name];
  if (!present(value) || value === "") return "cb58";
  if (typeof value !== "string") throw badParams(`${name} must be a string, got ${show(value)}`);
  const lower = value.toLowerCase();
  if (lower === "cb58" || lower === "hex" || (allowJson && lower === "json")) return lower as ByteEncoding | "json";
  throw badParams(`invalid ${name} ${show(value)}: expected "cb58" or "hex"${allowJson ? ' or "json"' : ""}`);
}

/**
 * The encoding of a transaction sent to issueTx: the `encoding` parameter when given; when it
 * is absent, hex if the value starts with "0x", else cb58. The seed's default is cb58, but
 * the reference node defaults to hex since avalanchego v1.7.14 (utils/formatting: `Hex` is the
 * zero Encoding, cb58 removed), and current SDKs (avalanchejs `issueSignedTx`) send "0x…"
 * without naming the encoding. No cb58 value starts with "0x" ("0" is not a base58 digit),
 * so the inference never reads a cb58 value as hex.
 */
export function txEncodingParam(p: Params, text: string): ByteEncoding {
  const value = p.encoding;
  if ((!present(value) || value === "") && text.startsWith("0x")) return "hex";
  return encodingParam(p) as ByteEncoding;
}

function checksum(bytes: Uint8Array): Uint8Array {
  return sha256(bytes).subarray(28);
}

/** Bytes as the node writes them: cb58, or "0x" + hex of the bytes and a 4-byte checksum. */
export function formatBytes(bytes: Uint8Array, encoding: ByteEncoding): string {
  if (encoding === "cb58") return encodeCb58(bytes);
  return `0x${Buffer.from(bytes).toString("hex")}${Buffer.from(checksum(bytes)).toString("hex")}`;
}

/**
 * Bytes from a string in `encoding` (the node's rules: hex needs the 0x prefix and ends with a
 * 4-byte checksum; the empty string is no bytes). Throws -32602 naming `name`.
 */
export function parseBytes(text: string, encoding: ByteEncoding, name: string): Uint8Array {
  if (text === "") return new Uint8Array(0);
  if (encoding === "cb58") {
    try {
      return decodeCb58(text);
    } catch (error) {
      if (error instanceof EncodingError) throw badParams(`problem decoding ${name}: ${error.detail}`);
      throw error;
    }
  }
  if (!text.startsWith("0x")) throw badParams(`problem decoding ${name}: missing 0x prefix to hex encoding`);
  const digits = text.slice(2);
  if (digits.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(digits)) throw badParams(`problem decoding ${name}: not an even number of hex digits after 0x`);
  const raw = new Uint8Array(Buffer.from(digits, "hex"));
  if (raw.length < 4) throw badParams(`problem decoding ${name}: input string is smaller than the checksum size`);
  const body = raw.subarray(0, raw.length - 4);
  if (!Buffer.from(raw.subarray(raw.length - 4)).equals(Buffer.from(checksum(body)))) {
    throw badParams(`problem decoding ${name}: invalid input checksum (hex values end with the last 4 bytes of the sha256 of the bytes)`);
  }
  return body.slice();
}

/** A 32-byte ID in cb58 (transaction, asset, UTXO or chain ID). */
export function idValue(text: string, name: string): Uint8Array {
  let id: Uint8Array;
  try {
    id = decodeCb58(text);
  } catch (error) {
    if (error instanceof EncodingError) throw badParams(`couldn't parse ${name} ${show(text)}: ${error.detail}`);
    throw error;
  }
  if (id.length !== 32) throw badParams(`couldn't parse ${name} ${show(text)}: an ID is 32 bytes, got ${id.length}`);
  return id;
}
