import { checkEncodedSize, checkObject, encodeFail, encodeVersioned } from "./frame";
import {
  CREDENTIAL_TYPES,
  describeTypeId,
  listTypes,
  OPERATION_TYPES,
  STATE_OUTPUT_TYPES,
  TRANSFERABLE_INPUT_TYPES,
  TRANSFERABLE_OUTPUT_TYPES,
  TypeId,
  typeIdName,
  UNSIGNED_TX_TYPES,
} from "./type-ids";
import {
  CODEC_VERSION,
  type Credential,
  type FxOperation,
  ID_LENGTH,
  type InitialState,
  type Input,
  type NftTransferOutputBody,
  type Operation,
  type Output,
  type OutputOwners,
  type Secp256k1TransferInput,
  type Secp256k1TransferOutputBody,
  SHORT_ID_LENGTH,
  SIGNATURE_LENGTH,
  type SignedTx,
  type TransferableInput,
  type TransferableOutput,
  type UnsignedTx,
  type Utxo,
  type UtxoId,
} from "./types";
import { ByteWriter } from "./writer";

/*
 * The binary encoding of the exchange chain's structures, byte-for-byte that of the reference
 * node's linear codec:
 *
 *   codec version uint16 (always 0) -- only in front of a whole tx, unsigned tx or UTXO
 *   integers big-endian; IDs [32]byte and short IDs [20]byte raw
 *   slices: uint32 count + elements; byte slices: uint32 length + bytes
 *   strings: uint16 byte length + bytes
 *   interface values (tx, input, output, operation, credential): uint32 type ID + fields
 *
 * Every write checks its value and names the field in a CodecError ("cannot encode <path>: ...").
 */

function checkTypeId(value: { typeId: unknown }, allowed: readonly number[], path: string): number {
  const typeId = value.typeId;
  if (typeof typeId !== "number" || !allowed.includes(typeId)) {
    const shown = typeof typeId === "number" ? describeTypeId(typeId) : `typeId ${String(typeId)}`;
    encodeFail(`${path}.typeId`, `${shown} is not allowed here (expected ${listTypes(allowed)})`);
  }
  return typeId;
}

/** Output owners (locktime, threshold, addresses): also the platform chain's alias owners. */
export function writeOwners(w: ByteWriter, owners: OutputOwners, path: string): void {
  checkObject(owners, path);
  w.uint64(owners.locktime, `${path}.locktime`);
  w.uint32(owners.threshold, `${path}.threshold`);
  w.list(owners.addresses, `${path}.addresses`, (address, i) => w.fixedBytes(address, SHORT_ID_LENGTH, `${path}.addresses[${i}]`));
}

function writeInputBody(w: ByteWriter, input: Input, path: string): void {
  checkObject(input, path);
  w.list(input.signatureIndices, `${path}.signatureIndices`, (index, i) => w.uint32(index, `${path}.signatureIndices[${i}]`));
}

function writeSecpTransferBody(w: ByteWriter, out: Secp256k1TransferOutputBody, path: string): void {
  checkObject(out, path);
  w.uint64(out.amount, `${path}.amount`);
  writeOwners(w, out, path);
}

function writeNftTransferBody(w: ByteWriter, out: NftTransferOutputBody, path: string): void {
  checkObject(out, path);
  w.uint32(out.groupId, `${path}.groupId`);
  w.bytes(out.payload, `${path}.payload`);
  writeOwners(w, out, path);
}

function writeOutput(w: ByteWriter, out: Output, allowed: readonly number[], path: string): void {
  checkObject(out, path);
  const typeId = checkTypeId(out, allowed, path);
  w.uint32(typeId, `${path}.typeId`);
  switch (out.typeId) {
    case TypeId.Secp256k1TransferOutput:
      return writeSecpTransferBody(w, out, path);
    case TypeId.NftMintOutput:
      w.uint32(out.groupId, `${path}.groupId`);
      return writeOwners(w, out, path);
    case TypeId.NftTransferOutput:
      return writeNftTransferBody(w, out, path);
    case TypeId.Secp256k1MintOutput:
    case TypeId.PropertyMintOutput:
    case TypeId.PropertyOwnedOutput:
      return writeOwners(w, out, path);
  }
}

function writeTransferInput(w: ByteWriter, input: Secp256k1TransferInput, path: string): void {
  checkObject(input, path);
  w.uint32(checkTypeId(input, TRANSFERABLE_INPUT_TYPES, path), `${path}.typeId`);
  w.uint64(input.amount, `${path}.amount`);
  writeInputBody(w, input, path);
}

