import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { EVM_ADDRESS_LENGTH } from "../encoding";
import {
  ByteReader,
  ByteWriter,
  checkEncodedSize,
  checkObject,
  type Credential,
  encodeFail,
  encodeVersioned,
  ID_LENGTH,
  openVersioned,
  SHORT_ID_LENGTH,
  SIGNATURE_LENGTH,
  SignatureError,
  type Secp256k1TransferOutput,
  type TransferableInput,
  type TransferableOutput,
  TypeId,
  recoverPublicKey,
  signHash,
} from "../utxo/codec";

/*
 * The contract chain's atomic transaction codec, byte-for-byte that of the reference node's
 * contract-chain VM (its "atomic" codec, codec version 0, linear encoding):
 *
 *   type IDs   0 UnsignedImportTx, 1 UnsignedExportTx, (2..4 skipped), 5 secp256k1fx
 *              TransferInput, (6 skipped), 7 TransferOutput, (8 skipped), 9 Credential,
 *              10 Input, 11 OutputOwners -- the secp256k1fx types keep the numbers they have on
 *              the exchange chain, so UTXOs and credentials are interchangeable.
 *   ImportTx   typeID, networkID u32, blockchainID [32], sourceChain [32],
 *              importedInputs []TransferableInput, outs []EVMOutput
 *   ExportTx   typeID, networkID u32, blockchainID [32], destinationChain [32],
 *              ins []EVMInput, exportedOutputs []TransferableOutput
 *   EVMOutput  address [20], amount u64, assetID [32]                      (60 bytes)
 *   EVMInput   address [20], amount u64, assetID [32], nonce u64           (68 bytes)
 *   signed tx  codec version u16 + unsigned tx + credentials []Credential
 *
 *   tx ID      sha256(signed bytes); signatures are recoverable secp256k1 over
 *              sha256(unsigned bytes, codec version included).
 */

/** Type IDs registered by the contract chain's atomic codec. */
export const AtomicTypeId = {
  ImportTx: 0,
  ExportTx: 1,
  Secp256k1TransferInput: TypeId.Secp256k1TransferInput,
  Secp256k1TransferOutput: TypeId.Secp256k1TransferOutput,
  Secp256k1Credential: TypeId.Secp256k1Credential,
  Secp256k1Input: 10,
  Secp256k1OutputOwners: 11,
} as const;

/** The only codec version of atomic transactions. */
export const ATOMIC_CODEC_VERSION = 0;
/** Encoded sizes of the EVM-side structures (used by the gas formula). */
export const EVM_OUTPUT_SIZE = 20 + 8 + 32;
export const EVM_INPUT_SIZE = 20 + 8 + 32 + 8;

/** An amount credited to an account of this chain by an import (nAVAX for the native coin, base units otherwise). */
export interface EvmOutput {
  address: Uint8Array;
  amount: bigint;
  assetId: Uint8Array;
}

/** An amount debited from an account of this chain by an export; `nonce` must be the account's current nonce. */
export interface EvmInput {
  address: Uint8Array;
  amount: bigint;
  assetId: Uint8Array;
  nonce: bigint;
}

export interface UnsignedImportTx {
  typeId: typeof AtomicTypeId.ImportTx;
  networkId: number;
  blockchainId: Uint8Array;
  sourceChain: Uint8Array;
  importedInputs: TransferableInput[];
  outs: EvmOutput[];
}

export interface UnsignedExportTx {
  typeId: typeof AtomicTypeId.ExportTx;
  networkId: number;
  blockchainId: Uint8Array;
  destinationChain: Uint8Array;
  ins: EvmInput[];
  exportedOutputs: TransferableOutput[];
}

export type UnsignedAtomicTx = UnsignedImportTx | UnsignedExportTx;

/** An atomic transaction with one secp256k1fx credential per imported input (import) or per EVM input (export). */
export interface SignedAtomicTx {
  unsignedTx: UnsignedAtomicTx;
  credentials: Credential[];
}

/** What a node derives from signed bytes: the transaction, the bytes its signatures cover, and its ID. */
export interface ParsedAtomicTx {
  tx: SignedAtomicTx;
  /** Codec version + unsigned tx: sha256 of these is what every signature signs; their length drives the gas. */
  unsignedBytes: Uint8Array;
  signedBytes: Uint8Array;
  id: Uint8Array;
}

