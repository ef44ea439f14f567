import { CodecError } from "./errors";
import { ByteReader } from "./reader";
import { TypeId, typeIdName } from "./type-ids";
import { ByteWriter } from "./writer";

/*
 * Structures of the exchange chain (transactions, UTXOs and their parts) and their binary
 * encoding, byte-for-byte that of the reference node's linear codec:
 *
 *   codec version uint16 (always 0) -- only in front of a whole tx, unsigned tx or UTXO
 *   integers big-endian; IDs [32]byte and short IDs [20]byte raw
 *   slices: uint32 count + elements; byte slices: uint32 length + bytes
 *   strings: uint16 byte length + bytes
 *   interface values (tx, input, output, operation, credential): uint32 type ID + fields
 *
 * Amounts and locktimes (uint64) are bigints; every other integer is a number.
 */

/** The only codec version the exchange chain uses. */
export const CODEC_VERSION = 0;
/** Transaction, asset, chain and UTXO IDs. */
export const ID_LENGTH = 32;
/** Address short IDs: ripemd160(sha256(compressed public key)). */
export const SHORT_ID_LENGTH = 20;
/** Recoverable secp256k1 signatures [r || s || v]. */
export const SIGNATURE_LENGTH = 65;
/** The reference codec refuses to decode (and encode) more than 256 KiB. */
export const MAX_CODEC_SIZE = 256 * 1024;
/** The reference node's mempool refuses transactions above 64 KiB. */
export const MAX_MEMPOOL_TX_SIZE = 64 * 1024;

// ---------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------

/** Who may spend an output: `threshold` of `addresses` (20-byte short IDs), after `locktime` (Unix seconds). */
export interface OutputOwners {
  locktime: bigint;
  threshold: number;
  addresses: Uint8Array[];
}

/** Signature indices into the owners' addresses of the spent output. */
export interface Input {
  signatureIndices: number[];
}

/** Fields of a secp256k1fx transfer output (without its type ID, as embedded in a mint operation). */
export interface Secp256k1TransferOutputBody extends OutputOwners {
  amount: bigint;
}

/** Fields of an nftfx transfer output (without its type ID, as embedded in a transfer operation). */
export interface NftTransferOutputBody extends OutputOwners {
  groupId: number;
  payload: Uint8Array;
}

export interface Secp256k1TransferOutput extends Secp256k1TransferOutputBody {
  typeId: typeof TypeId.Secp256k1TransferOutput;
}
export interface Secp256k1MintOutput extends OutputOwners {
  typeId: typeof TypeId.Secp256k1MintOutput;
}
export interface NftMintOutput extends OutputOwners {
  typeId: typeof TypeId.NftMintOutput;
  groupId: number;
}
export interface NftTransferOutput extends NftTransferOutputBody {
  typeId: typeof TypeId.NftTransferOutput;
}
export interface PropertyMintOutput extends OutputOwners {
  typeId: typeof TypeId.PropertyMintOutput;
}
export interface PropertyOwnedOutput extends OutputOwners {
  typeId: typeof TypeId.PropertyOwnedOutput;
}

/** Any output a UTXO or an initial state can hold. */
export type Output =
  | Secp256k1TransferOutput
  | Secp256k1MintOutput
  | NftMintOutput
  | NftTransferOutput
  | PropertyMintOutput
  | PropertyOwnedOutput;

export interface Secp256k1TransferInput extends Input {
  typeId: typeof TypeId.Secp256k1TransferInput;
  amount: bigint;
}

export interface Secp256k1MintOperation {
  typeId: typeof TypeId.Secp256k1MintOperation;
  mintInput: Input;
  mintOutput: OutputOwners;
  transferOutput: Secp256k1TransferOutputBody;
}
export interface NftMintOperation {
  typeId: typeof TypeId.NftMintOperation;
  mintInput: Input;
  groupId: number;
  payload: Uint8Array;
  outputs: OutputOwners[];
}
export interface NftTransferOperation {
  typeId: typeof TypeId.NftTransferOperation;
  input: Input;
  output: NftTransferOutputBody;
}
export interface PropertyMintOperation {
  typeId: typeof TypeId.PropertyMintOperation;
  mintInput: Input;
  mintOutput: OutputOwners;
  ownedOutput: OutputOwners;
}
export interface PropertyBurnOperation extends Input {
  typeId: typeof TypeId.PropertyBurnOperation;
}

