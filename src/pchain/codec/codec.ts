import {
  ByteReader,
  ByteWriter,
  CodecError,
  encodeTransferableInput,
  encodeTransferableOutput,
  encodeVersioned,
  ID_LENGTH,
  openVersioned,
  readBaseTxFields,
  readExportFields,
  readImportFields,
  readOwners,
  SHORT_ID_LENGTH,
  SIGNATURE_LENGTH,
  type TransferableInput,
  type TransferableOutput,
  type TransferableReaders,
  TypeId,
  writeOwners,
} from "../../utxo/codec";
import { describePTypeId, P_BLOCK_TYPES, P_CREDENTIAL_TYPES, P_TX_TYPES, PTypeId, pTypeIdName } from "./type-ids";
import type { AliasWithNonce, MultisigAlias, PBlock, PCredential, PSignedTx, PUnsignedTx } from "./types";

/*
 * The platform chain's bytes, those of the reference node's linear codec (the exchange
 * chain's layout: codec version uint16 in front of a whole value, big-endian integers,
 * uint32-counted slices, uint32 type IDs in front of interface values). A transaction inside
 * a block is written without a codec version (blocks hold `*txs.Tx` values).
 *
 *   MultisigAliasTx  8201, base fields, alias {ID [20], memo bytes, owners (11 + owners)},
 *                    auth (10 + signature indices)
 *   MultisigCredential 8204, signatures, sigIdxs (uint32 slice)
 *   BanffStandardBlock 32, time u64, parentID [32], height u64, txs
 *   ApricotCommitBlock 2, parentID [32], height u64
 */

function typeId(r: ByteReader, allowed: readonly number[], path: string): number {
  const start = r.offset;
  const id = r.uint32(`${path}.typeId`);
  if (!allowed.includes(id)) r.fail(`${path}.typeId`, `${describePTypeId(id)} is not allowed here (expected ${allowed.map(describePTypeId).join(", ")})`, start);
  return id;
}

function readIndices(r: ByteReader, path: string): number[] {
  return r.list(path, (i) => r.uint32(`${path}[${i}]`));
}

function readTransferableOutput(r: ByteReader, path: string): TransferableOutput {
  const assetId = r.fixedBytes(ID_LENGTH, `${path}.assetId`);
  typeId(r, [PTypeId.Secp256k1TransferOutput], `${path}.output`);
  const amount = r.uint64(`${path}.output.amount`);
  return { assetId, output: { typeId: TypeId.Secp256k1TransferOutput, amount, ...readOwners(r, `${path}.output`) } };
}

function readTransferableInput(r: ByteReader, path: string): TransferableInput {
  const txId = r.fixedBytes(ID_LENGTH, `${path}.txId`);
  const outputIndex = r.uint32(`${path}.outputIndex`);
  const assetId = r.fixedBytes(ID_LENGTH, `${path}.assetId`);
  typeId(r, [PTypeId.Secp256k1TransferInput], `${path}.input`);
  const amount = r.uint64(`${path}.input.amount`);
  const signatureIndices = readIndices(r, `${path}.input.signatureIndices`);
  return { txId, outputIndex, assetId, input: { typeId: TypeId.Secp256k1TransferInput, amount, signatureIndices } };
}

function readAlias(r: ByteReader, path: string): MultisigAlias {
  const id = r.fixedBytes(SHORT_ID_LENGTH, `${path}.id`);
  const memo = r.bytesWithLength(`${path}.memo`);
  typeId(r, [PTypeId.Secp256k1OutputOwners], `${path}.owners`);
  return { id, memo, owners: readOwners(r, `${path}.owners`) };
}

function writeAlias(w: ByteWriter, alias: MultisigAlias, path: string): void {
  w.fixedBytes(alias.id, SHORT_ID_LENGTH, `${path}.id`);
  w.bytes(alias.memo, `${path}.memo`);
  w.uint32(PTypeId.Secp256k1OutputOwners, `${path}.owners.typeId`);
  writeOwners(w, alias.owners, `${path}.owners`);
}

/** The platform chain's transferables: secp256k1fx transfer outputs and inputs only. */
const P_TRANSFERABLES: TransferableReaders = { output: readTransferableOutput, input: readTransferableInput };