function txName(typeId: number): string {
  return typeId === AtomicTypeId.ImportTx ? "ImportTx" : typeId === AtomicTypeId.ExportTx ? "ExportTx" : "UnsignedAtomicTx";
}

function checkTypeId(value: { typeId: unknown }, expected: number, name: string, path: string): void {
  if (value.typeId !== expected) encodeFail(`${path}.typeId`, `expected ${expected} (${name}), got ${String(value.typeId)}`);
}

// ---------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------

function writeEvmOutput(w: ByteWriter, out: EvmOutput, path: string): void {
  checkObject(out, path);
  w.fixedBytes(out.address, EVM_ADDRESS_LENGTH, `${path}.address`);
  w.uint64(out.amount, `${path}.amount`);
  w.fixedBytes(out.assetId, ID_LENGTH, `${path}.assetId`);
}

function writeEvmInput(w: ByteWriter, input: EvmInput, path: string): void {
  checkObject(input, path);
  w.fixedBytes(input.address, EVM_ADDRESS_LENGTH, `${path}.address`);
  w.uint64(input.amount, `${path}.amount`);
  w.fixedBytes(input.assetId, ID_LENGTH, `${path}.assetId`);
  w.uint64(input.nonce, `${path}.nonce`);
}

function writeTransferableInput(w: ByteWriter, input: TransferableInput, path: string): void {
  checkObject(input, path);
  w.fixedBytes(input.txId, ID_LENGTH, `${path}.txId`);
  w.uint32(input.outputIndex, `${path}.outputIndex`);
  w.fixedBytes(input.assetId, ID_LENGTH, `${path}.assetId`);
  const inner = input.input;
  checkObject(inner, `${path}.input`);
  checkTypeId(inner, AtomicTypeId.Secp256k1TransferInput, "secp256k1fx TransferInput", `${path}.input`);
  w.uint32(inner.typeId, `${path}.input.typeId`);
  w.uint64(inner.amount, `${path}.input.amount`);
  w.list(inner.signatureIndices, `${path}.input.signatureIndices`, (index, i) => w.uint32(index, `${path}.input.signatureIndices[${i}]`));
}

function writeTransferOutput(w: ByteWriter, out: Secp256k1TransferOutput, path: string): void {
  checkObject(out, path);
  checkTypeId(out, AtomicTypeId.Secp256k1TransferOutput, "secp256k1fx TransferOutput", path);
  w.uint32(out.typeId, `${path}.typeId`);
  w.uint64(out.amount, `${path}.amount`);
  w.uint64(out.locktime, `${path}.locktime`);
  w.uint32(out.threshold, `${path}.threshold`);
  w.list(out.addresses, `${path}.addresses`, (address, i) => w.fixedBytes(address, SHORT_ID_LENGTH, `${path}.addresses[${i}]`));
}

function writeTransferableOutput(w: ByteWriter, out: TransferableOutput, path: string): void {
  checkObject(out, path);
  w.fixedBytes(out.assetId, ID_LENGTH, `${path}.assetId`);
  writeTransferOutput(w, out.output, `${path}.output`);
}

function writeCredential(w: ByteWriter, cred: Credential, path: string): void {
  checkObject(cred, path);
  checkTypeId(cred, AtomicTypeId.Secp256k1Credential, "secp256k1fx Credential", path);
  w.uint32(cred.typeId, `${path}.typeId`);
  w.list(cred.signatures, `${path}.signatures`, (sig, i) => w.fixedBytes(sig, SIGNATURE_LENGTH, `${path}.signatures[${i}]`));
}

