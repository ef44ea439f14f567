import { bytesToHex, encodeCb58 } from "../../encoding";
import {
  type Credential,
  type FxOperation,
  fxIndexOfTypeId,
  type InitialState,
  type Output,
  type OutputOwners,
  type SignedTx,
  type TransferableInput,
  type TransferableOutput,
  TypeId,
} from "../codec";

/*
 * The JSON form of a transaction that the reference node's getTx returns with encoding
 * "json" (avalanchego vms/avm/txs and the fx types' json tags and MarshalJSON methods):
 *
 *   { unsignedTx: { networkID, blockchainID, outputs, inputs, memo, ...type fields },
 *     credentials: [{ fxID, credential: { signatures } }], id }
 *
 * Outputs carry assetID, fxID and output {addresses, amount, locktime, threshold}; inputs
 * txID, outputIndex, assetID, fxID and input {amount, signatureIndices}; byte fields (memo,
 * payload, signatures) are 0x-hex; addresses are "X-<hrp>1...".
 *
 * One deliberate difference: uint64 values (amount, locktime) are decimal strings, because the
 * node's bare JSON numbers above 2^53 lose precision in JavaScript clients (the wire format
 * lets clients accept both forms). Other integers are JSON numbers as on the node.
 */

/** IDs of the feature extensions (avalanchego vms/*fx/factory.go: the ASCII name, zero-padded to 32 bytes). */
export const FX_IDS: readonly string[] = ["secp256k1fx", "nftfx", "propertyfx"].map((name) => {
  const id = new Uint8Array(32);
  id.set(new TextEncoder().encode(name));
  return encodeCb58(id);
});

export interface JsonContext {
  /** Formats a 20-byte short ID as an address, e.g. "X-local1...". */
  formatAddress(shortId: Uint8Array): string;
}

type Json = Record<string, unknown>;

function fxIdOfType(typeId: number): string {
  return FX_IDS[fxIndexOfTypeId(typeId) ?? 0]!;
}

function owners(o: OutputOwners, ctx: JsonContext): Json {
  return { addresses: o.addresses.map((a) => ctx.formatAddress(a)), locktime: o.locktime.toString(), threshold: o.threshold };
}

/** An output's JSON (the node's MarshalJSON puts the owner fields in a map: keys sorted). */
export function outputToJson(out: Output, ctx: JsonContext): Json {
  const base = owners(out, ctx);
  let fields: Json;
  switch (out.typeId) {
    case TypeId.Secp256k1TransferOutput:
      fields = { ...base, amount: out.amount.toString() };
      break;
    case TypeId.NftMintOutput:
      fields = { ...base, groupID: out.groupId };
      break;
    case TypeId.NftTransferOutput:
      fields = { ...base, groupID: out.groupId, payload: bytesToHex(out.payload) };
      break;
    default:
      fields = base;
  }
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function transferableOutput(out: TransferableOutput, ctx: JsonContext): Json {
  return { assetID: encodeCb58(out.assetId), fxID: fxIdOfType(out.output.typeId), output: outputToJson(out.output, ctx) };
}

function transferableInput(input: TransferableInput): Json {
  return {
    txID: encodeCb58(input.txId),
    outputIndex: input.outputIndex,
    assetID: encodeCb58(input.assetId),
    fxID: fxIdOfType(input.input.typeId),
    input: { amount: input.input.amount.toString(), signatureIndices: input.input.signatureIndices },
  };
}

function initialState(state: InitialState, ctx: JsonContext): Json {
  return { fxIndex: state.fxIndex, fxID: FX_IDS[state.fxIndex] ?? null, outputs: state.outputs.map((o) => outputToJson(o, ctx)) };
}

function fxOperation(op: FxOperation, ctx: JsonContext): Json {
  const sigs = (input: { signatureIndices: number[] }): Json => ({ signatureIndices: input.signatureIndices });
  switch (op.typeId) {
    case TypeId.Secp256k1MintOperation:
      return {
        mintInput: sigs(op.mintInput),
        mintOutput: outputToJson({ typeId: TypeId.Secp256k1MintOutput, ...op.mintOutput }, ctx),
        transferOutput: outputToJson({ typeId: TypeId.Secp256k1TransferOutput, ...op.transferOutput }, ctx),
      };
    case TypeId.NftMintOperation:
      return { mintInput: sigs(op.mintInput), groupID: op.groupId, payload: bytesToHex(op.payload), outputs: op.outputs.map((o) => owners(o, ctx)) };
    case TypeId.NftTransferOperation:
      return { input: sigs(op.input), output: outputToJson({ typeId: TypeId.NftTransferOutput, ...op.output }, ctx) };
    case TypeId.PropertyMintOperation:
      return {
        mintInput: sigs(op.mintInput),
        mintOutput: outputToJson({ typeId: TypeId.PropertyMintOutput, ...op.mintOutput }, ctx),
        ownedOutput: outputToJson({ typeId: TypeId.PropertyOwnedOutput, ...op.ownedOutput }, ctx),
      };
    case TypeId.PropertyBurnOperation:
      return sigs(op);
  }
}

function credential(cred: Credential): Json {
  return { fxID: fxIdOfType(cred.typeId), credential: { signatures: cred.signatures.map((s) => bytesToHex(s)) } };
}

/** The node's JSON form of a signed transaction whose ID is `txId`. */
export function txToJson(signed: SignedTx, txId: Uint8Array, ctx: JsonContext): Json {
  const tx = signed.unsignedTx;
  const unsignedTx: Json = {
    networkID: tx.networkId,
    blockchainID: encodeCb58(tx.blockchainId),
    outputs: tx.outputs.map((o) => transferableOutput(o, ctx)),
    inputs: tx.inputs.map(transferableInput),
    memo: bytesToHex(tx.memo),
  };
  switch (tx.typeId) {
    case TypeId.CreateAssetTx:
      Object.assign(unsignedTx, { name: tx.name, symbol: tx.symbol, denomination: tx.denomination, initialStates: tx.initialStates.map((s) => initialState(s, ctx)) });
      break;
    case TypeId.OperationTx:
      unsignedTx.operations = tx.operations.map((op) => ({
        assetID: encodeCb58(op.assetId),
        inputIDs: op.utxoIds.map((u) => ({ txID: encodeCb58(u.txId), outputIndex: u.outputIndex })),
        fxID: fxIdOfType(op.operation.typeId),
        operation: fxOperation(op.operation, ctx),
      }));
      break;
    case TypeId.ImportTx:
      Object.assign(unsignedTx, { sourceChain: encodeCb58(tx.sourceChain), importedInputs: tx.importedInputs.map(transferableInput) });
      break;
    case TypeId.ExportTx:
      Object.assign(unsignedTx, { destinationChain: encodeCb58(tx.destinationChain), exportedOutputs: tx.exportedOutputs.map((o) => transferableOutput(o, ctx)) });
      break;
    default:
      break;
  }
  return { unsignedTx, credentials: signed.credentials.map(credential), id: encodeCb58(txId) };
}
