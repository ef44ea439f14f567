import type { DurableStore } from "../../storage";
import { encodeCb58, equalBytes } from "../../encoding";
import type { StoredUtxo } from "../../utxo/utxo-set";
import { type AliasWithNonce, decodePBlock, PTypeId, type PUnsignedTx } from "../codec";
import type { FeeStateAt } from "../fees";
import { type AcceptedBlock, acceptedBlockOf, acceptedTxOf, StoredPlatformBlocks } from "./platform-blocks";
import { PLATFORM_LAYOUT, PlatformChainRecords } from "./persistence";
import { type LoadedPlatformState, PlatformStateRecords, type PlatformStateHead } from "./state-records";

/*
 * Opening the platform chain on its store (persistence.ts has the layout): a fresh store gets the
 * genesis and the genesis state; a store of layout 2 gives its state and its head block, nothing
 * more; a store of layout 1 (blocks only, written by an earlier version) is migrated once: its
 * blocks are replayed, as start-up did, then their index entries and the state are written,
 * nothing deleted, the layout record last (a migration cut short runs again from the start).
 * A store of another genesis, of a layout this version does not know, or whose state does not
 * match its blocks is refused, naming why.
 */

/** What opening needs of the chain (a chain just made on its genesis, its blocks in memory). */
export interface PlatformStoreHost {
  readonly genesis: AcceptedBlock;
  /** The fee schedule's feeScheduleKey. */
  readonly feeSchedule: string;
  /** Accepts a stored block again (its effects on the chain, not on the atomic memory). */
  replay(height: bigint, acceptedAt: number, bytes: Uint8Array): void;
  /** The chain's state now, and its blocks (all in memory until the store is attached). */
  current(): { utxos: Iterable<StoredUtxo>; aliases: Iterable<AliasWithNonce>; head: PlatformStateHead; blocks: readonly AcceptedBlock[] };
  /** Takes the stored state as its own (its blocks are attached apart). */
  load(state: LoadedPlatformState): void;
  /** A fee state computed afresh under the chain's schedule, block by block. */
  freshFees(): { accept(tx: PUnsignedTx, time: bigint): void; feeState(): FeeStateAt };
}

export interface OpenedPlatformStore {
  records: PlatformChainRecords;
  state: PlatformStateRecords;
  blocks: StoredPlatformBlocks;
}

/** Blocks kept decoded besides the head when `--accepted-cache-size` does not say (as the contract chain's default). */
export const DEFAULT_PLATFORM_BLOCK_CACHE = 256;

/** Index entries are committed every this many blocks while a store of layout 1 is migrated. */
const MIGRATION_BATCH = 1000;

export async function openPlatformStore(store: DurableStore, host: PlatformStoreHost, cacheSize: number): Promise<OpenedPlatformStore> {
  const records = new PlatformChainRecords(store);
  const genesisId = host.genesis.id;
  const stored = await records.genesisId();
  if (stored === undefined) {
    records.putGenesis(genesisId);
    records.putLayout();
    const state = PlatformStateRecords.empty(records.stateStore());
    const { utxos, aliases, head } = host.current();
    state.writeAll(utxos, aliases, head);
    await records.commit();
    return { records, state, blocks: new StoredPlatformBlocks(records, host.genesis, host.genesis, cacheSize) };
  }
  if (!equalBytes(stored, genesisId)) {
    throw new RangeError(`the data directory holds a platform chain with genesis ${encodeCb58(stored)}, and this node's genesis is ${encodeCb58(genesisId)}: start with the same platform genesis, or use another --db-dir`);
  }
  const layout = await records.layout();
  if (layout === 1) return migrate(records, host, cacheSize);
  if (layout !== PLATFORM_LAYOUT) {
    throw new RangeError(`the data directory holds a platform chain in layout ${layout ?? "(unreadable)"}, which this version does not know (it reads layouts 1 and ${PLATFORM_LAYOUT}): start it with the version that wrote it, or use another --db-dir`);
  }
  const { records: state, state: loaded } = await PlatformStateRecords.load(records.stateStore());
  const head = headBlock(records, host, loaded.head);
  if (loaded.head.feeSchedule !== host.feeSchedule) {
    // Another fee schedule than the state was computed under: its fee state is the blocks' again, as a replay makes it.
    loaded.head = { ...loaded.head, fees: await replayFees(records, host), feeSchedule: host.feeSchedule };
    state.putHead(loaded.head);
    await records.commit();
  }
  host.load(loaded);
  return { records, state, blocks: new StoredPlatformBlocks(records, host.genesis, head, cacheSize) };
}

/** The block the stored state is at, checked to be the stored chain's last. */
function headBlock(records: PlatformChainRecords, host: PlatformStoreHost, head: PlatformStateHead): AcceptedBlock {
  const refuse = (why: string): never => {
    throw new RangeError(`the data directory's platform chain cannot be opened: its state is at block ${head.height} (${encodeCb58(head.blockId)}), and ${why}; it was changed by another version or is damaged: use another --db-dir`);
  };
  let block = host.genesis;
  if (head.height > 0n) {
    const stored = records.readBlock(head.height);
    if (stored === undefined) return refuse("that block is not stored");
    block = acceptedBlockOf(stored.bytes, stored.acceptedAt);
  }
  if (!equalBytes(block.id, head.blockId) || block.height !== head.height) refuse(`the block stored at that height is ${encodeCb58(block.id)}`);
  if (records.readBlock(head.height + 1n) !== undefined) refuse(`block ${head.height + 1n} is stored after it`);
  return block;
}

/** Layout 1 to 2: the blocks replayed, then their index entries and the state written. */
async function migrate(records: PlatformChainRecords, host: PlatformStoreHost, cacheSize: number): Promise<OpenedPlatformStore> {
  for await (const { height, acceptedAt, bytes } of records.blocks()) host.replay(height, acceptedAt, bytes);
  const { utxos, aliases, head, blocks } = host.current();
  for (const block of blocks) {
    const tx = block.height === 0n ? undefined : acceptedTxOf(block);
    if (tx !== undefined) records.putIndexes(block.height, block.id, tx.id);
    if (block.height % BigInt(MIGRATION_BATCH) === 0n) await records.commit();
  }
  // A migration cut short may have left state records: they are replaced.
  const stateStore = records.stateStore();
  for await (const [key] of stateStore.entries()) stateStore.del(key);
  const state = PlatformStateRecords.empty(stateStore);
  state.writeAll(utxos, aliases, head);
  records.putLayout();
  await records.commit();
  const last = blocks[blocks.length - 1]!;
  return { records, state, blocks: new StoredPlatformBlocks(records, host.genesis, last, cacheSize) };
}

/** The fee state the stored blocks leave under the chain's schedule (their transactions' gas at their times). */
async function replayFees(records: PlatformChainRecords, host: PlatformStoreHost): Promise<FeeStateAt> {
  const fees = host.freshFees();
  for await (const { bytes } of records.blocks()) {
    const block = decodePBlock(bytes);
    if (block.typeId === PTypeId.BanffStandardBlock) for (const signed of block.txs) fees.accept(signed.unsignedTx, block.time);
  }
  const { state, timestamp } = fees.feeState();
  return { state, timestamp };
}
