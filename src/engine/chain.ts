/** The chain's records: blocks, mined transactions, receipts and logs, and the store that holds them. */
import type { Block } from "@ethereumjs/block";
import type { TypedTransaction } from "@ethereumjs/tx";
import type { Address } from "@ethereumjs/util";
import { LogIndex } from "./log-index";
import type { MultiCoinSnapshot } from "./multicoin";
import type { LogFilter } from "./types";

/** One log as the JSON-RPC API reports it, positioned in its block. */
export interface LogRecord {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  readonly logIndex: number;
  readonly transactionIndex: number;
  readonly transactionHash: string;
  readonly blockHash: string;
  readonly blockNumber: bigint;
}

export interface ReceiptRecord {
  readonly status: 0 | 1;
  readonly gasUsed: bigint;
  readonly cumulativeGasUsed: bigint;
  readonly effectiveGasPrice: bigint;
  readonly logs: readonly LogRecord[];
  readonly logsBloom: Uint8Array;
  readonly contractAddress: Address | undefined;
  /** Return data of a failed transaction (revert reason), kept for error messages and traces. */
  readonly returnData: Uint8Array;
  /** Why it failed, for people ("execution reverted: reason", "out of gas"). */
  readonly error: string | undefined;
  /** The EVM's own failure code ("revert", "out of gas", ...). */
  readonly evmError: string | undefined;
}

export interface MinedTransaction {
  readonly tx: TypedTransaction;
  readonly hash: string;
  readonly from: Address;
  readonly index: number;
  readonly block: BlockRecord;
  readonly receipt: ReceiptRecord;
}

export interface BlockRecord {
  readonly block: Block;
  readonly hash: string;
  readonly number: bigint;
  readonly transactions: MinedTransaction[];
  /** Multi-coin balances after this block. */
  readonly multiCoin: MultiCoinSnapshot;
  /** Atomic (cross-chain) transactions accepted in this block, by cb58 ID. */
  readonly atomicTransactions: readonly string[];
  /** Their signed bytes, in the same order (the block's extra data); empty for blocks stored before they were kept. */
  readonly atomicTransactionBytes: readonly Uint8Array[];
  /** Gas the atomic transactions used (the header's extDataGasUsed). */
  readonly atomicGasUsed: bigint;
}

/** A block's record with no transactions yet (the caller adds them, with their receipts, in order). */
export function emptyBlockRecord(
  block: Block,
  multiCoin: MultiCoinSnapshot,
  atomicTransactions: readonly string[],
  atomicGasUsed: bigint,
  atomicTransactionBytes: readonly Uint8Array[] = [],
): BlockRecord & { readonly transactions: MinedTransaction[] } {
  const hash = `0x${Buffer.from(block.hash()).toString("hex")}`;
  return { block, hash, number: block.header.number, transactions: [], multiCoin, atomicTransactions, atomicTransactionBytes, atomicGasUsed };
}

/**
 * The canonical chain: blocks by number and hash, mined transactions by hash.
 * Only the engine appends or truncates it (evm_revert, reorg to a snapshot).
 */
export class ChainStore {
  private readonly byNumber: BlockRecord[] = [];
  private readonly byHash = new Map<string, BlockRecord>();
  private readonly txByHash = new Map<string, MinedTransaction>();
  private readonly logIndex = new LogIndex();

  /** `first`: the number of the first block held: 0, or a fork's fork block (earlier ones are the remote's). */
  constructor(readonly first = 0n) {}

  append(record: BlockRecord): void {
    if (record.number !== this.first + BigInt(this.byNumber.length)) {
      throw new Error(`block ${record.number} appended at height ${this.first + BigInt(this.byNumber.length)}`);
    }
    this.byNumber.push(record);
    this.byHash.set(record.hash, record);
    for (const mined of record.transactions) this.txByHash.set(mined.hash, mined);
    this.logIndex.add(record);
  }

  /** Drops every block above `height`. */
  truncate(height: bigint): void {
    while (this.first + BigInt(this.byNumber.length) > height + 1n) {
      const record = this.byNumber.pop()!;
      this.logIndex.remove(record);
      this.byHash.delete(record.hash);
      for (const mined of record.transactions) this.txByHash.delete(mined.hash);
    }
  }

  get head(): BlockRecord {
    const head = this.byNumber[this.byNumber.length - 1];
    if (head === undefined) throw new Error("the chain has no genesis block");
    return head;
  }

  get height(): bigint {
    return this.first + BigInt(this.byNumber.length - 1);
  }

  byNumberOrUndefined(n: bigint): BlockRecord | undefined {
    const index = n - this.first;
    return index < 0n || index >= BigInt(this.byNumber.length) ? undefined : this.byNumber[Number(index)];
  }

  byHashOrUndefined(hash: string): BlockRecord | undefined {
    return this.byHash.get(hash.toLowerCase());
  }

  transaction(hash: string): MinedTransaction | undefined {
    return this.txByHash.get(hash.toLowerCase());
  }

  /**
   * The blocks a logs query must read: those the log index names when the query names addresses
   * or topics, else every block of its range; ascending, clamped to the chain.
   */
  *logBlocks(filter: LogFilter): Iterable<BlockRecord> {
    const candidates = this.logIndex.candidates(filter);
    if (candidates === undefined) {
      yield* this.range(filter.fromBlock, filter.toBlock);
      return;
    }
    for (const n of candidates) {
      const record = this.byNumberOrUndefined(BigInt(n));
      if (record !== undefined) yield record;
    }
  }

  /** Blocks from `from` to `to` inclusive, clamped to the chain. */
  *range(from: bigint, to: bigint): Iterable<BlockRecord> {
    const last = to < this.height ? to : this.height;
    for (let n = from < this.first ? this.first : from; n <= last; n++) yield this.byNumber[Number(n - this.first)]!;
  }
}

/** The chain as read outside the engine: everything but appending and truncating. */
export type ChainView = Pick<ChainStore, "first" | "head" | "height" | "byNumberOrUndefined" | "byHashOrUndefined" | "transaction" | "range" | "logBlocks">;
