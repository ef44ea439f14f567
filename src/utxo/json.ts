import { bytesToHex, encodeCb58 } from "../encoding";
import { fxIndexOfTypeId, type Output, type OutputOwners, type TransferableInput, type TransferableOutput, TypeId } from "./codec";

/*
 * The JSON shapes the UTXO chains share in getTx / getBlock with encoding "json" (the
 * reference node's json tags and the fx types' MarshalJSON): owners, outputs, inputs, the base
 * transaction's fields and the import/export fields. uint64 values (amount, locktime) are
 * decimal strings: the node's bare JSON numbers above 2^53 lose precision in JavaScript clients
 * (the wire format lets clients accept both forms). Other integers are JSON numbers as on the node.
 */

export type Json = Record<string, unknown>;

/** IDs of the feature extensions (avalanchego vms/*fx/factory.go: the ASCII name, zero-padded to 32 bytes). */
export const FX_IDS: readonly string[] = ["secp256k1fx", "nftfx", "propertyfx"].map((name) => {
  const id = new Uint8Array(32);
  id.set(new TextEncoder().encode(name));
  return encodeCb58(id);
});

export interface JsonContext {
  /** Formats a 20-byte short ID as an address of the chain, e.g. "X-local1...". */
  formatAddress(shortId: Uint8Array): string;
}

/** The fxID of the feature extension a type ID belongs to. */
export function fxIdOfType(typeId: number): string {
  return FX_IDS[fxIndexOfTypeId(typeId) ?? 0]!;
}

export function ownersToJson(o: OutputOwners, ctx: JsonContext): Json {
  return { addresses: o.addresses.map((a) => ctx.formatAddress(a)), locktime: o.locktime.toString(), threshold: o.threshold };
}

/** An output's JSON (the node's MarshalJSON puts the owner fields in a map: keys sorted). */
export function outputToJson(out: Output, ctx: JsonContext): Json {
  const base = ownersToJson(out, ctx);
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

export function transferableOutputToJson(out: TransferableOutput, ctx: JsonContext): Json {
  return { assetID: encodeCb58(out.assetId), fxID: fxIdOfType(out.output.typeId), output: outputToJson(out.output, ctx) };
}

export function transferableInputToJson(input: TransferableInput): Json {
  return {
    txID: encodeCb58(input.txId),
    outputIndex: input.outputIndex,
    assetID: encodeCb58(input.assetId),
    fxID: fxIdOfType(input.input.typeId),
    input: { amount: input.input.amount.toString(), signatureIndices: input.input.signatureIndices },
  };
}

/** The fields every UTXO chain's base transaction has. */
interface BaseTxFields {
  networkId: number;
  blockchainId: Uint8Array;
  outputs: readonly TransferableOutput[];
  inputs: readonly TransferableInput[];
  memo: Uint8Array;
}

/** What an import or an export adds to its base transaction. */
type AtomicTxFields =
  | { typeId: number; sourceChain: Uint8Array; importedInputs: readonly TransferableInput[] }
  | { typeId: number; destinationChain: Uint8Array; exportedOutputs: readonly TransferableOutput[] }
  | { typeId: number };

/** The base transaction's JSON, with an import's or an export's fields when `tx` is one. */
export function baseTxToJson(tx: BaseTxFields & AtomicTxFields, ctx: JsonContext): Json {
  const json: Json = {
    networkID: tx.networkId,
    blockchainID: encodeCb58(tx.blockchainId),
    outputs: tx.outputs.map((o) => transferableOutputToJson(o, ctx)),
    inputs: tx.inputs.map(transferableInputToJson),
    memo: bytesToHex(tx.memo),
  };
  if ("importedInputs" in tx) Object.assign(json, { sourceChain: encodeCb58(tx.sourceChain), importedInputs: tx.importedInputs.map(transferableInputToJson) });
  if ("exportedOutputs" in tx) Object.assign(json, { destinationChain: encodeCb58(tx.destinationChain), exportedOutputs: tx.exportedOutputs.map((o) => transferableOutputToJson(o, ctx)) });
  return json;
}