export type FxOperation =
  | Secp256k1MintOperation
  | NftMintOperation
  | NftTransferOperation
  | PropertyMintOperation
  | PropertyBurnOperation;

export type CredentialTypeId =
  | typeof TypeId.Secp256k1Credential
  | typeof TypeId.NftCredential
  | typeof TypeId.PropertyCredential;

/** Signatures (65 bytes each) matching, in order, the signature indices of one input or operation. */
export interface Credential {
  typeId: CredentialTypeId;
  signatures: Uint8Array[];
}

/** An output of a transaction: asset ID + a secp256k1fx transfer output. */
export interface TransferableOutput {
  assetId: Uint8Array;
  output: Secp256k1TransferOutput;
}

/** A reference to a UTXO: the transaction that produced it and the output's index. */
export interface UtxoId {
  txId: Uint8Array;
  outputIndex: number;
}

/** An input of a transaction: the UTXO spent, its asset ID and a secp256k1fx transfer input. */
export interface TransferableInput extends UtxoId {
  assetId: Uint8Array;
  input: Secp256k1TransferInput;
}

/** An operation of an OperationTx: an fx operation on UTXOs of one asset. */
export interface Operation {
  assetId: Uint8Array;
  utxoIds: UtxoId[];
  operation: FxOperation;
}

/** Outputs created for a new asset under one feature extension (0 secp256k1fx, 1 nftfx, 2 propertyfx). */
export interface InitialState {
  fxIndex: number;
  outputs: Output[];
}

/** Fields every exchange-chain transaction starts with. */
export interface BaseTxFields {
  networkId: number;
  blockchainId: Uint8Array;
  outputs: TransferableOutput[];
  inputs: TransferableInput[];
  memo: Uint8Array;
}

export interface BaseTx extends BaseTxFields {
  typeId: typeof TypeId.BaseTx;
}
export interface CreateAssetTx extends BaseTxFields {
  typeId: typeof TypeId.CreateAssetTx;
  name: string;
  symbol: string;
  denomination: number;
  initialStates: InitialState[];
}
export interface OperationTx extends BaseTxFields {
  typeId: typeof TypeId.OperationTx;
  operations: Operation[];
}
export interface ImportTx extends BaseTxFields {
  typeId: typeof TypeId.ImportTx;
  sourceChain: Uint8Array;
  importedInputs: TransferableInput[];
}
export interface ExportTx extends BaseTxFields {
  typeId: typeof TypeId.ExportTx;
  destinationChain: Uint8Array;
  exportedOutputs: TransferableOutput[];
}

export type UnsignedTx = BaseTx | CreateAssetTx | OperationTx | ImportTx | ExportTx;

/** A transaction with one credential per input (and per operation / imported input). */
export interface SignedTx {
  unsignedTx: UnsignedTx;
  credentials: Credential[];
}

/** An unspent output as the node stores and serves it. */
export interface Utxo extends UtxoId {
  assetId: Uint8Array;
  output: Output;
}

// ---------------------------------------------------------------------------------------
// Allowed type IDs per position (the Go interface each field is declared with)
// ---------------------------------------------------------------------------------------

const UNSIGNED_TX_TYPES = [TypeId.BaseTx, TypeId.CreateAssetTx, TypeId.OperationTx, TypeId.ImportTx, TypeId.ExportTx] as const;
const STATE_OUTPUT_TYPES = [
  TypeId.Secp256k1TransferOutput,
  TypeId.Secp256k1MintOutput,
  TypeId.NftMintOutput,
  TypeId.NftTransferOutput,
  TypeId.PropertyMintOutput,
  TypeId.PropertyOwnedOutput,
] as const;
const TRANSFERABLE_OUTPUT_TYPES = [TypeId.Secp256k1TransferOutput] as const;
const TRANSFERABLE_INPUT_TYPES = [TypeId.Secp256k1TransferInput] as const;
const OPERATION_TYPES = [
  TypeId.Secp256k1MintOperation,
  TypeId.NftMintOperation,
  TypeId.NftTransferOperation,
  TypeId.PropertyMintOperation,
  TypeId.PropertyBurnOperation,
] as const;
const CREDENTIAL_TYPES = [TypeId.Secp256k1Credential, TypeId.NftCredential, TypeId.PropertyCredential] as const;

