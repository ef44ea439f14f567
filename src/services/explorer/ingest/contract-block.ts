/**
 * A contract-chain container (the C index: the RLP block, wrapped in a proposer block after the
 * first) as rows: the header read from the node's `eth_getBlockByNumber` (checked against the
 * container's own header hash), each transaction with its receipt and logs
 * (`eth_getTransactionReceipt`), and the block's atomic transactions when its RLP carries
 * `extData` (coreth's block body: header, transactions, uncles, version, extData).
 *
 * The atomic transactions come from the RLP's extData, else from the block's `blockExtraData`
 * (hex) as eth_getBlockByNumber answers it (the reference node and nativekit both serve it). A
 * node with neither shows its contract chain's imports nowhere: they are not indexed, and the
 * outputs they spend stay unspent here (the correctness check reports them as unseen imports).
 * `extDataHash` is the header's when the node reports one, else 32 zero bytes.
 */
import { RLP } from "@ethereumjs/rlp";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { hexToBytes } from "../../../encoding";
import type { ExplorerContext } from "../context";
import { decodeExtData } from "./atomic-tx";
import type { JsonObject, NodeSource } from "./node-source";
import { hexOf } from "./outputs";
import { unwrapProposerBlock } from "./proposer-block";
import type { CBlockRow, CLogRow, CTransactionRow, TransactionRow } from "./rows";

const ZERO_HASH = `0x${"0".repeat(64)}`;

type RlpValue = Uint8Array | RlpValue[];

export interface DecodedContractBlock {
  block: CBlockRow;
  atomicTransactions: TransactionRow[];
}

const text = (value: JsonValueLike, what: string): string => {
  if (typeof value !== "string") throw new Error(`the node's ${what} is not a string`);
  return value.toLowerCase();
};
type JsonValueLike = JsonObject[string] | undefined;
const quantity = (value: JsonValueLike, what: string): bigint => BigInt(text(value, what));
const optionalQuantity = (value: JsonValueLike): bigint | null => (typeof value === "string" ? BigInt(value) : null);

/** The block number and hash a contract-chain container holds, from its RLP alone. */
export function contractBlockIdentity(containerBytes: Uint8Array): { number: bigint; hash: string; extData: Uint8Array } {
  const rlp = unwrapProposerBlock(containerBytes) ?? containerBytes;
  const decoded = RLP.decode(rlp) as RlpValue[];
  const header = decoded[0];
  if (!Array.isArray(header) || header.length < 15) throw new Error("the container is not a contract-chain block (no RLP header)");
  const numberBytes = header[8] as Uint8Array;
  const number = numberBytes.length === 0 ? 0n : BigInt(`0x${hexOf(numberBytes)}`);
  const extData = decoded.length >= 5 && decoded[4] instanceof Uint8Array ? decoded[4] : new Uint8Array(0);
  return { number, hash: `0x${hexOf(keccak_256(RLP.encode(header)))}`, extData };
}

export async function decodeContractBlock(context: ExplorerContext, node: NodeSource, containerBytes: Uint8Array, acceptedAt: number): Promise<DecodedContractBlock> {
  const { number, hash, extData } = contractBlockIdentity(containerBytes);
  const json = await node.contractBlock(number);
  if (json === null) throw new Error(`the node has no contract-chain block ${number}`);
  if (text(json.hash, "block hash") !== hash) throw new Error(`block ${number}: the node's hash ${String(json.hash)} is not the indexed block's ${hash}`);
  const txs = Array.isArray(json.transactions) ? (json.transactions as JsonObject[]) : [];
  const receipts = await Promise.all(txs.map((tx) => node.contractReceipt(text(tx.hash, "transaction hash"))));
  const block: CBlockRow = {
    number,
    hash,
    parentHash: text(json.parentHash, "parentHash"),
    sha3Uncles: text(json.sha3Uncles, "sha3Uncles"),
    miner: text(json.miner, "miner"),
    stateRoot: text(json.stateRoot, "stateRoot"),
    transactionsRoot: text(json.transactionsRoot, "transactionsRoot"),
    receiptsRoot: text(json.receiptsRoot, "receiptsRoot"),
    logsBloom: text(json.logsBloom, "logsBloom"),
    difficulty: quantity(json.difficulty, "difficulty"),
    gasLimit: quantity(json.gasLimit, "gasLimit"),
    gasUsed: quantity(json.gasUsed, "gasUsed"),
    timestamp: quantity(json.timestamp, "timestamp"),
    extraData: text(json.extraData, "extraData"),
    mixHash: text(json.mixHash, "mixHash"),
    nonce: text(json.nonce, "nonce"),
    extDataHash: typeof json.extDataHash === "string" ? json.extDataHash.toLowerCase() : ZERO_HASH,
    baseFeePerGas: optionalQuantity(json.baseFeePerGas),
    extDataGasUsed: optionalQuantity(json.extDataGasUsed),
    blockGasCost: optionalQuantity(json.blockGasCost),
    acceptedAt,
    transactions: txs.map((tx, i) => transactionRow(tx, receipts[i] ?? null)),
  };
  const extra = extData.length > 0 ? extData : typeof json.blockExtraData === "string" ? hexToBytes(json.blockExtraData) : new Uint8Array(0);
  return { block, atomicTransactions: decodeExtData(context, extra, acceptedAt, hash) };
}

function transactionRow(tx: JsonObject, receipt: JsonObject | null): CTransactionRow {
  const hash = text(tx.hash, "transaction hash");
  if (receipt === null) throw new Error(`the node has no receipt for ${hash}`);
  const logs = Array.isArray(receipt.logs) ? (receipt.logs as JsonObject[]) : [];
  return {
    hash,
    transactionIndex: Number(quantity(tx.transactionIndex, "transactionIndex")),
    type: typeof tx.type === "string" ? Number(BigInt(tx.type)) : 0,
    nonce: quantity(tx.nonce, "nonce"),
    gasPrice: optionalQuantity(tx.gasPrice),
    maxFeePerGas: optionalQuantity(tx.maxFeePerGas),
    maxPriorityFeePerGas: optionalQuantity(tx.maxPriorityFeePerGas),
    gasLimit: quantity(tx.gas, "gas"),
    value: quantity(tx.value, "value"),
    input: text(tx.input, "input"),
    fromAddr: text(tx.from, "from"),
    toAddr: typeof tx.to === "string" ? tx.to.toLowerCase() : null,
    v: text(tx.v, "v"),
    r: text(tx.r, "r"),
    s: text(tx.s, "s"),
    status: typeof receipt.status === "string" ? Number(BigInt(receipt.status)) : 1,
    gasUsed: quantity(receipt.gasUsed, "gasUsed"),
    cumulativeGasUsed: quantity(receipt.cumulativeGasUsed, "cumulativeGasUsed"),
    effectiveGasPrice: optionalQuantity(receipt.effectiveGasPrice) ?? optionalQuantity(tx.gasPrice) ?? 0n,
    contractAddress: typeof receipt.contractAddress === "string" ? receipt.contractAddress.toLowerCase() : null,
    logsBloom: text(receipt.logsBloom, "logsBloom"),
    logs: logs.map(
      (log): CLogRow => ({
        logIndex: Number(quantity(log.logIndex, "logIndex")),
        address: text(log.address, "log address"),
        topics: (Array.isArray(log.topics) ? log.topics : []).map((t) => text(t, "topic")),
        data: text(log.data, "log data"),
      }),
    ),
  };
}
