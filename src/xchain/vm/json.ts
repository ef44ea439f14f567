import { bytesToHex, encodeCb58 } from "../../encoding";
import { type Credential, type FxOperation, type InitialState, type SignedTx, TypeId } from "../../utxo/codec";
import { baseTxToJson, FX_IDS, fxIdOfType, type Json, type JsonContext, outputToJson, ownersToJson as owners } from "../../utxo/json";

export { FX_IDS, type JsonContext, outputToJson } from "../../utxo/json";

/*
 * The JSON form of an exchange-chain transaction that the reference node's getTx returns with
 * encoding "json" (avalanchego vms/avm/txs and the fx types' json tags and MarshalJSON methods;
 * the shapes the UTXO chains share are in src/utxo/json.ts):
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
  const unsignedTx = baseTxToJson(tx, ctx);
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
    default:
      break;
  }
  return { unsignedTx, credentials: signed.credentials.map(credential), id: encodeCb58(txId) };
}
