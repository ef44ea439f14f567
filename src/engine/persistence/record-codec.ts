/**
 * A block's record as the durable store keeps it: the block itself (its RLP) and what the chain
 * knows of it that the block does not say: each transaction's sender and receipt (with its
 * logs, revert data and failure), the change it made to the multi-coin balances, and its
 * atomic transactions. Everything positional (log and transaction indexes, hashes) is derived
 * again when the record is decoded, as block production derives it.
 */
import type { Common } from "@ethereumjs/common";
import { createBlockFromRLP } from "@ethereumjs/block";
import { RLP } from "@ethereumjs/rlp";
import { Address, bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, bytesToUnprefixedHex, hexToBytes } from "@ethereumjs/util";
import { emptyBlockRecord, type BlockRecord, type LogRecord, type MinedTransaction, type ReceiptRecord } from "../chain";
import { StoredChainError } from "../errors";
import type { MultiCoinSnapshot } from "../multicoin";
import { applyMultiCoinChange, multiCoinChange, type MultiCoinChange } from "./multicoin-diff";

type Item = Uint8Array | Item[];

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** The stored form of `record`, whose parent's multi-coin balances are `parentMultiCoin`. */
export function encodeBlockRecord(record: BlockRecord, parentMultiCoin: MultiCoinSnapshot): Uint8Array {
  const change = multiCoinChange(parentMultiCoin, record.multiCoin);
  return RLP.encode([
    record.block.serialize(),
    record.transactions.map((mined) => encodeMined(mined)),
    [
      change.balances.map(([key, amount]) => [hexToBytes(`0x${key}`), bigIntToUnpaddedBytes(amount)]),
      change.flagged.map((address) => hexToBytes(`0x${address}`)),
      change.unflagged.map((address) => hexToBytes(`0x${address}`)),
    ],
    record.atomicTransactions.map((id) => utf8.encode(id)),
    bigIntToUnpaddedBytes(record.atomicGasUsed),
    [...record.atomicTransactionBytes],
  ]);
}

function encodeMined({ from, receipt: r }: MinedTransaction): Item[] {
  return [
    from.bytes,
    bigIntToUnpaddedBytes(BigInt(r.status)),
    bigIntToUnpaddedBytes(r.gasUsed),
    bigIntToUnpaddedBytes(r.cumulativeGasUsed),
    bigIntToUnpaddedBytes(r.effectiveGasPrice),
    r.logs.map((log) => [log.address, [...log.topics], log.data]),
    r.logsBloom,
    optional(r.contractAddress?.bytes),
    r.returnData,
    optional(r.error === undefined ? undefined : utf8.encode(r.error)),
    optional(r.evmError === undefined ? undefined : utf8.encode(r.evmError)),
  ];
}

/** The record stored as `bytes`, on a parent whose multi-coin balances are `parentMultiCoin`. */
export function decodeBlockRecord(bytes: Uint8Array, common: Common, parentMultiCoin: MultiCoinSnapshot): BlockRecord {
  // Five items in records written before the atomic transactions' bytes were kept, six since.
  const items = list(RLP.decode(bytes) as Item);
  if (items.length !== 5 && items.length !== 6) throw new StoredChainError(`stored block record is damaged: expected a list of 5 or 6, found ${items.length}`);
  const [blockRlp, minedItems, changeItem, atomicItems, atomicGasUsed, atomicBytesItems] = items as [Item, Item, Item, Item, Item, Item | undefined];
  const block = createBlockFromRLP(bytesOf(blockRlp), { common, setHardfork: false });
  const [balanceItems, flaggedItems, unflaggedItems] = list(changeItem, 3);
  const change: MultiCoinChange = {
    balances: list(balanceItems).map((item) => {
      const [key, amount] = list(item, 2);
      return [bytesToUnprefixedHex(bytesOf(key)), bytesToBigInt(bytesOf(amount))] as const;
    }),
    flagged: list(flaggedItems).map((item) => bytesToUnprefixedHex(bytesOf(item))),
    unflagged: list(unflaggedItems).map((item) => bytesToUnprefixedHex(bytesOf(item))),
  };
  const record = emptyBlockRecord(
    block,
    applyMultiCoinChange(parentMultiCoin, change),
    list(atomicItems).map((item) => fromUtf8.decode(bytesOf(item))),
    bytesToBigInt(bytesOf(atomicGasUsed)),
    atomicBytesItems === undefined ? [] : list(atomicBytesItems).map(bytesOf),
  );
  const { hash, transactions } = record;
  const mined = list(minedItems);
  if (mined.length !== block.transactions.length) {
    throw new StoredChainError(`stored block ${record.number} has ${block.transactions.length} transactions and ${mined.length} receipts`);
  }
  let logIndex = 0;
  for (let index = 0; index < mined.length; index++) {
    const tx = block.transactions[index]!;
    const txHash = bytesToHex(tx.hash());
    const [from, status, gasUsed, cumulativeGasUsed, effectiveGasPrice, logItems, logsBloom, contractAddress, returnData, error, evmError] = list(mined[index]!, 11);
    const logs: LogRecord[] = list(logItems).map((item) => {
      const [address, topics, data] = list(item, 3);
      return {
        address: bytesOf(address),
        topics: list(topics).map(bytesOf),
        data: bytesOf(data),
        logIndex: logIndex++,
        transactionIndex: index,
        transactionHash: txHash,
        blockHash: hash,
        blockNumber: record.number,
      };
    });
    const contract = fromOptional(contractAddress);
    const failure = fromOptional(error);
    const evmFailure = fromOptional(evmError);
    const receipt: ReceiptRecord = {
      status: bytesToBigInt(bytesOf(status)) === 1n ? 1 : 0,
      gasUsed: bytesToBigInt(bytesOf(gasUsed)),
      cumulativeGasUsed: bytesToBigInt(bytesOf(cumulativeGasUsed)),
      effectiveGasPrice: bytesToBigInt(bytesOf(effectiveGasPrice)),
      logs,
      logsBloom: bytesOf(logsBloom),
      contractAddress: contract === undefined ? undefined : new Address(contract),
      returnData: bytesOf(returnData),
      error: failure === undefined ? undefined : fromUtf8.decode(failure),
      evmError: evmFailure === undefined ? undefined : fromUtf8.decode(evmFailure),
    };
    transactions.push({ tx, hash: txHash, from: new Address(bytesOf(from)), index, block: record, receipt });
  }
  return record;
}

/** An optional value: an empty list when absent, else a list of one. */
function optional(value: Uint8Array | undefined): Item[] {
  return value === undefined ? [] : [value];
}

function fromOptional(item: Item): Uint8Array | undefined {
  const items = list(item);
  return items.length === 0 ? undefined : bytesOf(items[0]!);
}

function list(item: Item, length?: number): Item[] {
  if (!Array.isArray(item) || (length !== undefined && item.length !== length)) {
    throw new StoredChainError(`stored block record is damaged: expected a list${length === undefined ? "" : ` of ${length}`}`);
  }
  return item;
}

function bytesOf(item: Item): Uint8Array {
  if (!(item instanceof Uint8Array)) throw new StoredChainError("stored block record is damaged: expected bytes");
  return item;
}
