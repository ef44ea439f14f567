/**
 * The contract chain in the durable store (`EngineOptions.store`), and the engine rebuilt from it.
 *
 * Under the engine's store:
 *   t/<node key>   the state tries' nodes and contract code (DurableTrieDB), never pruned
 *   b/<height>     each block's record (record-codec.ts), height as 16 hex digits so keys sort by height
 *   head           chain ID, rules, head height, head state root (it differs from the head block's
 *                  after a direct edit), and the clock's offset (evm_increaseTime)
 *
 * Every change is staged and then committed as one batch before the operation that made it is
 * answered: a sealed block with its trie nodes and the new head, an edit, a revert (which also
 * deletes the blocks it dropped), a reset (which deletes everything and writes a new genesis).
 * Transactions are found by hash in the blocks, rebuilt in memory on load, so nothing is stored
 * per transaction hash. The pending pool (automine off) is not persisted: its transactions were
 * answered as pending, not as accepted, and a restarted node starts with an empty pool, as a
 * restarted reference node does with transactions it never gossiped.
 */
import { bigIntToUnpaddedBytes, bytesToBigInt } from "@ethereumjs/util";
import { RLP } from "@ethereumjs/rlp";
import type { DurableStore } from "../../storage";
import type { BlockTime } from "../block-time";
import type { BlockRecord } from "../chain";
import type { ChainState } from "../chain-state";
import { StoredChainError } from "../errors";
import type { FlatKeyMapDB } from "../node-cache-trie";
import type { ResolvedEngineOptions } from "../options";
import { EMPTY_MULTICOIN } from "./multicoin-diff";
import { decodeBlockRecord, encodeBlockRecord } from "./record-codec";
import { DurableTrieDB } from "./trie-db";

const TRIE_PREFIX = "t/";
const BLOCK_PREFIX = "b/";
const HEAD_KEY = "head";

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** A new trie node database over the store (one per fresh state: at creation and on hardhat_reset). */
export function durableTrieDatabase(store: DurableStore): () => FlatKeyMapDB {
  return () => new DurableTrieDB(store.namespace(TRIE_PREFIX));
}

interface HeadRecord {
  chainId: number;
  hardfork: string;
  height: bigint;
  stateRoot: Uint8Array;
  timeOffset: number;
}

export class ChainPersistence {
  constructor(
    private readonly store: DurableStore,
    private readonly state: ChainState,
    private readonly time: BlockTime,
    private readonly settings: Readonly<ResolvedEngineOptions>,
  ) {}

  /** Whether the store holds a chain to open (else the engine makes a genesis block). */
  async holdsChain(): Promise<boolean> {
    return (await this.store.get(HEAD_KEY)) !== undefined;
  }

  /**
   * Writes a block just appended to the chain, with the trie nodes its state wrote and the new
   * head, before its transactions are answered. Whatever other domains staged for it (an atomic
   * transaction's shared memory, the index from a block listener) lands in the same batch.
   */
  saveBlock(record: BlockRecord): Promise<void> {
    this.stageBlock(record);
    this.stageHead(record.block.header.stateRoot);
    return this.store.commit();
  }

  /** Writes the head after a direct edit of its state or an evm_revert that dropped blocks above it (up to `droppedTo`). */
  async saveHead(droppedTo?: bigint): Promise<void> {
    const head = this.state.head;
    for (let n = head.number + 1n; droppedTo !== undefined && n <= droppedTo; n++) this.store.del(blockKey(n));
    // An edit changes the head block's multi-coin record too (ChainState.setHeadMultiCoin).
    this.stageBlock(head);
    this.stageHead(await this.state.stateManager.getStateRoot());
    await this.store.commit();
  }

  /**
   * Commits whatever is staged in the store (by other domains too): after hardhat_reset, the
   * snapshot companions (a local network's exchange chain) go back to their start after the new
   * genesis block is committed.
   */
  commit(): Promise<void> {
    return this.store.commit();
  }

