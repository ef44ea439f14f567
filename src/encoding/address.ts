import { bech32 } from "@scure/base";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { EncodingError, describeInput, fail } from "./errors";
import { checksumAddressFromBytes } from "./evm-address";
import type { Hex } from "./hex";

/** Exchange-chain addresses encode a 20-byte short ID: ripemd160(sha256(compressed public key)). */
export const SHORT_ID_LENGTH = 20;

/** Default chain alias of exchange-chain addresses. */
export const EXCHANGE_CHAIN_ALIAS = "X";

/** Longest bech32 string (BIP-173). */
const BECH32_MAX_LENGTH = 90;
const BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const CHECKSUM_CHARS = 6;
/** A 20-byte payload takes 32 five-bit words. */
const SHORT_ID_WORDS = 32;
/** Longest hrp that still leaves room for a 20-byte short ID within 90 characters. */
export const MAX_HRP_LENGTH = BECH32_MAX_LENGTH - 1 - SHORT_ID_WORDS - CHECKSUM_CHARS;

export interface Bech32Address {
  /** Human-readable part, lowercase (e.g. "avax", "fuji", "local", "custom"). */
  hrp: string;
  /** 20-byte short ID. */
  shortId: Uint8Array;
}

export interface ChainAddress extends Bech32Address {
  /** Part before the first "-", e.g. "X" (or "C" for atomic UTXOs on the contract chain). */
  chainAlias: string;
}

function hrpProblem(hrp: unknown): string | undefined {
  if (typeof hrp !== "string") return "expected a string";
  if (hrp.length === 0) return "empty";
  if (hrp.length > MAX_HRP_LENGTH) {
    return `too long (${hrp.length} characters; at most ${MAX_HRP_LENGTH} fit in a 90-character bech32 address)`;
  }
  for (let i = 0; i < hrp.length; i++) {
    const code = hrp.charCodeAt(i);
    if (code < 33 || code > 126) {
      return `character ${JSON.stringify(hrp[i])} at position ${i} is not printable ASCII (33..126)`;
    }
    if (code >= 65 && code <= 90) return `uppercase character ${JSON.stringify(hrp[i])} at position ${i}; hrps are lowercase`;
  }
  return undefined;
}

function chainAliasProblem(alias: unknown): string | undefined {
  if (typeof alias !== "string") return "expected a string";
  if (alias.length === 0) return "empty";
  for (let i = 0; i < alias.length; i++) {
    const code = alias.charCodeAt(i);
    if (code === 45 /* - */) return `contains "-" at position ${i}, which separates the alias from the address`;
    if (code < 33 || code > 126) {
      return `character ${JSON.stringify(alias[i])} at position ${i} is not printable ASCII (33..126)`;
    }
  }
  return undefined;
}

function checkShortId(shortId: unknown): Uint8Array {
  if (!(shortId instanceof Uint8Array)) fail("short ID", shortId, `expected a Uint8Array of ${SHORT_ID_LENGTH} bytes`);
  if (shortId.length !== SHORT_ID_LENGTH) {
    fail("short ID", shortId, `expected ${SHORT_ID_LENGTH} bytes, got ${shortId.length}`);
  }
  return shortId;
}

/** bech32(hrp, shortId) without chain prefix, e.g. "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u". */
export function formatBech32Address(shortId: Uint8Array, hrp: string): string {
  checkShortId(shortId);
  const problem = hrpProblem(hrp);
  if (problem !== undefined) fail("hrp", hrp, problem);
  return bech32.encode(hrp, bech32.toWords(shortId));
}

/** `${chainAlias}-` + bech32(hrp, shortId), e.g. "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u". */
export function formatChainAddress(shortId: Uint8Array, hrp: string, chainAlias: string = EXCHANGE_CHAIN_ALIAS): string {
  const problem = chainAliasProblem(chainAlias);
  if (problem !== undefined) fail("chain alias", chainAlias, problem);
  return `${chainAlias}-${formatBech32Address(shortId, hrp)}`;
}