function listTypes(allowed: readonly number[]): string {
  return allowed.map((id) => `${id} (${typeIdName(id)})`).join(", ");
}

function describeTypeId(typeId: number): string {
  const name = typeIdName(typeId);
  return name === undefined ? `unknown type ID ${typeId}` : `type ID ${typeId} (${name})`;
}

// ---------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------

function encodeFail(path: string, problem: string): never {
  throw new CodecError(`cannot encode ${path}: ${problem}`, { path });
}

function checkObject(value: unknown, path: string): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    encodeFail(path, `expected an object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`);
  }
}

function checkTypeId(value: { typeId: unknown }, allowed: readonly number[], path: string): number {
  const typeId = value.typeId;
  if (typeof typeId !== "number" || !allowed.includes(typeId)) {
    const shown = typeof typeId === "number" ? describeTypeId(typeId) : `typeId ${String(typeId)}`;
    encodeFail(`${path}.typeId`, `${shown} is not allowed here (expected ${listTypes(allowed)})`);
  }
  return typeId;
}

function writeOwners(w: ByteWriter, owners: OutputOwners, path: string): void {
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

function checkSize(bytes: Uint8Array, what: string): Uint8Array {
  if (bytes.length > MAX_CODEC_SIZE) {
    throw new CodecError(`cannot encode ${what}: ${bytes.length} bytes exceed the reference codec's limit of ${MAX_CODEC_SIZE} bytes`, {
      path: what,
    });
  }
  return bytes;
}

/** Unsigned transaction bytes as the node signs them: codec version (0) + type ID + fields. */
export function encodeUnsignedTx(tx: UnsignedTx): Uint8Array {
  const w = new ByteWriter();
  w.uint16(CODEC_VERSION, "codecVersion");
  writeUnsignedTx(w, tx);
  return checkSize(w.finish(), "unsigned transaction");
}

/** Signed transaction bytes: codec version + unsigned transaction + credentials. */
export function encodeSignedTx(tx: SignedTx): Uint8Array {
  checkObject(tx, "SignedTx");
  const w = new ByteWriter();
  w.uint16(CODEC_VERSION, "codecVersion");
  writeUnsignedTx(w, tx.unsignedTx);
  w.list(tx.credentials, "SignedTx.credentials", (cred, i) => writeCredential(w, cred, `SignedTx.credentials[${i}]`));
  return checkSize(w.finish(), "signed transaction");
}

/** UTXO bytes as the node stores and serves them: codec version + txID + output index + asset ID + output. */
export function encodeUtxo(utxo: Utxo): Uint8Array {
  checkObject(utxo, "Utxo");
  const w = new ByteWriter(128);
  w.uint16(CODEC_VERSION, "codecVersion");
  writeUtxoId(w, utxo, "Utxo");
  w.fixedBytes(utxo.assetId, ID_LENGTH, "Utxo.assetId");
  writeOutput(w, utxo.output, STATE_OUTPUT_TYPES, "Utxo.output");
  return checkSize(w.finish(), "UTXO");
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

// ---------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------

function readTypeId(r: ByteReader, allowed: readonly number[], path: string): number {
  const start = r.offset;
  const typeId = r.uint32(`${path}.typeId`);
  if (!allowed.includes(typeId)) {
    r.fail(`${path}.typeId`, `${describeTypeId(typeId)} is not allowed here (expected ${listTypes(allowed)})`, start);
  }
  return typeId;
}

function readOwners(r: ByteReader, path: string): OutputOwners {
  const locktime = r.uint64(`${path}.locktime`);
  const threshold = r.uint32(`${path}.threshold`);
  const addresses = r.list(`${path}.addresses`, (i) => r.fixedBytes(SHORT_ID_LENGTH, `${path}.addresses[${i}]`));
  return { locktime, threshold, addresses };
}

function readInputBody(r: ByteReader, path: string): Input {
  return { signatureIndices: r.list(`${path}.signatureIndices`, (i) => r.uint32(`${path}.signatureIndices[${i}]`)) };
}

function readSecpTransferBody(r: ByteReader, path: string): Secp256k1TransferOutputBody {
  const amount = r.uint64(`${path}.amount`);
  return { amount, ...readOwners(r, path) };
}

function readNftTransferBody(r: ByteReader, path: string): NftTransferOutputBody {
  const groupId = r.uint32(`${path}.groupId`);
  const payload = r.bytesWithLength(`${path}.payload`);
  return { groupId, payload, ...readOwners(r, path) };
}

function readOutput(r: ByteReader, allowed: readonly number[], path: string): Output {
  const typeId = readTypeId(r, allowed, path);
  switch (typeId) {
    case TypeId.Secp256k1TransferOutput:
      return { typeId, ...readSecpTransferBody(r, path) };
    case TypeId.Secp256k1MintOutput:
      return { typeId, ...readOwners(r, path) };
    case TypeId.NftMintOutput: {
      const groupId = r.uint32(`${path}.groupId`);
      return { typeId, groupId, ...readOwners(r, path) };
    }
    case TypeId.NftTransferOutput:
      return { typeId, ...readNftTransferBody(r, path) };
    case TypeId.PropertyMintOutput:
      return { typeId, ...readOwners(r, path) };
    case TypeId.PropertyOwnedOutput:
      return { typeId, ...readOwners(r, path) };
    default:
      return r.fail(`${path}.typeId`, `unexpected ${describeTypeId(typeId)}`);
  }
}

function readTransferInput(r: ByteReader, path: string): Secp256k1TransferInput {
  readTypeId(r, TRANSFERABLE_INPUT_TYPES, path);
  const amount = r.uint64(`${path}.amount`);
  return { typeId: TypeId.Secp256k1TransferInput, amount, ...readInputBody(r, path) };
}

function readFxOperation(r: ByteReader, path: string): FxOperation {
  const typeId = readTypeId(r, OPERATION_TYPES, path);
  switch (typeId) {
    case TypeId.Secp256k1MintOperation: {
      const mintInput = readInputBody(r, `${path}.mintInput`);
      const mintOutput = readOwners(r, `${path}.mintOutput`);
      const transferOutput = readSecpTransferBody(r, `${path}.transferOutput`);
      return { typeId, mintInput, mintOutput, transferOutput };
    }
    case TypeId.NftMintOperation: {
      const mintInput = readInputBody(r, `${path}.mintInput`);
      const groupId = r.uint32(`${path}.groupId`);
      const payload = r.bytesWithLength(`${path}.payload`);
      const outputs = r.list(`${path}.outputs`, (i) => readOwners(r, `${path}.outputs[${i}]`));
      return { typeId, mintInput, groupId, payload, outputs };
    }
    case TypeId.NftTransferOperation: {
      const input = readInputBody(r, `${path}.input`);
      const output = readNftTransferBody(r, `${path}.output`);
      return { typeId, input, output };
    }
    case TypeId.PropertyMintOperation: {
      const mintInput = readInputBody(r, `${path}.mintInput`);
      const mintOutput = readOwners(r, `${path}.mintOutput`);
      const ownedOutput = readOwners(r, `${path}.ownedOutput`);
      return { typeId, mintInput, mintOutput, ownedOutput };
    }
    case TypeId.PropertyBurnOperation:
      return { typeId, ...readInputBody(r, path) };
    default:
      return r.fail(`${path}.typeId`, `unexpected ${describeTypeId(typeId)}`);
  }
}

function readUtxoId(r: ByteReader, path: string): UtxoId {
  const txId = r.fixedBytes(ID_LENGTH, `${path}.txId`);
  const outputIndex = r.uint32(`${path}.outputIndex`);
  return { txId, outputIndex };
}

function readTransferableOutput(r: ByteReader, path: string): TransferableOutput {
  const assetId = r.fixedBytes(ID_LENGTH, `${path}.assetId`);
  const output = readOutput(r, TRANSFERABLE_OUTPUT_TYPES, `${path}.output`) as Secp256k1TransferOutput;
  return { assetId, output };
}

function readTransferableInput(r: ByteReader, path: string): TransferableInput {
  const { txId, outputIndex } = readUtxoId(r, path);
  const assetId = r.fixedBytes(ID_LENGTH, `${path}.assetId`);
  const input = readTransferInput(r, `${path}.input`);
  return { txId, outputIndex, assetId, input };
}

function readOperation(r: ByteReader, path: string): Operation {
  const assetId = r.fixedBytes(ID_LENGTH, `${path}.assetId`);
  const utxoIds = r.list(`${path}.utxoIds`, (i) => readUtxoId(r, `${path}.utxoIds[${i}]`));
  const operation = readFxOperation(r, `${path}.operation`);
  return { assetId, utxoIds, operation };
}

function readInitialState(r: ByteReader, path: string): InitialState {
  const fxIndex = r.uint32(`${path}.fxIndex`);
  const outputs = r.list(`${path}.outputs`, (i) => readOutput(r, STATE_OUTPUT_TYPES, `${path}.outputs[${i}]`));
  return { fxIndex, outputs };
}

function readCredential(r: ByteReader, path: string): Credential {
  const typeId = readTypeId(r, CREDENTIAL_TYPES, path) as CredentialTypeId;
  const signatures = r.list(`${path}.signatures`, (i) => r.fixedBytes(SIGNATURE_LENGTH, `${path}.signatures[${i}]`));
  return { typeId, signatures };
}

function readUnsignedTx(r: ByteReader): UnsignedTx {
  const typeId = readTypeId(r, UNSIGNED_TX_TYPES, "UnsignedTx");
  const p = typeIdName(typeId) ?? "UnsignedTx";
  const networkId = r.uint32(`${p}.networkId`);
  const blockchainId = r.fixedBytes(ID_LENGTH, `${p}.blockchainId`);
  const outputs = r.list(`${p}.outputs`, (i) => readTransferableOutput(r, `${p}.outputs[${i}]`));
  const inputs = r.list(`${p}.inputs`, (i) => readTransferableInput(r, `${p}.inputs[${i}]`));
  const memo = r.bytesWithLength(`${p}.memo`);
  const base = { networkId, blockchainId, outputs, inputs, memo };
  switch (typeId) {
    case TypeId.BaseTx:
      return { typeId, ...base };
    case TypeId.CreateAssetTx: {
      const name = r.string(`${p}.name`);
      const symbol = r.string(`${p}.symbol`);
      const denomination = r.uint8(`${p}.denomination`);
      const initialStates = r.list(`${p}.initialStates`, (i) => readInitialState(r, `${p}.initialStates[${i}]`));
      return { typeId, ...base, name, symbol, denomination, initialStates };
    }
    case TypeId.OperationTx: {
      const operations = r.list(`${p}.operations`, (i) => readOperation(r, `${p}.operations[${i}]`));
      return { typeId, ...base, operations };
    }
    case TypeId.ImportTx: {
      const sourceChain = r.fixedBytes(ID_LENGTH, `${p}.sourceChain`);
      const importedInputs = r.list(`${p}.importedInputs`, (i) =>
        readTransferableInput(r, `${p}.importedInputs[${i}]`),
      );
      return { typeId, ...base, sourceChain, importedInputs };
    }
    case TypeId.ExportTx: {
      const destinationChain = r.fixedBytes(ID_LENGTH, `${p}.destinationChain`);
      const exportedOutputs = r.list(`${p}.exportedOutputs`, (i) =>
        readTransferableOutput(r, `${p}.exportedOutputs[${i}]`),
      );
      return { typeId, ...base, destinationChain, exportedOutputs };
    }
    default:
      return r.fail(`${p}.typeId`, `unexpected ${describeTypeId(typeId)}`);
  }
}

function openVersioned(bytes: Uint8Array, what: string): ByteReader {
  const r = new ByteReader(bytes);
  if (bytes.length > MAX_CODEC_SIZE) {
    r.fail(what, `input is ${bytes.length} bytes, above the reference codec's limit of ${MAX_CODEC_SIZE} bytes`, 0);
  }
  const version = r.uint16(`${what}.codecVersion`);
  if (version !== CODEC_VERSION) r.fail(`${what}.codecVersion`, `unsupported codec version ${version} (expected ${CODEC_VERSION})`, 0);
  return r;
}

/** Decode unsigned transaction bytes (codec version + unsigned tx); rejects trailing bytes. */
export function decodeUnsignedTx(bytes: Uint8Array): UnsignedTx {
  const r = openVersioned(bytes, "UnsignedTx");
  const tx = readUnsignedTx(r);
  r.end(`${typeIdName(tx.typeId)}`);
  return tx;
}

/**
 * Decode signed transaction bytes and report where the unsigned part ends (the node signs
 * and hashes `bytes.subarray(0, unsignedLength)`).
 */
export function decodeSignedTxWithLength(bytes: Uint8Array): { tx: SignedTx; unsignedLength: number } {
  const r = openVersioned(bytes, "SignedTx");
  const unsignedTx = readUnsignedTx(r);
  const unsignedLength = r.offset;
  const credentials = r.list("SignedTx.credentials", (i) => readCredential(r, `SignedTx.credentials[${i}]`));
  r.end("SignedTx");
  return { tx: { unsignedTx, credentials }, unsignedLength };
}

/** Decode signed transaction bytes (codec version + unsigned tx + credentials); rejects trailing bytes. */
export function decodeSignedTx(bytes: Uint8Array): SignedTx {
  return decodeSignedTxWithLength(bytes).tx;
}

/** Decode UTXO bytes (codec version + txID + output index + asset ID + output); rejects trailing bytes. */
export function decodeUtxo(bytes: Uint8Array): Utxo {
  const r = openVersioned(bytes, "Utxo");
  const { txId, outputIndex } = readUtxoId(r, "Utxo");
  const assetId = r.fixedBytes(ID_LENGTH, "Utxo.assetId");
  const output = readOutput(r, STATE_OUTPUT_TYPES, "Utxo.output");
  r.end("Utxo");
  return { txId, outputIndex, assetId, output };
}

function decodePart<T>(bytes: Uint8Array, what: string, read: (r: ByteReader) => T): T {
  const r = new ByteReader(bytes);
  const value = read(r);
  r.end(what);
  return value;
}

/** Decode a typed output (no codec version); rejects trailing bytes. */
export function decodeOutput(bytes: Uint8Array): Output {
  return decodePart(bytes, "Output", (r) => readOutput(r, STATE_OUTPUT_TYPES, "Output"));
}

/** Decode a transferable output (no codec version); rejects trailing bytes. */
export function decodeTransferableOutput(bytes: Uint8Array): TransferableOutput {
  return decodePart(bytes, "TransferableOutput", (r) => readTransferableOutput(r, "TransferableOutput"));
}

/** Decode a transferable input (no codec version); rejects trailing bytes. */
export function decodeTransferableInput(bytes: Uint8Array): TransferableInput {
  return decodePart(bytes, "TransferableInput", (r) => readTransferableInput(r, "TransferableInput"));
}

/** Decode an operation (no codec version); rejects trailing bytes. */
export function decodeOperation(bytes: Uint8Array): Operation {
  return decodePart(bytes, "Operation", (r) => readOperation(r, "Operation"));
}

/** Decode an initial state (no codec version); rejects trailing bytes. */
export function decodeInitialState(bytes: Uint8Array): InitialState {
  return decodePart(bytes, "InitialState", (r) => readInitialState(r, "InitialState"));
}

/** Decode a typed credential (no codec version); rejects trailing bytes. */
export function decodeCredential(bytes: Uint8Array): Credential {
  return decodePart(bytes, "Credential", (r) => readCredential(r, "Credential"));
}
