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
 * Where the chain's blocks are held: all in memory (MemoryBlocks, the in-memory engine's), or,
 * for a chain kept in a durable store, the head and a bounded cache in memory and the rest read
 * from the store when asked for (persistence/stored-blocks.ts). Blocks are appended and
 * truncated at the top only.
 */
export interface BlockSource {
  /** The top block, undefined before the first is appended. */
  readonly head: BlockRecord | undefined;
  append(record: BlockRecord): void;
  /** Drops every block above `height` (at least one block stays). */
  truncate(height: bigint): void;
  /** The block at `n`, undefined outside the chain. */
  at(n: bigint): BlockRecord | undefined;
  byHash(hash: string): BlockRecord | undefined;
  transaction(hash: string): MinedTransaction | undefined;
  /** As LogIndex.candidates: the blocks of the filter's range that can match, undefined when it names no address or topic. */
  logCandidates(filter: LogFilter): readonly number[] | undefined;
}

/** Every block in memory, with the log index: the chain of an engine without a store. */
export class MemoryBlocks implements BlockSource {
  private readonly byNumber: BlockRecord[] = [];
  private readonly byHashMap = new Map<string, BlockRecord>();
  private readonly txByHash = new Map<string, MinedTransaction>();
  private readonly logIndex = new LogIndex();

  constructor(private readonly first: bigint) {}

  get head(): BlockRecord | undefined {
    return this.byNumber[this.byNumber.length - 1];
  }

  append(record: BlockRecord): void {
    this.byNumber.push(record);
    this.byHashMap.set(record.hash, record);
    for (const mined of record.transactions) this.txByHash.set(mined.hash, mined);
    this.logIndex.add(record);
  }

  truncate(height: bigint): void {
    while (this.first + BigInt(this.byNumber.length) > height + 1n) {
      const record = this.byNumber.pop()!;
      this.logIndex.remove(record);
      this.byHashMap.delete(record.hash);
      for (const mined of record.transactions) this.txByHash.delete(mined.hash);
    }
  }

  at(n: bigint): BlockRecord | undefined {
    const index = n - this.first;
    return index < 0n || index >= BigInt(this.byNumber.length) ? undefined : this.byNumber[Number(index)];
  }

  byHash(hash: string): BlockRecord | undefined {
    return this.byHashMap.get(hash);
  }

  transaction(hash: string): MinedTransaction | undefined {
    return this.txByHash.get(hash);
  }

  logCandidates(filter: LogFilter): readonly number[] | undefined {
    return this.logIndex.candidates(filter);
  }
}

/**
 * The canonical chain: blocks by number and hash, mined transactions by hash.
 * Only the engine appends or truncates it (evm_revert, reorg to a snapshot).
 */
export class ChainStore {
  private blocks: BlockSource;

  /** `first`: the number of the first block held: 0, or a fork's fork block (earlier ones are the remote's). */
  constructor(readonly first = 0n) {
    this.blocks = new MemoryBlocks(first);
  }

  /**
   * Hands the chain's blocks to `source` (a chain kept in a store, whose blocks the store holds):
   * the blocks appended so far must be in it already.
   */
  keepIn(source: BlockSource): void {
    this.blocks = source;
  }

  /** Whether the chain's blocks are kept by `source` (see keepIn). */
  keptIn(source: BlockSource): boolean {
    return this.blocks === source;
  }

  append(record: BlockRecord): void {
    const next = this.height + 1n;
    if (record.number !== next) throw new Error(`block ${record.number} appended at height ${next}`);
    this.blocks.append(record);
  }

  /** Drops every block above `height`. */
  truncate(height: bigint): void {
    if (height < this.height) this.blocks.truncate(height);
  }

  get head(): BlockRecord {
    const head = this.blocks.head;
    if (head === undefined) throw new Error("the chain has no genesis block");
    return head;
  }

  get height(): bigint {
    return this.blocks.head?.number ?? this.first - 1n;
  }

  byNumberOrUndefined(n: bigint): BlockRecord | undefined {
    return n < this.first || n > this.height ? undefined : this.blocks.at(n);
  }

  byHashOrUndefined(hash: string): BlockRecord | undefined {
    return this.blocks.byHash(hash.toLowerCase());
  }

  transaction(hash: string): MinedTransaction | undefined {
    return this.blocks.transaction(hash.toLowerCase());
  }

  /**
   * The blocks a logs query must read: those the log index names when the query names addresses
   * or topics, else every block of its range; ascending, clamped to the chain.
   */
  *logBlocks(filter: LogFilter): Iterable<BlockRecord> {
    const candidates = this.blocks.logCandidates(filter);
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
    for (let n = from < this.first ? this.first : from; n <= last; n++) yield this.blocks.at(n)!;
  }
}

/** The chain as read outside the engine: everything but appending and truncating. */
export type ChainView = Pick<ChainStore, "first" | "head" | "height" | "byNumberOrUndefined" | "byHashOrUndefined" | "transaction" | "range" | "logBlocks">;
