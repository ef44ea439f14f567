/**
 * The contract chain in the durable store (`EngineOptions.store`), and the engine reopened on it.
 * The keys are listed in stored-layout.ts: the head record, the state tries' nodes (never
 * pruned), each block's record, and the indexes a restarted chain answers from without reading
 * every block (blocks and transactions by hash, multi-coin balances, logs).
 *
 * Every change is staged and then committed as one batch before the operation that made it is
 * answered: a sealed block with its trie nodes, its index entries and the new head, an edit, a
 * revert (which also deletes the blocks it dropped and their entries), a reset (which deletes
 * everything and writes a new genesis). Opening reads the head record and the head block; other
 * blocks are read when asked for (StoredBlocks), a store of layout 1 is migrated first. The
 * pending pool (automine off) is not persisted: its transactions were answered as pending, not
 * as accepted, and a restarted node starts with an empty pool, as a restarted reference node
 * does with transactions it never gossiped.
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
import { resolveCacheSizes, type StoreCacheSizes } from "./cache-sizes";
import { migrateLayout } from "./layout-migration";
import { StoredBlocks } from "./stored-blocks";
import { CURRENT_LAYOUT, HEAD_KEY, LAYOUT_KEY, TRIE_PREFIX } from "./stored-layout";
import { DurableTrieDB } from "./trie-db";

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** A new trie node database over the store (one per fresh state: at creation and on hardhat_reset). */
export function durableTrieDatabase(store: DurableStore, caches?: StoreCacheSizes): () => FlatKeyMapDB {
  const limit = resolveCacheSizes(caches).trieNodesMb * 1024 * 1024;
  return () => new DurableTrieDB(store.namespace(TRIE_PREFIX), undefined, limit);
}

interface HeadRecord {
  chainId: number;
  hardfork: string;
  height: bigint;
  stateRoot: Uint8Array;
  timeOffset: number;
}

export class ChainPersistence {
  /** The chain's blocks as the store keeps them (set when the chain is opened or its first block saved). */
  private blocks: StoredBlocks | undefined;
  private readonly blockCacheSize: number;

  constructor(
    private readonly store: DurableStore,
    private readonly state: ChainState,
    private readonly time: BlockTime,
    private readonly settings: Readonly<ResolvedEngineOptions>,
  ) {
    this.blockCacheSize = resolveCacheSizes(settings.storeCaches).blocks;
  }

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
    // A new chain (at creation, after hardhat_reset) hands its blocks to the store with its first.
    const chain = this.state.chain;
    if (this.blocks === undefined || !chain.keptIn(this.blocks)) {
      if (chain.height !== chain.first) throw new Error(`a chain is kept in the store from its first block, not from block ${chain.height}`);
      this.blocks = new StoredBlocks(this.store, this.state.common, this.blockCacheSize);
      this.blocks.append(record);
      chain.keepIn(this.blocks);
    }
    this.stageBlock(record);
    this.stageHead(record.block.header.stateRoot);
    return this.store.commit();
  }

  /** Writes the head after a direct edit of its state or an evm_revert that dropped blocks above it (up to `droppedTo`). */
  async saveHead(droppedTo?: bigint): Promise<void> {
    const head = this.state.head;
    // From the top: a dropped block's balances may rest on the entries of those below it.
    for (let n = droppedTo ?? head.number; n > head.number; n--) this.storedBlocks().unstage(n);
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
   * Opens the chain the store holds (migrated first when it is of layout 1): its head block, the
   * live state at the head's state root (its trie nodes are read from the store as they are
   * needed) with the head's multi-coin balances, and the clock's offset. Other blocks are read
   * when asked for.
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
    await this.openLayout(head.height);
    await this.state.renew();
    const chain = this.state.chain;
    this.blocks = StoredBlocks.open(this.store, this.state.common, head.height, this.blockCacheSize);
    chain.keepIn(this.blocks);
    const stateManager = this.state.stateManager;
    await stateManager.setStateRoot(head.stateRoot);
    stateManager.multiCoin.restore(chain.head.multiCoin);
    this.time.restore({ timeOffset: head.timeOffset, nextTimestamp: undefined, nextBaseFee: undefined });
  }

  /**
   * Checks the store's layout: the current one goes on, layout 1 (no `layout` record) is
   * migrated, and a layout this build does not know is refused, its data untouched.
   */
  private async openLayout(height: bigint): Promise<void> {
    const stored = await this.store.get(LAYOUT_KEY);
    const layout = stored === undefined ? 1 : Number(fromUtf8.decode(stored));
    if (layout === CURRENT_LAYOUT) return;
    if (layout !== 1) {
      throw new StoredChainError(`the stored chain is in layout ${fromUtf8.decode(stored!)}, and this nativekit reads layouts 1 and ${CURRENT_LAYOUT}: open it with the nativekit that wrote it`);
    }
    await migrateLayout(this.store, this.state.common, height);
    this.store.put(LAYOUT_KEY, utf8.encode(String(CURRENT_LAYOUT)));
    await this.store.commit();
  }

  private storedBlocks(): StoredBlocks {
    if (this.blocks === undefined) throw new Error("the chain is not kept in the store yet");
    return this.blocks;
  }

  private stageBlock(record: BlockRecord): void {
    const parent = this.state.chain.byNumberOrUndefined(record.number - 1n);
    this.storedBlocks().stage(record, parent);
    // A new chain is written in the current layout from its first block.
    if (parent === undefined) this.store.put(LAYOUT_KEY, utf8.encode(String(CURRENT_LAYOUT)));
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