function readUnsignedTx(r: ByteReader, path: string): PUnsignedTx {
  const id = typeId(r, P_TX_TYPES, path);
  const p = `${path}(${pTypeIdName(id)})`;
  const base = readBaseTxFields(r, p, P_TRANSFERABLES);
  switch (id) {
    case PTypeId.ImportTx:
      return { typeId: id, ...base, ...readImportFields(r, p, P_TRANSFERABLES) };
    case PTypeId.ExportTx:
      return { typeId: id, ...base, ...readExportFields(r, p, P_TRANSFERABLES) };
    case PTypeId.MultisigAliasTx: {
      const alias = readAlias(r, `${p}.alias`);
      typeId(r, [PTypeId.Secp256k1Input], `${p}.auth`);
      return { typeId: id, ...base, alias, auth: { signatureIndices: readIndices(r, `${p}.auth.signatureIndices`) } };
    }
    case PTypeId.BaseTx:
    case PTypeId.CaminoBaseTx:
      return { typeId: id, ...base };
    default:
      return r.fail(`${p}.typeId`, `unexpected ${describePTypeId(id)}`);
  }
}

function writeUnsignedTx(w: ByteWriter, tx: PUnsignedTx, path: string): void {
  const p = `${path}(${pTypeIdName(tx.typeId) ?? tx.typeId})`;
  if (!(P_TX_TYPES as readonly number[]).includes(tx.typeId)) throw new CodecError(`cannot encode ${p}.typeId: ${describePTypeId(tx.typeId)}`, { path: p });
  w.uint32(tx.typeId, `${p}.typeId`);
  w.uint32(tx.networkId, `${p}.networkId`);
  w.fixedBytes(tx.blockchainId, ID_LENGTH, `${p}.blockchainId`);
  const raw = (bytes: Uint8Array, at: string): void => void w.fixedBytes(bytes, bytes.length, at);
  w.list(tx.outputs, `${p}.outputs`, (o, i) => raw(encodeTransferableOutput(o), `${p}.outputs[${i}]`));
  w.list(tx.inputs, `${p}.inputs`, (input, i) => raw(encodeTransferableInput(input), `${p}.inputs[${i}]`));
  w.bytes(tx.memo, `${p}.memo`);
  switch (tx.typeId) {
    case PTypeId.ImportTx:
      w.fixedBytes(tx.sourceChain, ID_LENGTH, `${p}.sourceChain`);
      w.list(tx.importedInputs, `${p}.importedInputs`, (input, i) => raw(encodeTransferableInput(input), `${p}.importedInputs[${i}]`));
      return;
    case PTypeId.ExportTx:
      w.fixedBytes(tx.destinationChain, ID_LENGTH, `${p}.destinationChain`);
      w.list(tx.exportedOutputs, `${p}.exportedOutputs`, (o, i) => raw(encodeTransferableOutput(o), `${p}.exportedOutputs[${i}]`));
      return;
    case PTypeId.MultisigAliasTx:
      writeAlias(w, tx.alias, `${p}.alias`);
      w.uint32(PTypeId.Secp256k1Input, `${p}.auth.typeId`);
      w.list(tx.auth.signatureIndices, `${p}.auth.signatureIndices`, (n, i) => w.uint32(n, `${p}.auth.signatureIndices[${i}]`));
      return;
    default:
      return;
  }
}

function readCredential(r: ByteReader, path: string): PCredential {
  const id = typeId(r, P_CREDENTIAL_TYPES, path);
  const signatures = r.list(`${path}.signatures`, (i) => r.fixedBytes(SIGNATURE_LENGTH, `${path}.signatures[${i}]`));
  if (id === PTypeId.MultisigCredential) return { typeId: id, signatures, sigIdxs: readIndices(r, `${path}.sigIdxs`) };
  return { typeId: PTypeId.Secp256k1Credential, signatures };
}

function writeCredential(w: ByteWriter, cred: PCredential, path: string): void {
  w.uint32(cred.typeId, `${path}.typeId`);
  w.list(cred.signatures, `${path}.signatures`, (s, i) => w.fixedBytes(s, SIGNATURE_LENGTH, `${path}.signatures[${i}]`));
  if (cred.typeId === PTypeId.MultisigCredential) w.list(cred.sigIdxs, `${path}.sigIdxs`, (n, i) => w.uint32(n, `${path}.sigIdxs[${i}]`));
}

