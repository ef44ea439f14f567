/**
 * ethereumjs' `customCrypto` signing and recovery hooks, served by libsecp256k1 (see
 * src/crypto/secp256k1.ts) instead of its default pure-JS curve: signing every
 * `eth_sendTransaction` and recovering every raw transaction's sender and every ECRECOVER
 * call are the engine's largest per-transaction costs after the interpreter.
 */
import { randomBytes } from "node:crypto";

import type { CustomCrypto } from "@ethereumjs/common";

import { recoverPublicKey, signDigest } from "../crypto/secp256k1";

type Ecsign = NonNullable<CustomCrypto["ecsign"]>;
type Ecrecover = NonNullable<CustomCrypto["ecrecover"]>;

/**
 * Signs like noble's `sign(digest, key, { format: "recovered", prehash: false })`, which is
 * what ethereumjs asks for: 65 bytes, recovery id then r then s. Deterministic (RFC 6979)
 * unless the caller asks for extra entropy.
 */
export const ecsign = ((digest: Uint8Array, privateKey: Uint8Array, options?: { extraEntropy?: boolean | Uint8Array }): Uint8Array => {
  const entropy = options?.extraEntropy;
  const extra = entropy === true ? randomBytes(32) : entropy instanceof Uint8Array && entropy.length > 0 ? entropy : undefined;
  const { r, s, recovery } = signDigest(digest, privateKey, extra);
  const out = new Uint8Array(65);
  out[0] = recovery;
  out.set(r, 1);
  out.set(s, 33);
  return out;
}) as unknown as Ecsign;

/**
 * Recovers a 64-byte public key (no 0x04 prefix) from a digest, v, r and s, with ethereumjs'
 * rules for v: 0 or 1 (typed transactions), 27 or 28, or 35 + 2·chainId + {0,1} when a chain
 * ID is given (EIP-155). r and s are big-endian and at most 32 bytes. Throws on anything else.
 */
export const ecrecover: Ecrecover = (digest, v, r, s, chainId) => {
  const recovery = v === 0n || v === 1n ? v : chainId === undefined ? v - 27n : v - (chainId * 2n + 35n);
  if (recovery !== 0n && recovery !== 1n) throw new Error("Invalid signature v value");
  if (r.length > 32 || s.length > 32) throw new Error("Invalid signature: r or s is longer than 32 bytes");
  const rs = new Uint8Array(64);
  rs.set(r, 32 - r.length);
  rs.set(s, 64 - s.length);
  return recoverPublicKey(digest, rs, Number(recovery), false).subarray(1);
};