function writeFxOperation(w: ByteWriter, op: FxOperation, path: string): void {
  checkObject(op, path);
  w.uint32(checkTypeId(op, OPERATION_TYPES, path), `${path}.typeId`);
  switch (op.typeId) {
    case TypeId.Secp256k1MintOperation:
      writeInputBody(w, op.mintInput, `${path}.mintInput`);
      writeOwners(w, op.mintOutput, `${path}.mintOutput`);
      return writeSecpTransferBody(w, op.transferOutput, `${path}.transferOutput`);
    case TypeId.NftMintOperation:
      writeInputBody(w, op.mintInput, `${path}.mintInput`);
      w.uint32(op.groupId, `${path}.groupId`);
      w.bytes(op.payload, `${path}.payload`);
      w.list(op.outputs, `${path}.outputs`, (owners, i) => writeOwners(w, owners, `${path}.outputs[${i}]`));
      return;
    case TypeId.NftTransferOperation:
      writeInputBody(w, op.input, `${path}.input`);
      return writeNftTransferBody(w, op.output, `${path}.output`);
    case TypeId.PropertyMintOperation:
      writeInputBody(w, op.mintInput, `${path}.mintInput`);
      writeOwners(w, op.mintOutput, `${path}.mintOutput`);
      return writeOwners(w, op.ownedOutput, `${path}.ownedOutput`);
    case TypeId.PropertyBurnOperation:
      return writeInputBody(w, op, path);
  }
}

function writeUtxoId(w: ByteWriter, id: UtxoId, path: string): void {
  checkObject(id, path);
  w.fixedBytes(id.txId, ID_LENGTH, `${path}.txId`);
  w.uint32(id.outputIndex, `${path}.outputIndex`);
}

function writeTransferableOutput(w: ByteWriter, out: TransferableOutput, path: string): void {
  checkObject(out, path);
  w.fixedBytes(out.assetId, ID_LENGTH, `${path}.assetId`);
  writeOutput(w, out.output, TRANSFERABLE_OUTPUT_TYPES, `${path}.output`);
}

function writeTransferableInput(w: ByteWriter, input: TransferableInput, path: string): void {
  writeUtxoId(w, input, path);
  w.fixedBytes(input.assetId, ID_LENGTH, `${path}.assetId`);
  writeTransferInput(w, input.input, `${path}.input`);
}

function writeOperation(w: ByteWriter, op: Operation, path: string): void {
  checkObject(op, path);
  w.fixedBytes(op.assetId, ID_LENGTH, `${path}.assetId`);
  w.list(op.utxoIds, `${path}.utxoIds`, (id, i) => writeUtxoId(w, id, `${path}.utxoIds[${i}]`));
  writeFxOperation(w, op.operation, `${path}.operation`);
}

function writeInitialState(w: ByteWriter, state: InitialState, path: string): void {
  checkObject(state, path);
  w.uint32(state.fxIndex, `${path}.fxIndex`);
  w.list(state.outputs, `${path}.outputs`, (out, i) => writeOutput(w, out, STATE_OUTPUT_TYPES, `${path}.outputs[${i}]`));
}

function writeCredential(w: ByteWriter, cred: Credential, path: string): void {
  checkObject(cred, path);
  w.uint32(checkTypeId(cred, CREDENTIAL_TYPES, path), `${path}.typeId`);
  w.list(cred.signatures, `${path}.signatures`, (sig, i) => w.fixedBytes(sig, SIGNATURE_LENGTH, `${path}.signatures[${i}]`));
}

function txName(tx: UnsignedTx): string {
  return typeIdName(tx.typeId) ?? "UnsignedTx";
}

