import { TypeId } from "./type-ids";
import type { FxOperation, Output, UnsignedTx, Utxo, UtxoId } from "./types";

/*
 * Which UTXOs a transaction creates and spends, numbered as the reference node numbers them:
 * the transaction's outputs get indices 0..n-1; then, continuing the count, a CreateAssetTx's
 * initial-state outputs (asset ID = the transaction's ID), an OperationTx's operation outputs
 * (asset ID = the operation's), or an ExportTx's exported outputs (which go to the
 * destination chain's shared memory, not to this chain's UTXO set).
 */

export interface ProducedUtxos {
  /** UTXOs added to this chain's UTXO set. */
  utxos: Utxo[];
  /** UTXOs an ExportTx puts in the destination chain's shared memory (empty otherwise). */
  exportedUtxos: Utxo[];
}

export interface ConsumedUtxos {
  /** UTXOs of this chain spent by the inputs (and by the operations of an OperationTx). */
  local: UtxoId[];
  /** UTXOs an ImportTx takes from the source chain's shared memory (empty otherwise). */
  imported: UtxoId[];
}

/** Outputs an operation creates (the node's FxOperation.Outs()). */
export function operationOutputs(op: FxOperation): Output[] {
  switch (op.typeId) {
    case TypeId.Secp256k1MintOperation:
      return [
        { typeId: TypeId.Secp256k1MintOutput, ...op.mintOutput },
        { typeId: TypeId.Secp256k1TransferOutput, ...op.transferOutput },
      ];
    case TypeId.NftMintOperation:
      return op.outputs.map((owners) => ({ typeId: TypeId.NftTransferOutput, groupId: op.groupId, payload: op.payload, ...owners }));
    case TypeId.NftTransferOperation:
      return [{ typeId: TypeId.NftTransferOutput, ...op.output }];
    case TypeId.PropertyMintOperation:
      return [
        { typeId: TypeId.PropertyMintOutput, ...op.mintOutput },
        { typeId: TypeId.PropertyOwnedOutput, ...op.ownedOutput },
      ];
    case TypeId.PropertyBurnOperation:
      return [];
  }
}

/** UTXOs created by a transaction whose ID is `txId`. */
export function producedUtxos(tx: UnsignedTx, txId: Uint8Array): ProducedUtxos {
  const utxos: Utxo[] = tx.outputs.map((out, i) => ({ txId, outputIndex: i, assetId: out.assetId, output: out.output }));
  const exportedUtxos: Utxo[] = [];
  const next = (): number => utxos.length + exportedUtxos.length;
  switch (tx.typeId) {
    case TypeId.CreateAssetTx:
      for (const state of tx.initialStates) {
        for (const output of state.outputs) utxos.push({ txId, outputIndex: next(), assetId: txId, output });
      }
      break;
    case TypeId.OperationTx:
      for (const op of tx.operations) {
        for (const output of operationOutputs(op.operation)) utxos.push({ txId, outputIndex: next(), assetId: op.assetId, output });
      }
      break;
    case TypeId.ExportTx:
      for (const out of tx.exportedOutputs) exportedUtxos.push({ txId, outputIndex: next(), assetId: out.assetId, output: out.output });
      break;
    default:
      break;
  }
  return { utxos, exportedUtxos };
}

/** UTXOs a transaction spends. */
export function consumedUtxos(tx: UnsignedTx): ConsumedUtxos {
  const local: UtxoId[] = tx.inputs.map(({ txId, outputIndex }) => ({ txId, outputIndex }));
  const imported: UtxoId[] = [];
  if (tx.typeId === TypeId.OperationTx) {
    for (const op of tx.operations) for (const { txId, outputIndex } of op.utxoIds) local.push({ txId, outputIndex });
  }
  if (tx.typeId === TypeId.ImportTx) {
    for (const { txId, outputIndex } of tx.importedInputs) imported.push({ txId, outputIndex });
  }
  return { local, imported };
}
