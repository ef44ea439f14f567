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
import { openVersioned } from "./frame";
import { ByteReader } from "./reader";
import {
  type Credential,
  type CredentialTypeId,
  type FxOperation,
  ID_LENGTH,
  type InitialState,
  type Input,
  type NftTransferOutputBody,
  type Operation,
  type Output,
  type OutputOwners,
  type Secp256k1TransferInput,
  type Secp256k1TransferOutput,
  type Secp256k1TransferOutputBody,
  type BaseTxFields,
  SHORT_ID_LENGTH,
  SIGNATURE_LENGTH,
  type SignedTx,
  type TransferableInput,
  type TransferableOutput,
  type UnsignedTx,
  type Utxo,
  type UtxoId,
} from "./types";

/*
 * Decoding of the exchange chain's structures from the reference node's linear codec (the
 * layout is described in encode.ts). Every read checks its bounds and the type IDs allowed at
 * its position, and names the field and offset in a CodecError; whole values reject trailing
 * bytes.
 */

function readTypeId(r: ByteReader, allowed: readonly number[], path: string): number {
  const start = r.offset;
  const typeId = r.uint32(`${path}.typeId`);
  if (!allowed.includes(typeId)) {
    r.fail(`${path}.typeId`, `${describeTypeId(typeId)} is not allowed here (expected ${listTypes(allowed)})`, start);
  }
  return typeId;
}

/** Output owners (locktime, threshold, addresses): also the platform chain's alias owners. */
export function readOwners(r: ByteReader, path: string): OutputOwners {
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

/** How a chain reads the transferable outputs and inputs of its transactions (each chain allows its own types there). */
export interface TransferableReaders {
  output(r: ByteReader, path: string): TransferableOutput;
  input(r: ByteReader, path: string): TransferableInput;
}

const EXCHANGE_TRANSFERABLES: TransferableReaders = { output: readTransferableOutput, input: readTransferableInput };

/** The fields every UTXO chain's transaction starts with, after its type ID; `p` names the transaction in errors. */
export function readBaseTxFields(r: ByteReader, p: string, read: TransferableReaders = EXCHANGE_TRANSFERABLES): BaseTxFields {
  const networkId = r.uint32(`${p}.networkId`);
  const blockchainId = r.fixedBytes(ID_LENGTH, `${p}.blockchainId`);
  const outputs = r.list(`${p}.outputs`, (i) => read.output(r, `${p}.outputs[${i}]`));
  const inputs = r.list(`${p}.inputs`, (i) => read.input(r, `${p}.inputs[${i}]`));
  const memo = r.bytesWithLength(`${p}.memo`);
  return { networkId, blockchainId, outputs, inputs, memo };
}

/** What an ImportTx adds to its base fields: the source chain and the atomic UTXOs it spends. */
export function readImportFields(r: ByteReader, p: string, read: TransferableReaders = EXCHANGE_TRANSFERABLES): { sourceChain: Uint8Array; importedInputs: TransferableInput[] } {
  const sourceChain = r.fixedBytes(ID_LENGTH, `${p}.sourceChain`);
  const importedInputs = r.list(`${p}.importedInputs`, (i) => read.input(r, `${p}.importedInputs[${i}]`));
  return { sourceChain, importedInputs };
}

/** What an ExportTx adds to its base fields: the destination chain and the outputs put into its atomic memory. */
export function readExportFields(r: ByteReader, p: string, read: TransferableReaders = EXCHANGE_TRANSFERABLES): { destinationChain: Uint8Array; exportedOutputs: TransferableOutput[] } {
  const destinationChain = r.fixedBytes(ID_LENGTH, `${p}.destinationChain`);
  const exportedOutputs = r.list(`${p}.exportedOutputs`, (i) => read.output(r, `${p}.exportedOutputs[${i}]`));
  return { destinationChain, exportedOutputs };
}

function readUnsignedTx(r: ByteReader): UnsignedTx {
  const typeId = readTypeId(r, UNSIGNED_TX_TYPES, "UnsignedTx");
  const p = typeIdName(typeId) ?? "UnsignedTx";
  const base = readBaseTxFields(r, p);
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
    case TypeId.ImportTx:
      return { typeId, ...base, ...readImportFields(r, p) };
    case TypeId.ExportTx:
      return { typeId, ...base, ...readExportFields(r, p) };
    default:
      return r.fail(`${p}.typeId`, `unexpected ${describeTypeId(typeId)}`);
  }
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