function writeUnsignedTx(w: ByteWriter, tx: UnsignedTx): void {
  checkObject(tx, "UnsignedTx");
  const typeId = checkTypeId(tx, UNSIGNED_TX_TYPES, "UnsignedTx");
  const p = txName(tx);
  w.uint32(typeId, `${p}.typeId`);
  w.uint32(tx.networkId, `${p}.networkId`);
  w.fixedBytes(tx.blockchainId, ID_LENGTH, `${p}.blockchainId`);
  w.list(tx.outputs, `${p}.outputs`, (out, i) => writeTransferableOutput(w, out, `${p}.outputs[${i}]`));
  w.list(tx.inputs, `${p}.inputs`, (input, i) => writeTransferableInput(w, input, `${p}.inputs[${i}]`));
  w.bytes(tx.memo, `${p}.memo`);
  switch (tx.typeId) {
    case TypeId.BaseTx:
      return;
    case TypeId.CreateAssetTx:
      w.string(tx.name, `${p}.name`);
      w.string(tx.symbol, `${p}.symbol`);
      w.uint8(tx.denomination, `${p}.denomination`);
      w.list(tx.initialStates, `${p}.initialStates`, (s, i) => writeInitialState(w, s, `${p}.initialStates[${i}]`));
      return;
    case TypeId.OperationTx:
      w.list(tx.operations, `${p}.operations`, (op, i) => writeOperation(w, op, `${p}.operations[${i}]`));
      return;
    case TypeId.ImportTx:
      w.fixedBytes(tx.sourceChain, ID_LENGTH, `${p}.sourceChain`);
      w.list(tx.importedInputs, `${p}.importedInputs`, (input, i) => writeTransferableInput(w, input, `${p}.importedInputs[${i}]`));
      return;
    case TypeId.ExportTx:
      w.fixedBytes(tx.destinationChain, ID_LENGTH, `${p}.destinationChain`);
      w.list(tx.exportedOutputs, `${p}.exportedOutputs`, (out, i) => writeTransferableOutput(w, out, `${p}.exportedOutputs[${i}]`));
      return;
  }
}

/** Unsigned transaction bytes as the node signs them: codec version (0) + type ID + fields. */
export function encodeUnsignedTx(tx: UnsignedTx): Uint8Array {
  return checkEncodedSize(encodeVersioned((w) => writeUnsignedTx(w, tx)), "unsigned transaction");
}

/** Signed transaction bytes: codec version + unsigned transaction + credentials. */
export function encodeSignedTx(tx: SignedTx): Uint8Array {
  checkObject(tx, "SignedTx");
  const bytes = encodeVersioned((w) => {
    writeUnsignedTx(w, tx.unsignedTx);
    w.list(tx.credentials, "SignedTx.credentials", (cred, i) => writeCredential(w, cred, `SignedTx.credentials[${i}]`));
  });
  return checkEncodedSize(bytes, "signed transaction");
}

/** UTXO bytes as the node stores and serves them: codec version + txID + output index + asset ID + output. */
export function encodeUtxo(utxo: Utxo): Uint8Array {
  checkObject(utxo, "Utxo");
  const w = new ByteWriter(128);
  w.uint16(CODEC_VERSION, "codecVersion");
  writeUtxoId(w, utxo, "Utxo");
  w.fixedBytes(utxo.assetId, ID_LENGTH, "Utxo.assetId");
  writeOutput(w, utxo.output, STATE_OUTPUT_TYPES, "Utxo.output");
  return checkEncodedSize(w.finish(), "UTXO");
}

/** An output with its type ID (no codec version), as it appears inside UTXOs and initial states. */
export function encodeOutput(output: Output): Uint8Array {
  const w = new ByteWriter(128);
  writeOutput(w, output, STATE_OUTPUT_TYPES, "Output");
  return w.finish();
}

/** A transferable output (asset ID + typed output), as it appears inside transactions. */
export function encodeTransferableOutput(output: TransferableOutput): Uint8Array {
  const w = new ByteWriter(128);
  writeTransferableOutput(w, output, "TransferableOutput");
  return w.finish();
}

/** A transferable input (txID + output index + asset ID + typed input). */
export function encodeTransferableInput(input: TransferableInput): Uint8Array {
  const w = new ByteWriter(128);
  writeTransferableInput(w, input, "TransferableInput");
  return w.finish();
}

/** An operation of an OperationTx (asset ID + UTXO IDs + typed fx operation). */
export function encodeOperation(operation: Operation): Uint8Array {
  const w = new ByteWriter(128);
  writeOperation(w, operation, "Operation");
  return w.finish();
}

/** An initial state of a CreateAssetTx (fx index + typed outputs). */
export function encodeInitialState(state: InitialState): Uint8Array {
  const w = new ByteWriter(128);
  writeInitialState(w, state, "InitialState");
  return w.finish();
}

/** A credential with its type ID. */
export function encodeCredential(credential: Credential): Uint8Array {
  const w = new ByteWriter(128);
  writeCredential(w, credential, "Credential");
  return w.finish();
}
