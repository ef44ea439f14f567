import { compareTransferableOutputs, type SignedTx, type TransferableOutput, TypeId } from "../../utxo/codec";
import type { ExchangeGenesis } from "../genesis";

/**
 * The transactions a genesis makes, in acceptance order: each asset's creation (with its alias),
 * then one transaction paying the extra allocations in the fee asset (a nativekit extension).
 * Throws RangeError for an asset creation that moves funds.
 */
export function genesisTransactions(genesis: ExchangeGenesis, networkId: number, chainId: Uint8Array, feeAssetId: Uint8Array): { signed: SignedTx; alias?: string }[] {
  const txs: { signed: SignedTx; alias?: string }[] = genesis.assets.map((asset) => {
    const tx = asset.tx;
    if (tx.outputs.length !== 0 || tx.inputs.length !== 0) throw new RangeError(`genesis asset ${asset.alias} must have no inputs or outputs, only initial states`);
    return { signed: { unsignedTx: tx, credentials: [] }, alias: asset.alias };
  });
  if (genesis.allocations !== undefined && genesis.allocations.length > 0) {
    const outputs: TransferableOutput[] = genesis.allocations.map((a) => ({
      assetId: feeAssetId,
      output: { typeId: TypeId.Secp256k1TransferOutput, amount: a.amount, locktime: a.locktime ?? 0n, threshold: 1, addresses: [a.shortId] },
    }));
    outputs.sort(compareTransferableOutputs);
    const memo = new TextEncoder().encode("nativekit genesis allocations");
    txs.push({ signed: { unsignedTx: { typeId: TypeId.BaseTx, networkId, blockchainId: chainId, outputs, inputs: [], memo }, credentials: [] } });
  }
  return txs;
}
