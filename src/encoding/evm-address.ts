import { keccak_256 } from "@noble/hashes/sha3.js";
import { EncodingError, fail } from "./errors";
import { bytesToHex, type Hex, parseHex } from "./hex";

/** Contract-chain (EVM) addresses are 20 bytes. */
export const EVM_ADDRESS_LENGTH = 20;

/** Any accepted spelling of an EVM address: 0x-prefixed 40-hex-digit string or 20 bytes. */
export type EvmAddressInput = string | Uint8Array;

const ASCII_ENCODER = new TextEncoder();

/** EIP-55 mixed-case spelling of 20 address bytes. */
function checksumOf(bytes: Uint8Array): Hex {
  const lower = bytesToHex(bytes).slice(2);
  const hash = keccak_256(ASCII_ENCODER.encode(lower));
  let out = "0x";
  for (let i = 0; i < lower.length; i++) {
    const char = lower[i]!;
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 && char >= "a" ? char.toUpperCase() : char;
  }
  return out as Hex;
}

/**
 * Parse an EVM address into its 20 bytes. Strings must be "0x" + 40 hex digits; all-lowercase
 * and all-uppercase digits are accepted as is, mixed case must be a valid EIP-55 checksum.
 * `what` names the value in error messages.
 * @internal
 */
export function parseEvmAddressAs(address: unknown, what: string): Uint8Array {
  if (address instanceof Uint8Array) {
    if (address.length !== EVM_ADDRESS_LENGTH) {
      fail(what, address, `expected ${EVM_ADDRESS_LENGTH} bytes, got ${address.length}`);
    }
    return address.slice();
  }
  if (typeof address !== "string") {
    fail(what, address, `expected a 0x-prefixed ${EVM_ADDRESS_LENGTH}-byte hex string`);
  }
  const bytes = parseHex(address, what, EVM_ADDRESS_LENGTH);
  const digits = address.slice(2);
  if (digits !== digits.toLowerCase() && digits !== digits.toUpperCase()) {
    const expected = checksumOf(bytes);
    if (address !== expected) {
      fail(what, address, `EIP-55 checksum mismatch (expected ${expected}, or the address in all lowercase)`);
    }
  }
  return bytes;
}

/** The 20 bytes of an EVM address (see toChecksumAddress for what is accepted). */
export function parseEvmAddress(address: EvmAddressInput): Uint8Array {
  return parseEvmAddressAs(address, "address");
}

/**
 * EIP-55 checksummed form of an EVM address given as 20 bytes or a 0x-prefixed hex string
 * (lowercase, uppercase or correctly checksummed; a wrong checksum is rejected).
 */
export function toChecksumAddress(address: EvmAddressInput): Hex {
  return checksumOf(parseEvmAddressAs(address, "address"));
}

/** True for a 0x-prefixed 40-hex-digit string whose mixed case, if any, is a valid EIP-55 checksum. */
export function isEvmAddress(value: unknown): value is Hex {
  if (typeof value !== "string") return false;
  try {
    parseEvmAddressAs(value, "address");
    return true;
  } catch (error) {
    if (error instanceof EncodingError) return false;
    throw error;
  }
}

/** @internal checksum of 20 bytes already known to be valid */
export const checksumAddressFromBytes: (bytes: Uint8Array) => Hex = checksumOf;
