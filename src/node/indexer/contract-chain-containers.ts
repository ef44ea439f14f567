import type { BlockRecord } from "../../engine/chain";
import { hexToBytes } from "../../encoding";
import { Lru } from "../../storage/lru";
import { encodeProposerBlock, proposerBlockId } from "./proposer-block";
import type { KeptContainerIds } from "./stored-container-ids";

/**
 * The contract chain's accepted blocks as the reference node's consensus hands them to its
 * index and its IPC sockets (its "containers").
 *
 * On a local network of the reference node the first block after genesis is built before the
 * proposer VM activates: that container is the raw RLP block and its ID is the block's own
 * (the EVM block hash). Every later block is wrapped in an unsigned proposer block
 * (see `proposer-block.ts`) whose parent is the previous block's container ID, whose timestamp
 * is the block's, and whose P-chain height is 0 (the simulated platform chain has no validator
 * set for a proposer to pin); its ID is the proposer block's.
 *
 * Container IDs are remembered by EVM block hash, so a block mined again after `evm_revert`
 * wraps the right parent. Since each ID hashes its parent's, the ID of block n depends on every
 * block below it: with a `reader` of the chain's blocks by number, only the most recently used
 * IDs are remembered and a parent not among them is found by reading the chain down to a block
 * whose ID is known (or to block 1) and wrapping forward from there, so neither start-up nor
 * memory grows with the chain. With `kept` IDs (a node's data directory), an ID wrapped once is
 * read back instead, so the first block after a restart reads one entry, not the chain.
 */
export interface ContractChainContainer {
  readonly id: Uint8Array;
  readonly bytes: Uint8Array;
  /** The EVM block it carries. */
  readonly record: BlockRecord;
}

/** The chain's block at `number` (on the chain as it is now). */
export type ContractBlockReader = (number: bigint) => BlockRecord;

/** The block number of the last block accepted before the proposer VM wraps blocks. */
export const LAST_UNWRAPPED_BLOCK = 1n;

/** Container IDs remembered by default when the chain can be read back (each about 150 bytes). */
export const DEFAULT_REMEMBERED_IDS = 4096;

export class ContractChainContainers {
  /** Container ID (bytes) by EVM block hash (0x hex, lower case). */
  private readonly containerIds: Lru<string, Uint8Array>;

  /**
   * `existing`: blocks already on the chain (genesis first), so later blocks find their parent.
   * `reader`: the chain's blocks by number, to find a parent whose ID is not remembered; without
   * one, every ID is remembered.
   */
  constructor(
    existing: Iterable<BlockRecord>,
    private readonly reader?: ContractBlockReader,
    remembered = reader === undefined ? Number.MAX_SAFE_INTEGER : DEFAULT_REMEMBERED_IDS,
    private readonly kept?: KeptContainerIds,
  ) {
    this.containerIds = new Lru(remembered);
    for (const record of existing) this.containerOf(record);
  }

  /** Remembers that the block with EVM hash `hash` is carried by the container with ID `id` (as an index holding it knows). */
  remember(hash: string, id: Uint8Array): void {
    this.containerIds.set(hash.toLowerCase(), id);
  }

  /** The container of an accepted block (its parent must have been given before, or be readable). */
  containerOf(record: BlockRecord): ContractChainContainer {
    const rlp = record.block.serialize();
    if (record.number <= LAST_UNWRAPPED_BLOCK) {
      const id = hexToBytes(record.hash);
      this.remember(record.hash, id);
      return { id, bytes: rlp, record };
    }
    const parentHash = `0x${Buffer.from(record.block.header.parentHash).toString("hex")}`;
    const parentId = this.knownId(record.number - 1n, parentHash) ?? this.readParentId(record.number - 1n, parentHash);
    const bytes = encodeProposerBlock({
      parentId,
      timestamp: record.block.header.timestamp,
      pChainHeight: 0n,
      certificate: new Uint8Array(0),
      block: rlp,
      signature: new Uint8Array(0),
    });
    const id = proposerBlockId(bytes);
    this.remember(record.hash, id);
    this.kept?.keep(record.number, record.hash, id);
    return { id, bytes, record };
  }

  /** The ID of block `number` of EVM hash `hash` if it is remembered or kept (block 1's is its hash). */
  private knownId(number: bigint, hash: string): Uint8Array | undefined {
    const remembered = this.containerIds.get(hash.toLowerCase());
    if (remembered !== undefined || number <= LAST_UNWRAPPED_BLOCK) return remembered;
    const kept = this.kept?.idOf(number, hash);
    if (kept !== undefined) this.remember(hash, kept);
    return kept;
  }

  /** The container ID of block `number`, which must be the chain's block of hash `hash`, from the chain read back. */
  private readParentId(number: bigint, hash: string): Uint8Array {
    const reader = this.reader;
    if (reader === undefined) throw new Error(`block ${number + 1n} arrived before its parent ${hash}`);
    // Down to the lowest block whose parent's ID is not known, then forward: each finds its parent.
    let from = number;
    while (from > LAST_UNWRAPPED_BLOCK && this.knownId(from - 1n, reader(from - 1n).hash) === undefined) from--;
    let id: Uint8Array | undefined;
    for (let n = from; n <= number; n++) {
      const container = this.containerOf(reader(n));
      if (n === number && container.record.hash.toLowerCase() === hash) id = container.id;
    }
    if (id === undefined) throw new Error(`block ${number + 1n} arrived before its parent ${hash} (the chain's block ${number} is another)`);
    return id;
  }
}
