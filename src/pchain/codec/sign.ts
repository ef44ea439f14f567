import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { signHash, withTxId } from "../../utxo/codec";
import { decodePSignedTx, encodePSignedTx, encodePUnsignedTx } from "./codec";
import { PTypeId } from "./type-ids";
import type { PCredential, PSignedTx, PUnsignedTx } from "./types";

/*
 * IDs and signatures of the platform chain, as the reference node computes them: tx ID =
 * sha256(signed tx bytes), block ID = sha256(block bytes), every signature a recoverable
 * secp256k1 signature over sha256(unsigned tx bytes). A new multisig alias's address is
 * ripemd160(tx ID) (Camino multisig.ComputeAliasID).
 */

/** How one credential is signed: the keys in signing order, and for a Camino MultisigCredential its sigIdxs. */
export interface CredentialPlan {
  keys: Uint8Array[];
  /** Present: a MultisigCredential (8204) with these indices; absent: a plain secp256k1fx credential (9). */
  sigIdxs?: number[];
}

export interface SignedPTx {
  tx: PSignedTx;
  bytes: Uint8Array;
  txId: Uint8Array;
}

/** Signs `unsignedTx` with one credential per plan, in order (inputs, then imported inputs, then an alias update's auth). */
export function signPTx(unsignedTx: PUnsignedTx, plans: CredentialPlan[]): SignedPTx {
  const hash = sha256(encodePUnsignedTx(unsignedTx));
  const credentials: PCredential[] = plans.map((plan) => {
    const signatures = plan.keys.map((key) => signHash(hash, key));
    return plan.sigIdxs === undefined ? { typeId: PTypeId.Secp256k1Credential, signatures } : { typeId: PTypeId.MultisigCredential, signatures, sigIdxs: plan.sigIdxs };
  });
  return withTxId<PSignedTx>({ unsignedTx, credentials }, encodePSignedTx);
}

/** What the chain derives from signed bytes: the transaction, the signed-over hash and the ID. */
export interface ParsedPTx {
  tx: PSignedTx;
  /** sha256(unsigned tx bytes): what the credentials sign. */
  unsignedHash: Uint8Array;
  bytes: Uint8Array;
  txId: Uint8Array;
}

/** Decodes signed transaction bytes (throws CodecError). */
export function parsePTx(bytes: Uint8Array): ParsedPTx {
  const { tx, unsignedLength } = decodePSignedTx(bytes);
  return { tx, unsignedHash: sha256(bytes.subarray(0, unsignedLength)), bytes: bytes.slice(), txId: sha256(bytes) };
}

/** The address of an alias created by the transaction `txId`: ripemd160(txID). */
export function aliasIdFromTxId(txId: Uint8Array): Uint8Array {
  return ripemd160(txId);
}

/**
 * The address Camino's genesis expects for an alias declared there (genesis
 * MultisigAlias.ComputeAlias with the empty tx ID): ripemd160(sha256(32 zero bytes ‖
 * threshold uint32 little-endian ‖ memo ‖ each address)).
 */
export function genesisAliasId(threshold: number, memo: Uint8Array, addresses: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(32 + 4 + memo.length + 20 * addresses.length);
  new DataView(bytes.buffer).setUint32(32, threshold, true);
  bytes.set(memo, 36);
  addresses.forEach((a, i) => bytes.set(a, 36 + memo.length + 20 * i));
  return aliasIdFromTxId(sha256(bytes));
}
