import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { publicKeyOf, recoverPublicKey as recoverSigner, signDigest } from "../../crypto/secp256k1";
import { shortIdFromPublicKey as shortIdOfPublicKey, UINT32_MAX } from "../../encoding";
import { CodecError, SignatureError } from "./errors";
import { decodeSignedTxWithLength, decodeUnsignedTx } from "./decode";
import { encodeSignedTx, encodeUnsignedTx } from "./encode";
import { TypeId } from "./type-ids";
import {
  type Credential,
  type CredentialTypeId,
  type FxOperation,
  ID_LENGTH,
  SIGNATURE_LENGTH,
  type SignedTx,
  type UnsignedTx,
} from "./types";

/*
 * Identifiers and signatures of the exchange chain, as the reference node computes them:
 *
 *   tx ID        = sha256(signed tx bytes)                    (codec version included)
 *   signed hash  = sha256(unsigned tx bytes)                  (codec version included)
 *   signature    = recoverable secp256k1 over that hash, 65 bytes [r || s || v], v in {0, 1},
 *                  deterministic nonce (RFC 6979), low s
 *   UTXO ID      = sha256(uint64 big-endian output index || tx ID)
 *   asset ID     = ID of the CreateAssetTx that created the asset
 *   short ID     = ripemd160(sha256(33-byte compressed public key))
 */

const SECP256K1_N = secp256k1.Point.CURVE().n;
const HALF_N = SECP256K1_N >> 1n;

function bytesToBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  return value;
}

function requireBytes(value: unknown, what: string, length?: number): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new SignatureError(`${what}: expected a Uint8Array${length === undefined ? "" : ` of ${length} bytes`}`);
  if (length !== undefined && value.length !== length) {
    throw new SignatureError(`${what}: expected ${length} bytes, got ${value.length}`);
  }
  return value;
}

function requirePrivateKey(key: unknown, what: string): Uint8Array {
  const bytes = requireBytes(key, what, 32);
  if (!secp256k1.utils.isValidSecretKey(bytes)) {
    throw new SignatureError(`${what}: not a valid secp256k1 private key (expected a scalar in [1, n))`);
  }
  return bytes;
}

/** Transaction ID: sha256 of the signed transaction bytes. */
export function txId(signedBytes: Uint8Array): Uint8Array {
  if (!(signedBytes instanceof Uint8Array)) throw new CodecError("txId: expected the signed transaction bytes as a Uint8Array", { path: "txId" });
  return sha256(signedBytes);
}

/** UTXO ID (the node's "input ID"): sha256(uint64 big-endian output index || tx ID). */
export function utxoId(transactionId: Uint8Array, outputIndex: number): Uint8Array {
  if (!(transactionId instanceof Uint8Array) || transactionId.length !== ID_LENGTH) {
    throw new CodecError(`utxoId: expected a ${ID_LENGTH}-byte transaction ID`, { path: "utxoId.txId" });
  }
  if (!Number.isInteger(outputIndex) || outputIndex < 0 || outputIndex > UINT32_MAX) {
    throw new CodecError(`utxoId: output index must be an integer in [0, 2^32 - 1], got ${String(outputIndex)}`, {
      path: "utxoId.outputIndex",
    });
  }
  const preimage = new Uint8Array(8 + ID_LENGTH);
  new DataView(preimage.buffer).setBigUint64(0, BigInt(outputIndex), false);
  preimage.set(transactionId, 8);
  return sha256(preimage);
}

/** 20-byte short ID (address) of a secp256k1 public key (33-byte compressed or 65-byte uncompressed). */
export function shortIdFromPublicKey(publicKey: Uint8Array): Uint8Array {
  return shortIdOfPublicKey(publicKey);
}

/** 33-byte compressed public key of a 32-byte private key. */
export function publicKeyFromPrivateKey(privateKey: Uint8Array): Uint8Array {
  return publicKeyOf(requirePrivateKey(privateKey, "private key"), true);
}

