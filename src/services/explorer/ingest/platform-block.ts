/**
 * A platform-chain container (the P index: a block, possibly wrapped in a proposer block) as
 * rows: the block, and each transaction it holds with its outputs (exported ones in the
 * destination chain's UTXO set), the outputs it spends, its credentials' signers and its fee.
 * Transaction types are the reference explorers' names for the platform chain.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeCb58 } from "../../../encoding";
import { decodePBlock, encodePSignedTx, parsePTx, PTypeId, type PBlock, type PSignedTx } from "../../../pchain/codec";
import type { ExplorerContext } from "../context";
import { credentialRows, hexOf, inputRows, nativeFee, outputRow } from "./outputs";
import { unwrapProposerBlock } from "./proposer-block";
import type { PBlockRow, TransactionRow } from "./rows";

const TX_TYPES: Record<PSignedTx["unsignedTx"]["typeId"], string> = {
  [PTypeId.BaseTx]: "pvm_base",
  [PTypeId.CaminoBaseTx]: "pvm_base",
  [PTypeId.ImportTx]: "pvm_import",
  [PTypeId.ExportTx]: "pvm_export",
  [PTypeId.MultisigAliasTx]: "multisig_alias",
};

export interface DecodedPlatformBlock {
  block: PBlockRow;
  transactions: TransactionRow[];
}

export function decodePlatformBlock(context: ExplorerContext, containerBytes: Uint8Array, acceptedAt: number): DecodedPlatformBlock {
  const inner = unwrapProposerBlock(containerBytes) ?? containerBytes;
  const block: PBlock = decodePBlock(inner);
  const id = encodeCb58(sha256(inner));
  const row: PBlockRow = {
    id,
    height: block.height,
    parentId: encodeCb58(block.parentId),
    type: block.typeId === PTypeId.BanffStandardBlock ? "standard" : "commit",
    acceptedAt,
    bytes: hexOf(inner),
  };
  const txs = block.typeId === PTypeId.BanffStandardBlock ? block.txs : [];
  return { block: row, transactions: txs.map((tx) => platformTxRow(context, encodePSignedTx(tx), id, acceptedAt)) };
}

function platformTxRow(context: ExplorerContext, bytes: Uint8Array, blockId: string, acceptedAt: number): TransactionRow {
  const parsed = parsePTx(bytes);
  const tx = parsed.tx.unsignedTx;
  const chainId = context.chains.P;
  const txId = parsed.txId;
  const outputs = tx.outputs.map((o, i) => outputRow(context, { txId, outputIndex: i, chainId, createdOnChainId: chainId }, o.assetId, o.output));
  const destination = tx.typeId === PTypeId.ExportTx ? encodeCb58(tx.destinationChain) : null;
  if (tx.typeId === PTypeId.ExportTx) {
    tx.exportedOutputs.forEach((o, i) => outputs.push(outputRow(context, { txId, outputIndex: tx.outputs.length + i, chainId: destination!, createdOnChainId: chainId }, o.assetId, o.output)));
  }
  const inputs = inputRows(tx.inputs);
  if (tx.typeId === PTypeId.ImportTx) inputs.push(...inputRows(tx.importedInputs, inputs.length));
  return {
    id: encodeCb58(txId),
    chainId,
    type: TX_TYPES[tx.typeId],
    memo: hexOf(tx.memo),
    txFee: nativeFee(context, inputs, outputs),
    genesis: false,
    acceptedAt,
    blockId,
    sourceChainId: tx.typeId === PTypeId.ImportTx ? encodeCb58(tx.sourceChain) : null,
    destinationChainId: destination,
    bytes: hexOf(bytes),
    inputs,
    outputs,
    credentials: credentialRows(context, parsed.unsignedHash, parsed.tx.credentials),
    assets: [],
  };
}
