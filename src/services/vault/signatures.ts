/**
 * The vault's signature scheme, the reference's: a 65-byte recoverable secp256k1 signature
 * r ‖ s ‖ v (v 0 or 1, s in the lower half of the order) over sha256 of the signed bytes, whose
 * public key is turned into the chain's bech32 address: `P-` + bech32(hrp, ripemd160(sha256(
 * compressed key))). Who signed is recovered, never claimed.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { recoverPublicKey } from "../../crypto/secp256k1";
import { formatChainAddress, hexToBytes, SECP256K1_ORDER, shortIdFromPublicKey } from "../../encoding";
import { badRequest, VaultError, VaultErrorCode } from "./errors";

const SIGNATURE_LENGTH = 65;
const HALF_ORDER = SECP256K1_ORDER / 2n;

/** Bytes of a hex string with or without 0x; `field` names it in the refusal. */
export function parseHexField(value: unknown, field: string, options: { minBytes?: number } = {}): Uint8Array {
  if (typeof value !== "string" || value === "") throw badRequest(`${field} is required: a hex string`);
  const digits = value.startsWith("0x") || value.startsWith("0X") ? value.slice(2) : value;
  if (!/^[0-9a-fA-F]*$/.test(digits) || digits.length % 2 !== 0) throw badRequest(`${field} is not hex: expected an even number of hex digits, with or without 0x`);
  const bytes = hexToBytes(`0x${digits}`);
  if (bytes.length < (options.minBytes ?? 1)) throw badRequest(`${field} is too short: ${bytes.length} bytes, at least ${options.minBytes ?? 1} expected`);
  return bytes;
}

/** Lowercase hex with 0x, as the vault answers bytes. */
export function toHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString("hex")}`;
}

/**
 * The address (with `chainAlias-` prefix, bech32 with `hrp`) whose key made `signature` over
 * sha256(`message`). A missing, malformed or unrecoverable signature is refused with 401.
 */
export function recoverSigner(signature: unknown, message: Uint8Array, address: { hrp: string; chainAlias: string }): string {
  if (signature === undefined || signature === null || signature === "") throw new VaultError(VaultErrorCode.Unauthenticated, "signature is empty");
  let bytes: Uint8Array;
  try {
    bytes = parseHexField(signature, "signature");
  } catch (error) {
    throw new VaultError(VaultErrorCode.Unauthenticated, (error as Error).message);
  }
  if (bytes.length !== SIGNATURE_LENGTH) throw new VaultError(VaultErrorCode.Unauthenticated, `signature must be ${SIGNATURE_LENGTH} bytes (r ‖ s ‖ v), got ${bytes.length}`);
  const s = BigInt(toHex(bytes.subarray(32, 64)));
  // A high s is the same signature mirrored: refusing it keeps one valid encoding per signature.
  if (s > HALF_ORDER) throw new VaultError(VaultErrorCode.Unauthenticated, "signature has a high s value: sign with low s (as RFC 6979 libraries do)");
  const v = bytes[64]!;
  if (v !== 0 && v !== 1) throw new VaultError(VaultErrorCode.Unauthenticated, `signature recovery byte must be 0 or 1, got ${v}`);
  try {
    const publicKey = recoverPublicKey(sha256(message), bytes.subarray(0, 64), v, true);
    return formatChainAddress(shortIdFromPublicKey(publicKey), address.hrp, address.chainAlias);
  } catch (error) {
    throw new VaultError(VaultErrorCode.Unauthenticated, `signature does not verify: ${(error as Error).message}`);
  }
}

/** sha256 of `bytes` as lowercase hex without prefix: a pending transaction's ID (the reference's). */
export function sha256Hex(bytes: Uint8Array): string {
  return Buffer.from(sha256(bytes)).toString("hex");
}