function writeUnsignedTx(w: ByteWriter, tx: UnsignedAtomicTx): void {
  checkObject(tx, "UnsignedAtomicTx");
  const p = txName(tx.typeId);
  if (tx.typeId !== AtomicTypeId.ImportTx && tx.typeId !== AtomicTypeId.ExportTx) {
    encodeFail("UnsignedAtomicTx.typeId", `expected 0 (ImportTx) or 1 (ExportTx), got ${String((tx as { typeId: unknown }).typeId)}`);
  }
  w.uint32(tx.typeId, `${p}.typeId`);
  w.uint32(tx.networkId, `${p}.networkId`);
  w.fixedBytes(tx.blockchainId, ID_LENGTH, `${p}.blockchainId`);
  if (tx.typeId === AtomicTypeId.ImportTx) {
    w.fixedBytes(tx.sourceChain, ID_LENGTH, `${p}.sourceChain`);
    w.list(tx.importedInputs, `${p}.importedInputs`, (input, i) => writeTransferableInput(w, input, `${p}.importedInputs[${i}]`));
    w.list(tx.outs, `${p}.outs`, (out, i) => writeEvmOutput(w, out, `${p}.outs[${i}]`));
  } else {
    w.fixedBytes(tx.destinationChain, ID_LENGTH, `${p}.destinationChain`);
    w.list(tx.ins, `${p}.ins`, (input, i) => writeEvmInput(w, input, `${p}.ins[${i}]`));
    w.list(tx.exportedOutputs, `${p}.exportedOutputs`, (out, i) => writeTransferableOutput(w, out, `${p}.exportedOutputs[${i}]`));
  }
}

/** Unsigned atomic transaction bytes (codec version + type ID + fields): what the signatures cover. */
export function encodeUnsignedAtomicTx(tx: UnsignedAtomicTx): Uint8Array {
  return checkEncodedSize(encodeVersioned((w) => writeUnsignedTx(w, tx), ATOMIC_CODEC_VERSION), "unsigned atomic transaction");
}

/** Signed atomic transaction bytes: codec version + unsigned tx + credentials. */
export function encodeSignedAtomicTx(tx: SignedAtomicTx): Uint8Array {
  checkObject(tx, "SignedAtomicTx");
  const bytes = encodeVersioned((w) => {
    writeUnsignedTx(w, tx.unsignedTx);
    w.list(tx.credentials, "SignedAtomicTx.credentials", (cred, i) => writeCredential(w, cred, `SignedAtomicTx.credentials[${i}]`));
  }, ATOMIC_CODEC_VERSION);
  return checkEncodedSize(bytes, "signed atomic transaction");
}

/** An EVMOutput alone (60 bytes, no codec version). */
export function encodeEvmOutput(out: EvmOutput): Uint8Array {
  const w = new ByteWriter(EVM_OUTPUT_SIZE);
  writeEvmOutput(w, out, "EvmOutput");
  return w.finish();
}

/** An EVMInput alone (68 bytes, no codec version). */
export function encodeEvmInput(input: EvmInput): Uint8Array {
  const w = new ByteWriter(EVM_INPUT_SIZE);
  writeEvmInput(w, input, "EvmInput");
  return w.finish();
}

// ---------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------

function readTypeId(r: ByteReader, expected: number, name: string, path: string): number {
  const start = r.offset;
  const typeId = r.uint32(`${path}.typeId`);
  if (typeId !== expected) r.fail(`${path}.typeId`, `unexpected type ID ${typeId} (expected ${expected}, ${name})`, start);
  return typeId;
}

function readEvmOutput(r: ByteReader, path: string): EvmOutput {
  const address = r.fixedBytes(EVM_ADDRESS_LENGTH, `${path}.address`);
  const amount = r.uint64(`${path}.amount`);
  const assetId = r.fixedBytes(ID_LENGTH, `${path}.assetId`);
  return { address, amount, assetId };
}

function readEvmInput(r: ByteReader, path: string): EvmInput {
  const address = r.fixedBytes(EVM_ADDRESS_LENGTH, `${path}.address`);
  const amount = r.uint64(`${path}.amount`);
  const assetId = r.fixedBytes(ID_LENGTH, `${path}.assetId`);
  const nonce = r.uint64(`${path}.nonce`);
  return { address, amount, assetId, nonce };
}

