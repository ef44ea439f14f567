/**
 * ECDSA over secp256k1 through libsecp256k1 compiled to WebAssembly (bitcoinjs'
 * `tiny-secp256k1`): about four times faster than pure-JS signing and five times faster at
 * public-key recovery, which every `eth_sendTransaction`, raw transaction, ECRECOVER call and
 * exchange-chain credential pays. Signatures are RFC 6979 deterministic with a low s, the same
 * bytes ethers or noble produce for the same key and digest.
 */
type Libsecp256k1 = typeof import("tiny-secp256k1");

let loaded: Libsecp256k1 | undefined;

/**
 * libsecp256k1, loaded when first used: compiling its WebAssembly takes a few milliseconds, which
 * a test run whose signatures all come from a signature memo never needs to spend.
 */
function ecc(): Libsecp256k1 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("tiny-secp256k1") as Libsecp256k1;
  return loaded;
}

/** A recoverable signature: 32-byte r and s, and the recovery id (0 or 1 for low-s signatures). */
export interface RecoverableSignature {
  r: Uint8Array;
  s: Uint8Array;
  recovery: number;
}

/**
 * Signs a 32-byte digest. `extraEntropy` (32 bytes) is mixed into the RFC 6979 nonce when
 * given, as hedged signing does; without it the same key and digest always give the same
 * signature.
 */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array, extraEntropy?: Uint8Array): RecoverableSignature {
  const { signature, recoveryId } = ecc().signRecoverable(digest, privateKey, extraEntropy);
  return { r: signature.subarray(0, 32), s: signature.subarray(32, 64), recovery: recoveryId };
}

/**
 * The public key (65-byte uncompressed, or 33-byte compressed) whose key signed `digest` with
 * the 64-byte `rs` (r || s) and recovery id 0–3. Throws when r or s is zero or out of range, r
 * is not a curve x-coordinate, or no key matches. A high s is accepted, as ECDSA recovery
 * does; callers that forbid it check s themselves.
 */
export function recoverPublicKey(digest: Uint8Array, rs: Uint8Array, recovery: number, compressed: boolean): Uint8Array {
  if (!Number.isInteger(recovery) || recovery < 0 || recovery > 3) throw new Error(`recovery id ${recovery} is not 0, 1, 2 or 3`);
  let publicKey: Uint8Array | null;
  try {
    publicKey = ecc().recover(digest, rs, recovery as 0 | 1 | 2 | 3, compressed);
  } catch (error) {
    throw new Error(`invalid signature: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (publicKey === null) throw new Error("invalid signature: no public key recovers from it");
  return publicKey;
}

/** The public key of a 32-byte private key (65-byte uncompressed, or 33-byte compressed). */
export function publicKeyOf(privateKey: Uint8Array, compressed: boolean): Uint8Array {
  const publicKey = ecc().pointFromScalar(privateKey, compressed);
  if (publicKey === null) throw new Error("invalid private key");
  return publicKey;
}
