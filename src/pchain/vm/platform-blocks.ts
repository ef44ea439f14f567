import { sha256 } from "@noble/hashes/sha2.js";
import { Lru } from "../../storage/lru";
import { decodePBlock, encodePSignedTx, type PBlock, PTypeId, type PSignedTx } from "../codec";
import type { PlatformChainRecords } from "./persistence";

/*
 * The platform chain's accepted blocks and the transactions they hold, as the chain reads them:
 * all in memory (a chain without a store), or in the store (PlatformChainRecords) with the head,
 * the genesis and the most recently read blocks in memory, so that neither start-up nor memory
 * grows with the chain. Either way `append` takes a block the chain accepted (the stored one
 * stages its records, committed with the state it changed) and `capture` returns to a moment.
 */

export interface AcceptedBlock {
  id: Uint8Array;
  block: PBlock;
  bytes: Uint8Array;
  height: bigint;
  /** Acceptance time, Unix milliseconds. */
  acceptedAt: number;
}

export interface AcceptedPTx {
  id: Uint8Array;
  tx: PSignedTx;
  bytes: Uint8Array;
  blockId: Uint8Array;
  height: bigint;
}

export interface PlatformBlocks {
  /** The last accepted block. */
  readonly head: AcceptedBlock;
  at(height: bigint): AcceptedBlock | undefined;
  byId(id: Uint8Array): AcceptedBlock | undefined;
  tx(id: Uint8Array): AcceptedPTx | undefined;
  hasTx(id: Uint8Array): boolean;
  /** Adds `block` (the next one), which accepted `tx`. */
  append(block: AcceptedBlock, tx: AcceptedPTx): void;
  /** Every block, genesis first (read from the store when stored: for an index catching up, not for answers). */
  all(): readonly AcceptedBlock[];
  /** The blocks as they are now: the returned function goes back to them, as often as it is called. */
  capture(): () => void;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** A block as the chain holds it, from its bytes. */
export function acceptedBlockOf(bytes: Uint8Array, acceptedAt: number): AcceptedBlock {
  const block = decodePBlock(bytes);
  return { id: sha256(bytes), block, bytes, height: block.height, acceptedAt };
}

/** The transaction a standard block of one transaction accepted (as a replay of the block reads it). */
export function acceptedTxOf(block: AcceptedBlock): AcceptedPTx | undefined {
  const signed = block.block.typeId === PTypeId.BanffStandardBlock ? block.block.txs[0] : undefined;
  if (signed === undefined) return undefined;
  const bytes = encodePSignedTx(signed);
  return { id: sha256(bytes), tx: signed, bytes, blockId: block.id, height: block.height };
}

export class MemoryPlatformBlocks implements PlatformBlocks {
  private readonly blocks: AcceptedBlock[];
  private readonly blocksById = new Map<string, AcceptedBlock>();
  private readonly txs = new Map<string, AcceptedPTx>();

  constructor(genesis: AcceptedBlock) {
    this.blocks = [genesis];
    this.blocksById.set(hex(genesis.id), genesis);
  }

  get head(): AcceptedBlock {
    return this.blocks[this.blocks.length - 1]!;
  }

  at(height: bigint): AcceptedBlock | undefined {
    return height < 0n || height >= BigInt(this.blocks.length) ? undefined : this.blocks[Number(height)];
  }

  byId(id: Uint8Array): AcceptedBlock | undefined {
    return this.blocksById.get(hex(id));
  }

  tx(id: Uint8Array): AcceptedPTx | undefined {
    return this.txs.get(hex(id));
  }

  hasTx(id: Uint8Array): boolean {
    return this.txs.has(hex(id));
  }

  append(block: AcceptedBlock, tx: AcceptedPTx): void {
    this.blocks.push(block);
    this.blocksById.set(hex(block.id), block);
    this.txs.set(hex(tx.id), tx);
  }

  all(): readonly AcceptedBlock[] {
    return this.blocks;
  }