function readTransferableInput(r: ByteReader, path: string): TransferableInput {
  const txId = r.fixedBytes(ID_LENGTH, `${path}.txId`);
  const outputIndex = r.uint32(`${path}.outputIndex`);
  const assetId = r.fixedBytes(ID_LENGTH, `${path}.assetId`);
  readTypeId(r, AtomicTypeId.Secp256k1TransferInput, "secp256k1fx TransferInput", `${path}.input`);
  const amount = r.uint64(`${path}.input.amount`);
  const signatureIndices = r.list(`${path}.input.signatureIndices`, (i) => r.uint32(`${path}.input.signatureIndices[${i}]`));
  return { txId, outputIndex, assetId, input: { typeId: TypeId.Secp256k1TransferInput, amount, signatureIndices } };
}

function readTransferableOutput(r: ByteReader, path: string): TransferableOutput {
  const assetId = r.fixedBytes(ID_LENGTH, `${path}.assetId`);
  const p = `${path}.output`;
  readTypeId(r, AtomicTypeId.Secp256k1TransferOutput, "secp256k1fx TransferOutput", p);
  const amount = r.uint64(`${p}.amount`);
  const locktime = r.uint64(`${p}.locktime`);
  const threshold = r.uint32(`${p}.threshold`);
  const addresses = r.list(`${p}.addresses`, (i) => r.fixedBytes(SHORT_ID_LENGTH, `${p}.addresses[${i}]`));
  return { assetId, output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime, threshold, addresses } };
}

function readCredential(r: ByteReader, path: string): Credential {
  readTypeId(r, AtomicTypeId.Secp256k1Credential, "secp256k1fx Credential", path);
  const signatures = r.list(`${path}.signatures`, (i) => r.fixedBytes(SIGNATURE_LENGTH, `${path}.signatures[${i}]`));
  return { typeId: TypeId.Secp256k1Credential, signatures };
}

function readUnsignedTx(r: ByteReader): UnsignedAtomicTx {
  const start = r.offset;
  const typeId = r.uint32("UnsignedAtomicTx.typeId");
  if (typeId !== AtomicTypeId.ImportTx && typeId !== AtomicTypeId.ExportTx) {
    r.fail("UnsignedAtomicTx.typeId", `unexpected type ID ${typeId} (expected 0, ImportTx, or 1, ExportTx)`, start);
  }
  const p = txName(typeId);
  const networkId = r.uint32(`${p}.networkId`);
  const blockchainId = r.fixedBytes(ID_LENGTH, `${p}.blockchainId`);
  if (typeId === AtomicTypeId.ImportTx) {
    const sourceChain = r.fixedBytes(ID_LENGTH, `${p}.sourceChain`);
    const importedInputs = r.list(`${p}.importedInputs`, (i) => readTransferableInput(r, `${p}.importedInputs[${i}]`));
    const outs = r.list(`${p}.outs`, (i) => readEvmOutput(r, `${p}.outs[${i}]`));
    return { typeId, networkId, blockchainId, sourceChain, importedInputs, outs };
  }
  const destinationChain = r.fixedBytes(ID_LENGTH, `${p}.destinationChain`);
  const ins = r.list(`${p}.ins`, (i) => readEvmInput(r, `${p}.ins[${i}]`));
  const exportedOutputs = r.list(`${p}.exportedOutputs`, (i) => readTransferableOutput(r, `${p}.exportedOutputs[${i}]`));
  return { typeId, networkId, blockchainId, destinationChain, ins, exportedOutputs };
}

/** Decode unsigned atomic transaction bytes (codec version + unsigned tx); rejects trailing bytes. */
export function decodeUnsignedAtomicTx(bytes: Uint8Array): UnsignedAtomicTx {
  const r = openVersioned(bytes, "UnsignedAtomicTx", ATOMIC_CODEC_VERSION);
  const tx = readUnsignedTx(r);
  r.end(txName(tx.typeId));
  return tx;
}

/**
 * Decode signed atomic transaction bytes. Credentials must be secp256k1fx credentials (type 9):
 * the only kind the node can verify an atomic input with.
 */