function readSignedTx(r: ByteReader, path: string): { tx: PSignedTx; unsignedEnd: number } {
  const unsignedTx = readUnsignedTx(r, `${path}.unsignedTx`);
  const unsignedEnd = r.offset;
  const credentials = r.list(`${path}.credentials`, (i) => readCredential(r, `${path}.credentials[${i}]`));
  return { tx: { unsignedTx, credentials }, unsignedEnd };
}

function writeSignedTx(w: ByteWriter, tx: PSignedTx, path: string): void {
  writeUnsignedTx(w, tx.unsignedTx, `${path}.unsignedTx`);
  w.list(tx.credentials, `${path}.credentials`, (c, i) => writeCredential(w, c, `${path}.credentials[${i}]`));
}

/** Unsigned transaction bytes (codec version + tx): the bytes whose sha256 every signature signs. */
export function encodePUnsignedTx(tx: PUnsignedTx): Uint8Array {
  return encodeVersioned((w) => writeUnsignedTx(w, tx, "Tx"));
}

/** Signed transaction bytes (codec version + tx + credentials); the tx ID is their sha256. */
export function encodePSignedTx(tx: PSignedTx): Uint8Array {
  return encodeVersioned((w) => writeSignedTx(w, tx, "Tx"));
}

/** Decodes signed transaction bytes; `unsignedLength` is where the signed-over part ends. Rejects trailing bytes. */
export function decodePSignedTx(bytes: Uint8Array): { tx: PSignedTx; unsignedLength: number } {
  const r = openVersioned(bytes, "Tx");
  const { tx, unsignedEnd } = readSignedTx(r, "Tx");
  r.end("Tx");
  return { tx, unsignedLength: unsignedEnd };
}

/** Decodes unsigned transaction bytes (codec version + tx). */
export function decodePUnsignedTx(bytes: Uint8Array): PUnsignedTx {
  const r = openVersioned(bytes, "UnsignedTx");
  const tx = readUnsignedTx(r, "UnsignedTx");
  r.end("UnsignedTx");
  return tx;
}

/** Block bytes (codec version + type ID + fields); the block ID is their sha256. */
export function encodePBlock(block: PBlock): Uint8Array {
  return encodeVersioned((w) => {
    w.uint32(block.typeId, "Block.typeId");
    if (block.typeId === PTypeId.BanffStandardBlock) w.uint64(block.time, "Block.time");
    w.fixedBytes(block.parentId, ID_LENGTH, "Block.parentId");
    w.uint64(block.height, "Block.height");
    if (block.typeId === PTypeId.BanffStandardBlock) w.list(block.txs, "Block.txs", (tx, i) => writeSignedTx(w, tx, `Block.txs[${i}]`));
  });
}

export function decodePBlock(bytes: Uint8Array): PBlock {
  const r = openVersioned(bytes, "Block");
  const id = typeId(r, P_BLOCK_TYPES, "Block");
  let block: PBlock;
  if (id === PTypeId.BanffStandardBlock) {
    const time = r.uint64("Block.time");
    const parentId = r.fixedBytes(ID_LENGTH, "Block.parentId");
    const height = r.uint64("Block.height");
    const txs = r.list("Block.txs", (i) => readSignedTx(r, `Block.txs[${i}]`).tx);
    block = { typeId: id, time, parentId, height, txs };
  } else {
    block = { typeId: PTypeId.ApricotCommitBlock, parentId: r.fixedBytes(ID_LENGTH, "Block.parentId"), height: r.uint64("Block.height") };
  }
  r.end("Block");
  return block;
}

/** An alias with its nonce as Camino stores it (codec version + AliasWithNonce fields, no type ID). */
export function encodeAliasWithNonce(value: AliasWithNonce): Uint8Array {
  return encodeVersioned((w) => {
    writeAlias(w, value.alias, "AliasWithNonce.alias");
    w.uint64(value.nonce, "AliasWithNonce.nonce");
  });
}

export function decodeAliasWithNonce(bytes: Uint8Array): AliasWithNonce {
  const r = openVersioned(bytes, "AliasWithNonce");
  const alias = readAlias(r, "AliasWithNonce.alias");
  const nonce = r.uint64("AliasWithNonce.nonce");
  r.end("AliasWithNonce");
  return { alias, nonce };
}
