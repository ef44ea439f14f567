import { secp256k1 } from "@noble/curves/secp256k1.js";
import { evmAddressFromPublicKey, formatChainAddress, shortIdFromPublicKey, EXCHANGE_CHAIN_ALIAS } from "./address";
import { decodeCb58, encodeCb58 } from "./cb58";
import { EncodingError } from "./errors";
import { bytes32ToBigint, type Hex, parseHex } from "./hex";

/** Prefix of the text form of private keys: "PrivateKey-" + cb58(32 bytes). */
export const PRIVATE_KEY_PREFIX = "PrivateKey-";
/** secp256k1 private keys are 32-byte big-endian scalars. */
export const PRIVATE_KEY_LENGTH = 32;
/** Order n of the secp256k1 group; valid private keys are in [1, n). */
export const SECP256K1_ORDER: bigint = secp256k1.Point.CURVE().n;

/**
 * Error for a bad private key. The key itself is never quoted (nor attached as a cause), so
 * the error can be logged without leaking the secret.
 */
function keyError(input: unknown, problem: string): never {
  const shown =
    typeof input === "string"
      ? `(${input.length} characters, redacted)`
      : input instanceof Uint8Array
        ? `(${input.length} bytes, redacted)`
        : `(${input === null ? "null" : typeof input})`;
  throw new EncodingError(`invalid private key ${shown}: ${problem}`, { detail: problem });
}

function checkScalar(bytes: Uint8Array, input: unknown): Uint8Array {
  if (bytes.length !== PRIVATE_KEY_LENGTH) keyError(input, `expected ${PRIVATE_KEY_LENGTH} bytes, got ${bytes.length}`);
  const scalar = bytes32ToBigint(bytes);
  if (scalar === 0n) keyError(input, "zero is not a valid secp256k1 private key (expected a scalar in [1, n))");
  if (scalar >= SECP256K1_ORDER) {
    keyError(input, "scalar is not below the secp256k1 group order n (expected a scalar in [1, n))");
  }
  return bytes;
}

/** "PrivateKey-" + cb58 of a 32-byte secp256k1 scalar in [1, n). */
export function encodePrivateKey(key: Uint8Array): string {
  if (!(key instanceof Uint8Array)) keyError(key, `expected a Uint8Array of ${PRIVATE_KEY_LENGTH} bytes`);
  return PRIVATE_KEY_PREFIX + encodeCb58(checkScalar(key, key));
}

/**
 * 32-byte private key from "PrivateKey-" + cb58 or from 0x + 64 hex digits. Rejects scalars
 * outside [1, n). Error messages never include the key.
 */
export function decodePrivateKey(text: string): Uint8Array {
  if (typeof text !== "string") keyError(text, `expected a string "${PRIVATE_KEY_PREFIX}..." or 0x + 64 hex digits`);
  const isCb58Form = text.startsWith(PRIVATE_KEY_PREFIX);
  if (!isCb58Form && !text.startsWith("0x")) {
    keyError(text, `expected "${PRIVATE_KEY_PREFIX}" followed by cb58, or 0x followed by 64 hex digits`);
  }
  let bytes: Uint8Array;
  try {
    bytes = isCb58Form
      ? decodeCb58(text.slice(PRIVATE_KEY_PREFIX.length))
      : parseHex(text, "private key", PRIVATE_KEY_LENGTH);
  } catch (error) {
    // Rethrow without the inner message (it quotes the input) and without the cause.
    if (error instanceof EncodingError) {
      const detail = error.detail.startsWith("checksum mismatch")
        ? "cb58 checksum mismatch (mistyped or truncated key)"
        : error.detail;
      keyError(text, detail);
    }
    throw error;
  }
  return checkScalar(bytes, text);
}

function toKeyBytes(key: unknown): Uint8Array {
  if (typeof key === "string") return decodePrivateKey(key);
  if (key instanceof Uint8Array) return checkScalar(key, key);
  return keyError(key, `expected "${PRIVATE_KEY_PREFIX}...", 0x + 64 hex digits, or ${PRIVATE_KEY_LENGTH} bytes`);
}

export interface KeyAddresses {
  /** Exchange-chain address, `${chainAlias}-` + bech32(hrp, shortId). */
  exchange: string;
  /** EIP-55 contract-chain address. */
  contract: Hex;
  /** 20-byte short ID: ripemd160(sha256(publicKey)). */
  shortId: Uint8Array;
  /** 33-byte compressed secp256k1 public key. */
  publicKey: Uint8Array;
}

/**
 * Both addresses of a private key (given as "PrivateKey-...", 0x hex or 32 bytes): the
 * exchange-chain address for `hrp` (chain alias "X" unless given) and the contract-chain address.
 */
export function privateKeyToAddresses(
  key: string | Uint8Array,
  hrp: string,
  chainAlias: string = EXCHANGE_CHAIN_ALIAS,
): KeyAddresses {
  return publicKeyToAddresses(secp256k1.getPublicKey(toKeyBytes(key), true), hrp, chainAlias);
}

/**
 * Both addresses of a 33-byte compressed public key, as {@link privateKeyToAddresses} gives them:
 * for a caller that has the public key already (the node derives keys with libsecp256k1, and this
 * curve's first use costs about 0.1 s of table building).
 */
export function publicKeyToAddresses(publicKey: Uint8Array, hrp: string, chainAlias: string = EXCHANGE_CHAIN_ALIAS): KeyAddresses {
  const shortId = shortIdFromPublicKey(publicKey);
  return {
    exchange: formatChainAddress(shortId, hrp, chainAlias),
    contract: evmAddressFromPublicKey(publicKey),
    shortId,
    publicKey,
  };
}