  capture(): () => void {
    const length = this.blocks.length;
    const blocks = [...this.blocks];
    const txs = new Map(this.txs);
    return () => {
      for (const dropped of this.blocks.slice(length)) this.blocksById.delete(hex(dropped.id));
      this.blocks.length = 0;
      this.blocks.push(...blocks);
      for (const block of blocks) this.blocksById.set(hex(block.id), block);
      this.txs.clear();
      for (const [key, tx] of txs) this.txs.set(key, tx);
    };
  }
}

/**
 * The blocks of a chain in its store. A block is read by height (`b/`), by ID through `i/` and a
 * transaction through `t/` (both give a height); what was read stays in an LRU of `cacheSize`
 * blocks. The genesis is the chain's own (not stored) and the head stays in memory.
 */
export class StoredPlatformBlocks implements PlatformBlocks {
  private top: AcceptedBlock;
  private readonly cache: Lru<bigint, AcceptedBlock>;

  constructor(
    private readonly records: PlatformChainRecords,
    private readonly genesis: AcceptedBlock,
    head: AcceptedBlock,
    cacheSize: number,
  ) {
    this.top = head;
    this.cache = new Lru(cacheSize);
  }

  get head(): AcceptedBlock {
    return this.top;
  }

  at(height: bigint): AcceptedBlock | undefined {
    if (height < 0n || height > this.top.height) return undefined;
    if (height === this.top.height) return this.top;
    if (height === 0n) return this.genesis;
    const cached = this.cache.get(height);
    if (cached !== undefined) return cached;
    const stored = this.records.readBlock(height);
    if (stored === undefined) throw new RangeError(`the stored platform chain is damaged: block ${height}, below its head ${this.top.height}, is not stored`);
    const block = acceptedBlockOf(stored.bytes, stored.acceptedAt);
    if (block.height !== height) throw new RangeError(`the stored platform chain is damaged: block ${block.height} is stored as block ${height}`);
    this.cache.set(height, block);
    return block;
  }

  byId(id: Uint8Array): AcceptedBlock | undefined {
    if (id.length !== 32) return undefined;
    const height = this.records.blockHeight(id);
    const block = height === undefined ? undefined : this.at(height);
    return block !== undefined && hex(block.id) === hex(id) ? block : undefined;
  }

  tx(id: Uint8Array): AcceptedPTx | undefined {
    if (id.length !== 32) return undefined;
    const height = this.records.txHeight(id);
    const block = height === undefined ? undefined : this.at(height);
    const tx = block === undefined ? undefined : acceptedTxOf(block);
    return tx !== undefined && hex(tx.id) === hex(id) ? tx : undefined;
  }

  hasTx(id: Uint8Array): boolean {
    return this.tx(id) !== undefined;
  }

  append(block: AcceptedBlock, tx: AcceptedPTx): void {
    this.records.putBlock(block.height, block.acceptedAt, block.bytes);
    this.records.putIndexes(block.height, block.id, tx.id);
    this.cache.set(this.top.height, this.top);
    this.top = block;
  }

  all(): readonly AcceptedBlock[] {
    const blocks: AcceptedBlock[] = [];
    for (let height = 0n; height <= this.top.height; height++) blocks.push(this.at(height)!);
    return blocks;
  }

  /**
   * A return stages the deletion of the blocks accepted since (and of their index entries).
   * The blocks up to the captured head are never changed meanwhile: a return to a moment with
   * a lower head (evm_revert to an earlier snapshot) consumes every later moment.
   */
  capture(): () => void {
    const head = this.top;
    return () => {
      for (let height = this.top.height; height > head.height; height--) {
        const dropped = this.at(height)!;
        const tx = acceptedTxOf(dropped);
        this.records.delBlock(height, dropped.id, tx?.id);
      }
      this.cache.deleteWhere((height) => height >= head.height);
      this.top = head;
    };
  }
}