export function parseSignedAtomicTx(signedBytes: Uint8Array): ParsedAtomicTx {
  const r = openVersioned(signedBytes, "SignedAtomicTx", ATOMIC_CODEC_VERSION);
  const unsignedTx = readUnsignedTx(r);
  const unsignedLength = r.offset;
  const credentials = r.list("SignedAtomicTx.credentials", (i) => readCredential(r, `SignedAtomicTx.credentials[${i}]`));
  r.end("SignedAtomicTx");
  return {
    tx: { unsignedTx, credentials },
    unsignedBytes: signedBytes.slice(0, unsignedLength),
    signedBytes: signedBytes.slice(),
    id: sha256(signedBytes),
  };
}

/** Decode signed atomic transaction bytes; rejects trailing bytes. */
export function decodeSignedAtomicTx(signedBytes: Uint8Array): SignedAtomicTx {
  return parseSignedAtomicTx(signedBytes).tx;
}

/** Decode one EVMOutput (60 bytes). */
export function decodeEvmOutput(bytes: Uint8Array): EvmOutput {
  const r = new ByteReader(bytes);
  const out = readEvmOutput(r, "EvmOutput");
  r.end("EvmOutput");
  return out;
}

/** Decode one EVMInput (68 bytes). */
export function decodeEvmInput(bytes: Uint8Array): EvmInput {
  const r = new ByteReader(bytes);
  const input = readEvmInput(r, "EvmInput");
  r.end("EvmInput");
  return input;
}

// ---------------------------------------------------------------------------------------
// IDs and signatures
// ---------------------------------------------------------------------------------------

/** Transaction ID: sha256 of the signed bytes. */
export function atomicTxId(signedBytes: Uint8Array): Uint8Array {
  return sha256(signedBytes);
}

/** Parse (or re-encode) a signed transaction into bytes, unsigned bytes and ID. */
export function describeSignedAtomicTx(tx: SignedAtomicTx): ParsedAtomicTx {
  const signedBytes = encodeSignedAtomicTx(tx);
  return parseSignedAtomicTx(signedBytes);
}

/**
 * Sign an unsigned atomic transaction: credential i carries one signature per key of
 * `keysPerCredential[i]` (in the order of the input's signature indices). Imports need one
 * credential per imported input, exports one per EVM input (signed by the key owning the
 * input's address).
 */
export function signAtomicTx(unsignedTx: UnsignedAtomicTx, keysPerCredential: Uint8Array[][]): ParsedAtomicTx {
  if (!Array.isArray(keysPerCredential)) throw new SignatureError("keysPerCredential: expected an array with one array of private keys per credential");
  const unsignedBytes = encodeUnsignedAtomicTx(unsignedTx);
  const hash = sha256(unsignedBytes);
  const credentials: Credential[] = keysPerCredential.map((keys, i) => {
    if (!Array.isArray(keys)) throw new SignatureError(`keysPerCredential[${i}]: expected an array of private keys`);
    return { typeId: TypeId.Secp256k1Credential, signatures: keys.map((key) => signHash(hash, key)) };
  });
  return describeSignedAtomicTx({ unsignedTx, credentials });
}

/** 20-byte EVM address of a 33- or 65-byte secp256k1 public key: keccak256(x || y)[12..]. */
export function evmAddressOfPublicKey(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).slice(12);
}

/** 20-byte EVM address of a 32-byte private key. */
export function evmAddressOfPrivateKey(privateKey: Uint8Array): Uint8Array {
  return evmAddressOfPublicKey(secp256k1.getPublicKey(privateKey, true));
}

/** EVM address of the key behind a 65-byte signature over sha256(unsignedBytes). */
export function recoverEvmAddress(unsignedBytes: Uint8Array, signature: Uint8Array): Uint8Array {
  return evmAddressOfPublicKey(recoverPublicKey(sha256(unsignedBytes), signature));
}

// ---------------------------------------------------------------------------------------
// Orders the node requires
// ---------------------------------------------------------------------------------------

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Order of EVMOutputs (and uniqueness key): address, then asset ID. */
export function compareEvmOutputs(a: EvmOutput, b: EvmOutput): number {
  return compareBytes(a.address, b.address) || compareBytes(a.assetId, b.assetId);
}

/** Order of EVMInputs (and uniqueness key): address, then asset ID (the nonce plays no part). */
export function compareEvmInputs(a: EvmInput, b: EvmInput): number {
  return compareBytes(a.address, b.address) || compareBytes(a.assetId, b.assetId);
}
