/**
 * The blocks of a chain kept in a store: the head and the most recently read blocks in memory,
 * any other block read from the store when asked for, found by number, by hash (`h/`) or by a
 * transaction's hash (`x/`), and the log index in the store too (stored-log-index.ts). So the
 * chain's memory does not grow with its length, and start-up reads the head, not every block.
 *
 * Whatever a block adds to the store (its record and its entries in the indexes) is staged by
 * `stage` in the commit that makes the block durable, and taken off by `unstage` when the
 * block is dropped (evm_revert).
 */
import type { Common } from "@ethereumjs/common";
import { bigIntToUnpaddedBytes, bytesToBigInt } from "@ethereumjs/util";
import { RLP } from "@ethereumjs/rlp";
import type { DurableStore } from "../../storage";
import type { BlockRecord, BlockSource, MinedTransaction } from "../chain";
import { StoredChainError } from "../errors";
import type { LogFilter } from "../types";
import { DEFAULT_BLOCK_CACHE } from "./cache-sizes";
import { Lru } from "./lru";
import { MultiCoinLedger } from "./multicoin-ledger";
import { EMPTY_MULTICOIN } from "./multicoin-diff";
import { decodeBlockRecord, encodeBlockRecord, storedLastChange } from "./record-codec";
import { blockHashKey, blockKey, transactionKey } from "./stored-layout";
import { StoredLogIndex } from "./stored-log-index";

export class StoredBlocks implements BlockSource {
  private top: BlockRecord | undefined;
  private readonly cache: Lru<bigint, BlockRecord>;
  private readonly ledger: MultiCoinLedger;
  private readonly logIndex: StoredLogIndex;
  /** Each block's last multi-coin changing block (see MultiCoinLedger), once known. */
  private readonly lastChanges = new WeakMap<BlockRecord, { height: bigint | undefined }>();

  constructor(
    private readonly store: DurableStore,
    private readonly common: Common,
    cacheSize = DEFAULT_BLOCK_CACHE,
  ) {
    this.cache = new Lru(cacheSize);
    this.ledger = new MultiCoinLedger(store);
    this.logIndex = new StoredLogIndex(store);
  }

  /** The blocks of a stored chain whose head is at `height`: the head is read now, and must be there. */
  static open(store: DurableStore, common: Common, height: bigint, cacheSize?: number): StoredBlocks {
    const blocks = new StoredBlocks(store, common, cacheSize);
    const head = blocks.read(height);
    if (head === undefined) throw new StoredChainError(`the stored chain is damaged: its head is block ${height}, which is not stored`);
    if (store.getSync(blockKey(height + 1n)) !== undefined) throw new StoredChainError(`the stored chain is damaged: its head is block ${height}, and block ${height + 1n} is stored`);
    blocks.top = head;
    return blocks;
  }

  get head(): BlockRecord | undefined {
    return this.top;
  }

  append(record: BlockRecord): void {
    this.top = record;
    this.cache.set(record.number, record);
  }

  truncate(height: bigint): void {
    const head = this.at(height);
    if (head === undefined) throw new Error(`no block ${height} to truncate to`);
    this.cache.deleteWhere((n) => n > height);
    this.top = head;
  }

  at(n: bigint): BlockRecord | undefined {
    const top = this.top;
    if (top === undefined || n > top.number) return undefined;
    if (n === top.number) return top;
    const cached = this.cache.get(n);
    if (cached !== undefined) return cached;
    const record = this.read(n);
    if (record !== undefined) this.cache.set(n, record);
    return record;
  }

  byHash(hash: string): BlockRecord | undefined {
    if (this.top?.hash === hash) return this.top;
    const bytes = hash.length === 66 ? this.store.getSync(blockHashKey(hash)) : undefined;
    const record = bytes === undefined ? undefined : this.at(bytesToBigInt(bytes));
    return record?.hash === hash ? record : undefined;
  }

  transaction(hash: string): MinedTransaction | undefined {
    const inHead = this.top?.transactions.find((mined) => mined.hash === hash);
    if (inHead !== undefined) return inHead;
    const bytes = hash.length === 66 ? this.store.getSync(transactionKey(hash)) : undefined;
    if (bytes === undefined) return undefined;
    const [height, index] = RLP.decode(bytes) as Uint8Array[];
    const mined = this.at(bytesToBigInt(height!))?.transactions[Number(bytesToBigInt(index!))];
    return mined?.hash === hash ? mined : undefined;
  }

  logCandidates(filter: LogFilter): readonly number[] | undefined {
    return this.logIndex.candidates(filter, this.top?.number ?? -1n);
  }

  /** Stages `record` (appended, or the head after an edit) with its entries in the indexes, on `parent`. */
  stage(record: BlockRecord, parent: BlockRecord | undefined): void {
    const parentLastChange = parent === undefined ? undefined : this.lastChangeOf(parent);
    const lastChange = this.ledger.stage(record.number, parentLastChange, parent?.multiCoin ?? EMPTY_MULTICOIN, record.multiCoin);
    this.lastChanges.set(record, { height: lastChange });
    this.store.put(blockKey(record.number), encodeBlockRecord(record, parent?.multiCoin ?? EMPTY_MULTICOIN, { height: lastChange }));
    this.store.put(blockHashKey(record.hash), bigIntToUnpaddedBytes(record.number));
    record.transactions.forEach((mined, index) => this.store.put(transactionKey(mined.hash), RLP.encode([bigIntToUnpaddedBytes(record.number), bigIntToUnpaddedBytes(BigInt(index))])));
    this.logIndex.add(record);
  }

  /** Stages the deletion of the stored block at `height`, dropped from the chain, and of its entries in the indexes. */
  unstage(height: bigint): void {
    const record = this.read(height);
    if (record === undefined) return;
    this.store.del(blockKey(height));
    this.store.del(blockHashKey(record.hash));
    for (const mined of record.transactions) this.store.del(transactionKey(mined.hash));
    this.ledger.drop(height);
    this.logIndex.remove(record);
  }

  /** The stored block at `n`, decoded, or undefined. */
  private read(n: bigint): BlockRecord | undefined {
    const bytes = this.store.getSync(blockKey(n));
    if (bytes === undefined) return undefined;
    let lastChange: { height: bigint | undefined } | undefined;
    const record = decodeBlockRecord(bytes, this.common, (stored) => {
      lastChange = stored.lastChange;
      if (lastChange === undefined) throw new StoredChainError(`the stored chain is damaged: block ${n}'s record is of layout 1 in a store of layout 2`);
      return this.ledger.snapshotAt(lastChange.height);
    });
    if (record.number !== n) throw new StoredChainError(`the stored chain is damaged: block ${record.number} is stored as block ${n}`);
    this.lastChanges.set(record, lastChange!);
    return record;
  }

  private lastChangeOf(record: BlockRecord): bigint | undefined {
    const known = this.lastChanges.get(record);
    if (known !== undefined) return known.height;
    const bytes = this.store.getSync(blockKey(record.number));
    const stored = bytes === undefined ? undefined : storedLastChange(bytes);
    if (stored === undefined) throw new StoredChainError(`the stored chain is damaged: block ${record.number}, the parent of a new block, is not stored in layout 2`);
    return stored.height;
  }
}