/** Decode `text` as bech32 carrying a 20-byte short ID; `input` and `what` are for messages. */
function decodeBech32ShortId(text: string, input: string, what: string, expectedHrp: string | undefined): Bech32Address {
  const bad = (problem: string, cause?: unknown): never => fail(what, input, problem, cause);
  if (text.length > BECH32_MAX_LENGTH) bad(`bech32 part is ${text.length} characters, at most ${BECH32_MAX_LENGTH} allowed`);
  const lower = text.toLowerCase();
  if (text !== lower && text !== text.toUpperCase()) bad("mixes upper and lower case; bech32 must be all one case");
  const separator = lower.lastIndexOf("1");
  if (separator === -1) bad('missing the "1" separating the hrp from the data (expected e.g. "local1...")');
  if (separator === 0) bad('empty hrp before the "1" separator');
  const hrp = lower.slice(0, separator);
  const problem = hrpProblem(hrp);
  if (problem !== undefined) bad(`bad hrp: ${problem}`);
  const offset = input.length - text.length;
  for (let i = separator + 1; i < lower.length; i++) {
    if (!BECH32_CHARSET.includes(lower[i]!)) {
      bad(`invalid bech32 character ${JSON.stringify(text[i])} at position ${offset + i}`);
    }
  }
  const dataChars = lower.length - separator - 1;
  if (dataChars < CHECKSUM_CHARS) bad(`data part has ${dataChars} characters, too short for the 6-character checksum`);
  let words: number[];
  try {
    words = bech32.decode(lower as `${string}1${string}`, false).words;
  } catch (error) {
    return bad("bech32 checksum mismatch (mistyped or truncated address)", error);
  }
  let shortId: Uint8Array;
  try {
    shortId = bech32.fromWords(words);
  } catch (error) {
    return bad(`data part does not decode to whole bytes (${error instanceof Error ? error.message : String(error)})`, error);
  }
  if (shortId.length !== SHORT_ID_LENGTH) bad(`payload is ${shortId.length} bytes, expected a ${SHORT_ID_LENGTH}-byte short ID`);
  if (expectedHrp !== undefined && hrp !== expectedHrp) {
    bad(`hrp ${JSON.stringify(hrp)} does not match the expected hrp ${JSON.stringify(expectedHrp)}`);
  }
  return { hrp, shortId };
}

/**
 * Parse a bech32 address without chain prefix ("local1..."), as the static endpoints use.
 * With `expectedHrp`, an address for another network is rejected.
 */
export function parseBech32Address(text: string, expectedHrp?: string): Bech32Address {
  if (typeof text !== "string") fail("bech32 address", text, "expected a string");
  return decodeBech32ShortId(text, text, "bech32 address", expectedHrp);
}

/**
 * Parse a chain-prefixed address such as "X-local1...". The chain alias is the part before the
 * first "-"; addresses without it are rejected (use parseBech32Address for those). `expected`
 * optionally pins the hrp and/or chain alias.
 */
export function parseChainAddress(text: string, expected: { hrp?: string; chainAlias?: string } = {}): ChainAddress {
  const what = "chain address";
  if (typeof text !== "string") fail(what, text, 'expected a string such as "X-local1..."');
  const dash = text.indexOf("-");
  if (dash === -1) {
    fail(what, text, 'missing chain prefix (expected e.g. "X-" before the bech32 part; use parseBech32Address for addresses without one)');
  }
  const chainAlias = text.slice(0, dash);
  const problem = chainAliasProblem(chainAlias);
  if (problem !== undefined) fail(what, text, `bad chain alias ${describeInput(chainAlias)}: ${problem}`);
  if (expected.chainAlias !== undefined && chainAlias !== expected.chainAlias) {
    fail(what, text, `chain alias ${JSON.stringify(chainAlias)} does not match the expected ${JSON.stringify(expected.chainAlias)}`);
  }
  const { hrp, shortId } = decodeBech32ShortId(text.slice(dash + 1), text, what, expected.hrp);
  return { chainAlias, hrp, shortId };
}

/** True when `text` parses as a chain-prefixed address (optionally with the given hrp / alias). */
export function isChainAddress(text: unknown, expected: { hrp?: string; chainAlias?: string } = {}): boolean {
  if (typeof text !== "string") return false;
  try {
    parseChainAddress(text, expected);
    return true;
  } catch (error) {
    if (error instanceof EncodingError) return false;
    throw error;
  }
}

function parsePublicKey(publicKey: unknown): InstanceType<typeof secp256k1.Point> {
  const what = "secp256k1 public key";
  if (!(publicKey instanceof Uint8Array)) fail(what, publicKey, "expected a Uint8Array of 33 (compressed) or 65 (uncompressed) bytes");
  if (publicKey.length !== 33 && publicKey.length !== 65) {
    fail(what, publicKey, `expected 33 (compressed) or 65 (uncompressed) bytes, got ${publicKey.length}`);
  }
  try {
    return secp256k1.Point.fromBytes(publicKey);
  } catch (error) {
    return fail(what, publicKey, `not a point on the curve (${error instanceof Error ? error.message : String(error)})`, error);
  }
}

/**
 * 20-byte short ID of a secp256k1 public key: ripemd160(sha256(compressed key)). Takes the
 * 33-byte compressed key; a 65-byte uncompressed key is compressed first. The key must be a
 * valid curve point.
 */
export function shortIdFromPublicKey(publicKey: Uint8Array): Uint8Array {
  return ripemd160(sha256(parsePublicKey(publicKey).toBytes(true)));
}

/** EIP-55 contract-chain address of a secp256k1 public key (33 or 65 bytes): keccak256(x ++ y)[12..]. */
export function evmAddressFromPublicKey(publicKey: Uint8Array): Hex {
  const uncompressed = parsePublicKey(publicKey).toBytes(false);
  return checksumAddressFromBytes(keccak_256(uncompressed.subarray(1)).subarray(12));
}
