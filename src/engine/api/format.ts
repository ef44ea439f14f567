/**
 * JSON-RPC shapes of blocks, transactions, receipts and logs, as geth (and so coreth) writes
 * them: the engine's records turned into the objects the eth_ methods answer with.
 */
import { accessListBytesToJSON, TransactionType, type TypedTransaction } from "@ethereumjs/tx";
import { bytesToHex } from "@ethereumjs/util";
import type { BlockRecord, LogRecord, MinedTransaction } from "../chain";

export type Hex = `0x${string}`;

export function q(value: bigint | number): Hex {
  return `0x${value.toString(16)}`;
}

export function hex(bytes: Uint8Array): Hex {
  return bytesToHex(bytes) as Hex;
}

export function formatLog(log: LogRecord): Record<string, unknown> {
  return {
    address: hex(log.address),
    topics: log.topics.map(hex),
    data: hex(log.data),
    blockNumber: q(log.blockNumber),
    transactionHash: log.transactionHash,
    transactionIndex: q(log.transactionIndex),
    blockHash: log.blockHash,
    logIndex: q(log.logIndex),
    removed: false,
  };
}

/**
 * `JSON.stringify(formatLog(log))`, written directly: every value is a hex string or `false`,
 * which need no escaping, and a large logs answer is mostly this (a third of the time of the
 * object and its stringify).
 */
export function formatLogJson(log: LogRecord): string {
  let topics = "";
  for (let i = 0; i < log.topics.length; i++) topics += `${i === 0 ? "" : ","}"${hex(log.topics[i]!)}"`;
  return (
    `{"address":"${hex(log.address)}","topics":[${topics}],"data":"${hex(log.data)}","blockNumber":"${q(log.blockNumber)}",` +
    `"transactionHash":"${log.transactionHash}","transactionIndex":"${q(log.transactionIndex)}","blockHash":"${log.blockHash}",` +
    `"logIndex":"${q(log.logIndex)}","removed":false}`
  );
}

export function formatTransaction(
  tx: TypedTransaction,
  hash: string,
  from: string,
  position?: { block: BlockRecord; index: number },
  baseFee?: bigint,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    blockHash: position?.block.hash ?? null,
    blockNumber: position === undefined ? null : q(position.block.number),
    from,
    gas: q(tx.gasLimit),
    hash,
    input: hex(tx.data),
    nonce: q(tx.nonce),
    to: tx.to === undefined ? null : tx.to.toString(),
    transactionIndex: position === undefined ? null : q(position.index),
    value: q(tx.value),
    type: q(tx.type),
    v: q(tx.v ?? 0n),
    r: q(tx.r ?? 0n),
    s: q(tx.s ?? 0n),
  };
  if (tx.type === TransactionType.Legacy || tx.type === TransactionType.AccessListEIP2930) {
    out.gasPrice = q((tx as unknown as { gasPrice: bigint }).gasPrice);
  } else {
    const maxFee = (tx as unknown as { maxFeePerGas: bigint }).maxFeePerGas;
    const tip = (tx as unknown as { maxPriorityFeePerGas: bigint }).maxPriorityFeePerGas;
    out.maxFeePerGas = q(maxFee);
    out.maxPriorityFeePerGas = q(tip);
    // geth reports the effective price once mined, the cap while pending.
    out.gasPrice = q(baseFee === undefined ? maxFee : baseFee + tip < maxFee ? baseFee + tip : maxFee);
  }
  if (tx.type !== TransactionType.Legacy) {
    out.chainId = q(tx.common.chainId());
    // From the transaction's own list: tx.toJSON() would write every field as hex for this one, the data too.
    out.accessList = "accessList" in tx ? accessListBytesToJSON(tx.accessList) : [];
    out.yParity = q(tx.v ?? 0n);
  } else if (tx.v !== undefined && tx.v > 28n) {
    out.chainId = q((tx.v - 35n) / 2n);
  }
  return out;
}

