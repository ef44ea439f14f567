/**
 * A block's record as the durable store keeps it: the block itself (its RLP) and what the chain
 * knows of it that the block does not say: each transaction's sender and receipt (with its
 * logs, revert data and failure), the change it made to the multi-coin balances, and its
 * atomic transactions. Everything positional (log and transaction indexes, hashes) is derived
 * again when the record is decoded, as block production derives it.
 *
 * Since the store's layout 2 (see stored-layout.ts) a record has a seventh item: the height of
 * the latest block up to this one whose multi-coin change was not empty (an empty list when
 * none was), so a block read alone finds its balances (multicoin-ledger.ts) without its parents.
 */
import type { Common } from "@ethereumjs/common";
import { createBlockFromRLP } from "@ethereumjs/block";
import { RLP } from "@ethereumjs/rlp";
import { Address, bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, bytesToUnprefixedHex, hexToBytes } from "@ethereumjs/util";
import { emptyBlockRecord, type BlockRecord, type LogRecord, type MinedTransaction, type ReceiptRecord } from "../chain";
import { StoredChainError } from "../errors";
import type { MultiCoinSnapshot } from "../multicoin";
import { applyMultiCoinChange, multiCoinChange, type MultiCoinChange } from "./multicoin-diff";

export type Item = Uint8Array | Item[];

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** What a stored record says of its multi-coin balances: its change, and (layout 2) the latest block that changed them. */
export interface StoredMultiCoin {
  readonly change: MultiCoinChange;
  /** Absent in records of layout 1; undefined when no block up to this one changed the balances. */
  readonly lastChange: { readonly height: bigint | undefined } | undefined;
}

/** The balances of a record being decoded, from what it stores of them. */
export type MultiCoinResolver = (stored: StoredMultiCoin) => MultiCoinSnapshot;

/**
 * The stored form of `record`, whose parent's multi-coin balances are `parentMultiCoin`;
 * `lastChange` (layout 2) the latest block up to this one whose change was not empty.
 */
export function encodeBlockRecord(record: BlockRecord, parentMultiCoin: MultiCoinSnapshot, lastChange?: { height: bigint | undefined }): Uint8Array {
  const change = multiCoinChange(parentMultiCoin, record.multiCoin);
  const fields: Item[] = [
    record.block.serialize(),
    record.transactions.map((mined) => encodeMined(mined)),
    encodeMultiCoinChange(change),
    record.atomicTransactions.map((id) => utf8.encode(id)),
    bigIntToUnpaddedBytes(record.atomicGasUsed),
    [...record.atomicTransactionBytes],
  ];
  if (lastChange !== undefined) fields.push(optional(lastChange.height === undefined ? undefined : bigIntToUnpaddedBytes(lastChange.height)));
  return RLP.encode(fields);
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

/**
 * The record stored as `bytes`, its multi-coin balances given by `multiCoin` from what the
 * record stores of them (`parentMultiCoin`: its parent's balances with its change applied).
 */
export function decodeBlockRecord(bytes: Uint8Array, common: Common, multiCoin: MultiCoinSnapshot | MultiCoinResolver): BlockRecord {
  // Five items in records written before the atomic transactions' bytes were kept, six since, seven in layout 2.
  const items = list(RLP.decode(bytes) as Item);
  if (items.length < 5 || items.length > 7) throw new StoredChainError(`stored block record is damaged: expected a list of 5 to 7, found ${items.length}`);
  const [blockRlp, minedItems, changeItem, atomicItems, atomicGasUsed, atomicBytesItems, lastChangeItem] = items as [Item, Item, Item, Item, Item, Item | undefined, Item | undefined];
  const block = createBlockFromRLP(bytesOf(blockRlp), { common, setHardfork: false });
  const change = decodeMultiCoinChange(changeItem);
  const lastChange = lastChangeItem === undefined ? undefined : fromOptional(lastChangeItem);
  const stored: StoredMultiCoin = { change, lastChange: lastChangeItem === undefined ? undefined : { height: lastChange === undefined ? undefined : bytesToBigInt(lastChange) } };
  const record = emptyBlockRecord(
    block,
    typeof multiCoin === "function" ? multiCoin(stored) : applyMultiCoinChange(multiCoin, change),
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

/** A multi-coin change as a record's item (also the ledger's, multicoin-ledger.ts). */
export function encodeMultiCoinChange(change: MultiCoinChange): Item[] {
  return [
    change.balances.map(([key, amount]) => [hexToBytes(`0x${key}`), bigIntToUnpaddedBytes(amount)]),
    change.flagged.map((address) => hexToBytes(`0x${address}`)),
    change.unflagged.map((address) => hexToBytes(`0x${address}`)),
  ];
}

export function decodeMultiCoinChange(item: Item): MultiCoinChange {
  const [balanceItems, flaggedItems, unflaggedItems] = list(item, 3);
  return {
    balances: list(balanceItems).map((entry) => {
      const [key, amount] = list(entry, 2);
      return [bytesToUnprefixedHex(bytesOf(key)), bytesToBigInt(bytesOf(amount))] as const;
    }),
    flagged: list(flaggedItems).map((entry) => bytesToUnprefixedHex(bytesOf(entry))),
    unflagged: list(unflaggedItems).map((entry) => bytesToUnprefixedHex(bytesOf(entry))),
  };
}

/**
 * The latest block up to the stored record's whose multi-coin change was not empty, read
 * without decoding the block: `{ height: undefined }` when none was, undefined in a layout-1 record.
 */
export function storedLastChange(bytes: Uint8Array): { height: bigint | undefined } | undefined {
  const items = list(RLP.decode(bytes) as Item);
  if (items.length !== 7) return undefined;
  const value = fromOptional(items[6]!);
  return { height: value === undefined ? undefined : bytesToBigInt(value) };
}

/** An optional value: an empty list when absent, else a list of one. */
export function optional(value: Uint8Array | undefined): Item[] {
  return value === undefined ? [] : [value];
}

export function fromOptional(item: Item): Uint8Array | undefined {
  const items = list(item);
  return items.length === 0 ? undefined : bytesOf(items[0]!);
}

export function list(item: Item, length?: number): Item[] {
  if (!Array.isArray(item) || (length !== undefined && item.length !== length)) {
    throw new StoredChainError(`stored block record is damaged: expected a list${length === undefined ? "" : ` of ${length}`}`);
  }
  return item;
}

export function bytesOf(item: Item): Uint8Array {
  if (!(item instanceof Uint8Array)) throw new StoredChainError("stored block record is damaged: expected bytes");
  return item;
}