/** 20-byte short ID (address) controlled by a 32-byte private key. */
export function shortIdFromPrivateKey(privateKey: Uint8Array): Uint8Array {
  return shortIdOfPublicKey(publicKeyFromPrivateKey(privateKey));
}

/** Sign a 32-byte hash: 65-byte recoverable signature [r || s || v] (deterministic, low s). */
export function signHash(hash: Uint8Array, privateKey: Uint8Array): Uint8Array {
  requireBytes(hash, "hash", 32);
  const { r, s, recovery } = signDigest(hash, requirePrivateKey(privateKey, "private key"));
  const signature = new Uint8Array(SIGNATURE_LENGTH);
  signature.set(r, 0);
  signature.set(s, 32);
  signature[64] = recovery;
  return signature;
}

/**
 * Compressed public key (33 bytes) that produced a 65-byte [r || s || v] signature over a
 * 32-byte hash. Rejects what the reference node rejects: a high s ("mutated" signature), a
 * recovery byte above 3, r or s out of range.
 */
export function recoverPublicKey(hash: Uint8Array, signature: Uint8Array): Uint8Array {
  requireBytes(hash, "hash", 32);
  requireBytes(signature, "signature", SIGNATURE_LENGTH);
  const r = bytesToBigInt(signature.subarray(0, 32));
  const s = bytesToBigInt(signature.subarray(32, 64));
  const v = signature[64]!;
  if (s > HALF_N) {
    throw new SignatureError("signature has a high s value (the node accepts only low-s signatures)", "signature was mutated from its original format");
  }
  if (v > 3) {
    throw new SignatureError(`signature recovery byte is ${v}, expected 0 or 1 (at most 3)`, v <= 7 ? "wasn't expecting a compressed key" : "invalid signature");
  }
  if (r === 0n || r >= SECP256K1_N || s === 0n) throw new SignatureError("signature r or s is out of range", "invalid signature");
  try {
    return recoverSigner(hash, signature.subarray(0, 64), v, true);
  } catch (error) {
    throw new SignatureError(`cannot recover a public key from the signature (${error instanceof Error ? error.message : String(error)})`, "invalid signature");
  }
}

function credentialTypeOfOperation(op: FxOperation): CredentialTypeId {
  switch (op.typeId) {
    case TypeId.Secp256k1MintOperation:
      return TypeId.Secp256k1Credential;
    case TypeId.NftMintOperation:
    case TypeId.NftTransferOperation:
      return TypeId.NftCredential;
    case TypeId.PropertyMintOperation:
    case TypeId.PropertyBurnOperation:
      return TypeId.PropertyCredential;
  }
}

/**
 * The credentials a transaction needs, in order: one secp256k1fx credential per input, then
 * one per imported input (ImportTx) or one per operation (OperationTx), typed by the
 * operation's feature extension.
 */
export function credentialTypeIdsOf(tx: UnsignedTx): CredentialTypeId[] {
  const types: CredentialTypeId[] = tx.inputs.map(() => TypeId.Secp256k1Credential);
  if (tx.typeId === TypeId.ImportTx) for (const _ of tx.importedInputs) types.push(TypeId.Secp256k1Credential);
  if (tx.typeId === TypeId.OperationTx) for (const op of tx.operations) types.push(credentialTypeOfOperation(op.operation));
  return types;
}

function signWithTypes(unsignedBytes: Uint8Array, types: CredentialTypeId[], keysPerInput: Uint8Array[][]): Credential[] {
  if (!Array.isArray(keysPerInput)) throw new SignatureError("keysPerInput: expected an array with one array of private keys per credential");
  if (keysPerInput.length !== types.length) {
    throw new SignatureError(
      `keysPerInput has ${keysPerInput.length} key list(s) but the transaction needs ${types.length} credential(s) ` +
        "(one per input, then one per imported input or operation)",
      `wrong number of credentials: ${keysPerInput.length} != ${types.length}`,
    );
  }
  const hash = sha256(unsignedBytes);
  return keysPerInput.map((keys, i) => {
    if (!Array.isArray(keys)) throw new SignatureError(`keysPerInput[${i}]: expected an array of private keys`);
    const signatures = keys.map((key, j) => {
      requirePrivateKey(key, `keysPerInput[${i}][${j}]`);
      return signHash(hash, key);
    });
    return { typeId: types[i]!, signatures };
  });
}