  /** Stages the deletion of everything the store holds of the chain (hardhat_reset; the new genesis follows in the same commit). */
  async stageClear(): Promise<void> {
    for await (const [key] of this.store.entries()) this.store.del(key);
  }

  /**
   * Rebuilds the chain from the store: every block record, then the live state at the head's
   * state root (its trie nodes are read from the store as they are needed) with the head's
   * multi-coin balances, and the clock's offset.
   */
  async load(): Promise<void> {
    const bytes = await this.store.get(HEAD_KEY);
    if (bytes === undefined) throw new StoredChainError("the store holds no chain");
    const head = decodeHead(bytes);
    if (head.chainId !== this.settings.chainId || head.hardfork !== this.settings.hardfork) {
      throw new StoredChainError(
        `the stored chain has chain ID ${head.chainId} under ${head.hardfork} rules; this engine runs chain ID ${this.settings.chainId} under ${this.settings.hardfork} rules`,
      );
    }
    await this.state.renew();
    const chain = this.state.chain;
    let parent = EMPTY_MULTICOIN;
    for await (const [key, value] of this.store.entries(BLOCK_PREFIX)) {
      const record = decodeBlockRecord(value, this.state.common, parent);
      if (key !== blockKey(record.number) || record.number !== chain.height + 1n) {
        throw new StoredChainError(`the stored chain is damaged: block ${record.number} is stored under ${key} after block ${chain.height}`);
      }
      chain.append(record);
      parent = record.multiCoin;
    }
    if (chain.height !== head.height) {
      throw new StoredChainError(`the stored chain is damaged: its head is block ${head.height}, and blocks are stored up to ${chain.height}`);
    }
    const stateManager = this.state.stateManager;
    await stateManager.setStateRoot(head.stateRoot);
    stateManager.multiCoin.restore(chain.head.multiCoin);
    this.time.restore({ timeOffset: head.timeOffset, nextTimestamp: undefined, nextBaseFee: undefined });
  }

  private stageBlock(record: BlockRecord): void {
    const parent = this.state.chain.byNumberOrUndefined(record.number - 1n);
    this.store.put(blockKey(record.number), encodeBlockRecord(record, parent?.multiCoin ?? EMPTY_MULTICOIN));
  }

  private stageHead(stateRoot: Uint8Array): void {
    const head: HeadRecord = {
      chainId: this.settings.chainId,
      hardfork: this.settings.hardfork,
      height: this.state.chain.height,
      stateRoot,
      timeOffset: this.time.capture().timeOffset,
    };
    this.store.put(HEAD_KEY, encodeHead(head));
  }
}

function blockKey(height: bigint): string {
  return BLOCK_PREFIX + height.toString(16).padStart(16, "0");
}

function encodeHead(head: HeadRecord): Uint8Array {
  return RLP.encode([
    bigIntToUnpaddedBytes(BigInt(head.chainId)),
    utf8.encode(head.hardfork),
    bigIntToUnpaddedBytes(head.height),
    head.stateRoot,
    // The offset can be negative (a block mined at a past timestamp): kept as decimal text.
    utf8.encode(String(head.timeOffset)),
  ]);
}

function decodeHead(bytes: Uint8Array): HeadRecord {
  const fields = RLP.decode(bytes);
  if (!Array.isArray(fields) || fields.length !== 5 || !fields.every((field) => field instanceof Uint8Array)) {
    throw new StoredChainError("the stored chain's head record is damaged");
  }
  const [chainId, hardfork, height, stateRoot, timeOffset] = fields as Uint8Array[];
  const offset = Number(fromUtf8.decode(timeOffset));
  if (!Number.isSafeInteger(offset) || stateRoot!.length !== 32) throw new StoredChainError("the stored chain's head record is damaged");
  return { chainId: Number(bytesToBigInt(chainId!)), hardfork: fromUtf8.decode(hardfork), height: bytesToBigInt(height!), stateRoot: stateRoot!, timeOffset: offset };
}
