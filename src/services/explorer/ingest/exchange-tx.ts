/**
 * An exchange-chain transaction (the X index's container: the signed transaction bytes) as rows:
 * its outputs numbered as the node numbers its UTXOs (initial states, operation outputs and
 * exported outputs continue the count; exported ones live in the destination chain's UTXO set),
 * the outputs it spends, its credentials' signers, the asset it creates, and its fee.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeCb58 } from "../../../encoding";
import { parseSignedTx, producedUtxos, TypeId, type UnsignedTx } from "../../../utxo/codec";
import type { ExplorerContext } from "../context";
import { credentialRows, hexOf, inputRows, nativeFee, outputRow, referencedInput, repeatedIdOf, spendSigners } from "./outputs";
import type { AssetRow, InputRow, TransactionRow } from "./rows";

const TYPE_NAMES: Record<UnsignedTx["typeId"], string> = {
  [TypeId.BaseTx]: "base",
  [TypeId.CreateAssetTx]: "create_asset",
  [TypeId.OperationTx]: "operation",
  [TypeId.ImportTx]: "import",
  [TypeId.ExportTx]: "export",
};

const MINT_OUTPUTS: readonly number[] = [TypeId.Secp256k1MintOutput, TypeId.NftMintOutput, TypeId.PropertyMintOutput];
const NFT_OUTPUTS: readonly number[] = [TypeId.NftMintOutput, TypeId.NftTransferOutput];

export function decodeExchangeTx(context: ExplorerContext, bytes: Uint8Array, acceptedAt: number, genesis = false): TransactionRow {
  const parsed = parseSignedTx(bytes);
  const tx = parsed.tx.unsignedTx;
  const chainId = context.chains.X;
  const id = repeatedIdOf(parsed.txId);
  const produced = producedUtxos(tx, parsed.txId);
  const destination = tx.typeId === TypeId.ExportTx ? encodeCb58(tx.destinationChain) : null;
  const outputs = [
    ...produced.utxos.map((u) => outputRow(context, { txId: parsed.txId, outputIndex: u.outputIndex, chainId, createdOnChainId: chainId }, u.assetId, u.output)),
    ...produced.exportedUtxos.map((u) => outputRow(context, { txId: parsed.txId, outputIndex: u.outputIndex, chainId: destination!, createdOnChainId: chainId }, u.assetId, u.output)),
  ];
  const inputs: InputRow[] = inputRows(tx.inputs);
  if (tx.typeId === TypeId.OperationTx) {
    for (const op of tx.operations) for (const u of op.utxoIds) inputs.push(referencedInput(inputs.length, u.txId, u.outputIndex, op.assetId));
  }
  if (tx.typeId === TypeId.ImportTx) inputs.push(...inputRows(tx.importedInputs, inputs.length));
  const assets: AssetRow[] = [];
  if (tx.typeId === TypeId.CreateAssetTx) {
    const kinds = tx.initialStates.flatMap((s) => s.outputs.map((o) => o.typeId as number));
    assets.push({
      id,
      chainId,
      name: tx.name,
      symbol: tx.symbol,
      // The native asset is known by its symbol as an alias (`AVAX`), as the node names it.
      alias: id === context.nativeAssetId ? tx.symbol : "",
      denomination: tx.denomination,
      variableCap: kinds.some((k) => MINT_OUTPUTS.includes(k)) ? 1 : 0,
      nft: kinds.some((k) => NFT_OUTPUTS.includes(k)) ? 1 : 0,
    });
  }
  // Only transferable outputs count against the inputs (mint outputs carry no amount).
  const spentOutputs = outputs.filter((o) => o.outputType === TypeId.Secp256k1TransferOutput);
  return {
    id,
    chainId,
    type: TYPE_NAMES[tx.typeId],
    memo: hexOf(tx.memo),
    txFee: genesis ? 0n : nativeFee(context, inputs, spentOutputs),
    genesis,
    acceptedAt,
    blockId: null,
    sourceChainId: tx.typeId === TypeId.ImportTx ? encodeCb58(tx.sourceChain) : null,
    destinationChainId: destination,
    bytes: hexOf(bytes),
    inputs,
    outputs,
    // The i-th credential signs the i-th transferable input (then the imported ones; an operation's come after).
    credentials: credentialRows(context, sha256(parsed.unsignedBytes), parsed.tx.credentials, spendSigners(inputs, [...tx.inputs, ...(tx.typeId === TypeId.ImportTx ? tx.importedInputs : [])])),
    assets,
  };
}