export function formatMinedTransaction(mined: MinedTransaction): Record<string, unknown> {
  return formatTransaction(mined.tx, mined.hash, mined.from.toString(), { block: mined.block, index: mined.index }, mined.block.block.header.baseFeePerGas);
}

export function formatReceipt(mined: MinedTransaction): Record<string, unknown> {
  const r = mined.receipt;
  return {
    transactionHash: mined.hash,
    transactionIndex: q(mined.index),
    blockHash: mined.block.hash,
    blockNumber: q(mined.block.number),
    from: mined.from.toString(),
    to: mined.tx.to === undefined ? null : mined.tx.to.toString(),
    cumulativeGasUsed: q(r.cumulativeGasUsed),
    gasUsed: q(r.gasUsed),
    effectiveGasPrice: q(r.effectiveGasPrice),
    contractAddress: r.contractAddress === undefined ? null : r.contractAddress.toString(),
    logs: r.logs.map(formatLog),
    logsBloom: hex(r.logsBloom),
    type: q(mined.tx.type),
    status: q(r.status),
  };
}

export function formatBlock(record: BlockRecord, fullTransactions: boolean): Record<string, unknown> {
  const h = record.block.header;
  return {
    number: q(h.number),
    hash: record.hash,
    parentHash: hex(h.parentHash),
    nonce: hex(h.nonce),
    mixHash: hex(h.mixHash),
    sha3Uncles: hex(h.uncleHash),
    logsBloom: hex(h.logsBloom),
    transactionsRoot: hex(h.transactionsTrie),
    stateRoot: hex(h.stateRoot),
    receiptsRoot: hex(h.receiptTrie),
    miner: h.coinbase.toString(),
    difficulty: q(h.difficulty),
    totalDifficulty: q(0),
    extraData: hex(h.extraData),
    size: q(blockSize(record)),
    gasLimit: q(h.gasLimit),
    gasUsed: q(h.gasUsed),
    timestamp: q(h.timestamp),
    baseFeePerGas: q(h.baseFeePerGas ?? 0n),
    // Contract-chain header extras: gas of the atomic transactions in this block.
    extDataGasUsed: q(record.atomicGasUsed),
    blockExtraData: hex(blockExtraData(record.atomicTransactionBytes)),
    blockGasCost: "0x0",
    blobGasUsed: q(h.blobGasUsed ?? 0n),
    excessBlobGas: q(h.excessBlobGas ?? 0n),
    parentBeaconBlockRoot: hex(h.parentBeaconBlockRoot ?? new Uint8Array(32)),
    withdrawalsRoot: hex(h.withdrawalsRoot ?? new Uint8Array(32)),
    withdrawals: [],
    uncles: [],
    transactions: record.transactions.map((mined) => (fullTransactions ? formatMinedTransaction(mined) : mined.hash)),
  };
}

/**
 * A block's extra data as the reference node serves it (`blockExtraData`): its atomic
 * transactions as one codec list — codec version 0, a 4-byte count, then each signed
 * transaction without its own 2-byte codec version. Empty when the block has none.
 */
export function blockExtraData(signedAtomicTransactions: readonly Uint8Array[]): Uint8Array {
  if (signedAtomicTransactions.length === 0) return new Uint8Array(0);
  const bodies = signedAtomicTransactions.map((signed) => signed.subarray(2));
  const out = new Uint8Array(6 + bodies.reduce((sum, body) => sum + body.length, 0));
  new DataView(out.buffer).setUint32(2, bodies.length);
  let offset = 6;
  for (const body of bodies) {
    out.set(body, offset);
    offset += body.length;
  }
  return out;
}

/** Blocks never change once mined: their encoded size is computed once. */
const sizes = new WeakMap<BlockRecord, number>();

function blockSize(record: BlockRecord): number {
  let size = sizes.get(record);
  if (size === undefined) {
    size = record.block.serialize().length;
    sizes.set(record, size);
  }
  return size;
}
