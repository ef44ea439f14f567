import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";

const Point = secp256k1.Point;
const Fn = Point.Fn;
const N = Fn.ORDER;
const HALF_N = N >> 1n;

function toBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/**
 * ECDSA signing for the node's own unlocked accounts, whose keys are public test keys.
 *
 * noble's `sign` multiplies in constant time with blinding, which protects secret keys from
 * timing attacks and costs about half the CPU of a local transfer. These keys have nothing to
 * hide, so the nonce point is computed with the curve library's variable-time multiplication.
 * The nonce is deterministic (HMAC-SHA256 of key and digest, re-drawn on the negligible
 * chance of an invalid value), so the same request always gives the same signature; s is
 * normalised low, and the result is noble's "recovered" format (recovery byte, r, s) that
 * ethereumjs expects from `customCrypto.ecsign`.
 */
export function signWithPublicTestKey(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const d = toBigInt(privateKey);
  const z = toBigInt(digest) % N;
  for (let counter = 0; counter < 256; counter++) {
    const seed = new Uint8Array(digest.length + 1);
    seed.set(digest);
    seed[digest.length] = counter;
    const k = toBigInt(hmac(sha256, privateKey, seed)) % N;
    if (k === 0n) continue;
    const R = Point.BASE.multiplyUnsafe(k).toAffine();
    const r = R.x % N;
    if (r === 0n) continue;
    let s = (Fn.inv(k) * ((z + r * d) % N)) % N;
    if (s === 0n) continue;
    let recovery = (R.x === r ? 0 : 2) | Number(R.y & 1n);
    if (s > HALF_N) {
      s = N - s;
      recovery ^= 1;
    }
    const out = new Uint8Array(65);
    out[0] = recovery;
    out.set(Fn.toBytes(r), 1);
    out.set(Fn.toBytes(s), 33);
    return out;
  }
  throw new Error("could not derive a valid ECDSA nonce");
}

/** The same, with the signature of ethereumjs' `customCrypto.ecsign` (it always asks for "recovered"). */
export const devEcsign = ((digest: Uint8Array, privateKey: Uint8Array) => signWithPublicTestKey(digest, privateKey)) as unknown as typeof secp256k1.sign;