/**
 * Credentials for unsigned transaction bytes (codec version included): for credential i,
 * one signature per key of `keysPerInput[i]`, in order (the order must match the input's
 * signature indices). Credential types follow the transaction (see credentialTypeIdsOf).
 */
export function signUnsignedTx(unsignedBytes: Uint8Array, keysPerInput: Uint8Array[][]): Credential[] {
  const tx = decodeUnsignedTx(unsignedBytes);
  return signWithTypes(unsignedBytes, credentialTypeIdsOf(tx), keysPerInput);
}

/** A signed transaction (of any UTXO chain) with its bytes as `encode` writes them and its ID, the sha256 of those bytes. */
export function withTxId<Tx>(tx: Tx, encode: (tx: Tx) => Uint8Array): { tx: Tx; bytes: Uint8Array; txId: Uint8Array } {
  const bytes = encode(tx);
  return { tx, bytes, txId: sha256(bytes) };
}

/** Sign an unsigned transaction: the signed transaction, its bytes and its ID. */
export function signTx(unsignedTx: UnsignedTx, keysPerInput: Uint8Array[][]): { tx: SignedTx; bytes: Uint8Array; txId: Uint8Array } {
  const unsignedBytes = encodeUnsignedTx(unsignedTx);
  const credentials = signWithTypes(unsignedBytes, credentialTypeIdsOf(unsignedTx), keysPerInput);
  return withTxId<SignedTx>({ unsignedTx, credentials }, encodeSignedTx);
}

/** What the node derives from signed transaction bytes: the transaction, the signed-over bytes and the ID. */
export interface ParsedSignedTx {
  tx: SignedTx;
  /** Codec version + unsigned transaction: the bytes whose sha256 every signature signs. */
  unsignedBytes: Uint8Array;
  signedBytes: Uint8Array;
  txId: Uint8Array;
}

/** Decode signed transaction bytes like the node's parser: transaction, unsigned bytes and tx ID. */
export function parseSignedTx(signedBytes: Uint8Array): ParsedSignedTx {
  const { tx, unsignedLength } = decodeSignedTxWithLength(signedBytes);
  return {
    tx,
    unsignedBytes: signedBytes.slice(0, unsignedLength),
    signedBytes: signedBytes.slice(),
    txId: sha256(signedBytes),
  };
}

/**
 * Short IDs (addresses) of the keys behind every signature, per credential, recovered from
 * sha256(unsigned tx bytes). Throws a SignatureError for a signature the node would refuse.
 */
export function recoverSigners(signedTx: SignedTx | Uint8Array): Uint8Array[][] {
  let tx: SignedTx;
  let unsignedBytes: Uint8Array;
  if (signedTx instanceof Uint8Array) {
    const parsed = parseSignedTx(signedTx);
    tx = parsed.tx;
    unsignedBytes = parsed.unsignedBytes;
  } else {
    tx = signedTx;
    unsignedBytes = encodeUnsignedTx(tx.unsignedTx);
  }
  const hash = sha256(unsignedBytes);
  return tx.credentials.map((credential, i) =>
    credential.signatures.map((signature, j) => {
      try {
        return shortIdOfPublicKey(recoverPublicKey(hash, signature));
      } catch (error) {
        if (error instanceof SignatureError) {
          throw new SignatureError(`credentials[${i}].signatures[${j}]: ${error.message}`, error.nodeMessage);
        }
        throw error;
      }
    }),
  );
}
