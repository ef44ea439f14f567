import type { BlockRecord } from "../../engine/chain";
import { hexToBytes } from "../../encoding";
import { encodeProposerBlock, proposerBlockId } from "./proposer-block";

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
 * wraps the right parent.
 */
export interface ContractChainContainer {
  readonly id: Uint8Array;
  readonly bytes: Uint8Array;
  /** The EVM block it carries. */
  readonly record: BlockRecord;
}

/** The block number of the last block accepted before the proposer VM wraps blocks. */
const LAST_UNWRAPPED_BLOCK = 1n;

export class ContractChainContainers {
  /** Container ID (bytes) by EVM block hash (0x hex, lower case). */
  private readonly containerIds = new Map<string, Uint8Array>();

  /** `existing`: the blocks already on the chain (genesis first), so later blocks find their parent. */
  constructor(existing: Iterable<BlockRecord>) {
    for (const record of existing) this.containerOf(record);
  }

  /** The container of an accepted block (its parent must have been given before). */
  containerOf(record: BlockRecord): ContractChainContainer {
    const rlp = record.block.serialize();
    if (record.number <= LAST_UNWRAPPED_BLOCK) {
      const id = hexToBytes(record.hash);
      this.containerIds.set(record.hash.toLowerCase(), id);
      return { id, bytes: rlp, record };
    }
    const parentHash = `0x${Buffer.from(record.block.header.parentHash).toString("hex")}`;
    const parentId = this.containerIds.get(parentHash);
    if (parentId === undefined) throw new Error(`block ${record.number} arrived before its parent ${parentHash}`);
    const bytes = encodeProposerBlock({
      parentId,
      timestamp: record.block.header.timestamp,
      pChainHeight: 0n,
      certificate: new Uint8Array(0),
      block: rlp,
      signature: new Uint8Array(0),
    });
    const id = proposerBlockId(bytes);
    this.containerIds.set(record.hash.toLowerCase(), id);
    return { id, bytes, record };
  }
}
