import type { DurableStore } from "../../storage";

/**
 * The platform chain in the node's data directory ("p/" namespace), layout 2:
 *
 *   genesis              -> the genesis block's ID (a store of another genesis is refused)
 *   layout               -> "2"; absent in a store of layout 1, migrated at its first open
 *   b/<height, 16 hex>   -> acceptance time (Unix ms, 8 bytes big-endian) ‖ block bytes
 *   i/<block ID hex>     -> the block's height (8 bytes big-endian)
 *   t/<tx ID hex>        -> the height of the block that accepted the transaction
 *   s/...                -> the state after the last block (state-records.ts): UTXOs, aliases, head
 *
 * A block's records, its index entries and the state it leaves are staged together as it is
 * accepted; `PlatformChain.issue` commits them (with whatever the atomic memory staged for them)
 * before the transaction is answered. So start-up reads the state and the head block, and any
 * other block is read when asked for. Layout 1 held only `genesis` and `b/`: start-up replayed
 * every block.
 */
export const PLATFORM_LAYOUT = 2;
const LAYOUT_KEY = "layout";

const heightBytes = (height: bigint): Uint8Array => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, height, false);
  return bytes;
};
const readUint64 = (bytes: Uint8Array): bigint => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0, false);
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

export class PlatformChainRecords {
  constructor(private readonly store: DurableStore) {}

  static blockKey(height: bigint): string {
    return `b/${height.toString(16).padStart(16, "0")}`;
  }

  /** The namespace of the chain's state records. */
  stateStore(): DurableStore {
    return this.store.namespace("s/");
  }

  async genesisId(): Promise<Uint8Array | undefined> {
    return this.store.get("genesis");
  }

  putGenesis(id: Uint8Array): void {
    this.store.put("genesis", id);
  }

  /** The layout the store says it is in: 1 when it does not say, undefined when it says something else than a layout number. */
  async layout(): Promise<number | undefined> {
    const bytes = await this.store.get(LAYOUT_KEY);
    if (bytes === undefined) return 1;
    const text = new TextDecoder().decode(bytes);
    return /^[1-9][0-9]{0,5}$/.test(text) ? Number(text) : undefined;
  }

  putLayout(): void {
    this.store.put(LAYOUT_KEY, new TextEncoder().encode(String(PLATFORM_LAYOUT)));
  }

  putBlock(height: bigint, acceptedAt: number, bytes: Uint8Array): void {
    const record = new Uint8Array(8 + bytes.length);
    new DataView(record.buffer).setBigUint64(0, BigInt(acceptedAt), false);
    record.set(bytes, 8);
    this.store.put(PlatformChainRecords.blockKey(height), record);
  }

  /** The index entries of the block at `height`: its ID and its transaction's. */
  putIndexes(height: bigint, blockId: Uint8Array, txId: Uint8Array): void {
    this.store.put(`i/${hex(blockId)}`, heightBytes(height));
    this.store.put(`t/${hex(txId)}`, heightBytes(height));
  }

  /** Stages the deletion of the block at `height` (and of its index entries, when their IDs are given). */
  delBlock(height: bigint, blockId?: Uint8Array, txId?: Uint8Array): void {
    this.store.del(PlatformChainRecords.blockKey(height));
    if (blockId !== undefined) this.store.del(`i/${hex(blockId)}`);
    if (txId !== undefined) this.store.del(`t/${hex(txId)}`);
  }

  /** The stored block at `height`, read now. */
  readBlock(height: bigint): { acceptedAt: number; bytes: Uint8Array } | undefined {
    const value = this.store.getSync(PlatformChainRecords.blockKey(height));
    return value === undefined ? undefined : splitBlockRecord(value);
  }

  blockHeight(blockId: Uint8Array): bigint | undefined {
    const value = this.store.getSync(`i/${hex(blockId)}`);
    return value?.length === 8 ? readUint64(value) : undefined;
  }

  txHeight(txId: Uint8Array): bigint | undefined {
    const value = this.store.getSync(`t/${hex(txId)}`);
    return value?.length === 8 ? readUint64(value) : undefined;
  }

  /** The stored blocks after genesis, in height order. */
  async *blocks(): AsyncIterable<{ height: bigint; acceptedAt: number; bytes: Uint8Array }> {
    for await (const [key, value] of this.store.entries("b/")) {
      yield { height: BigInt(`0x${key.slice(2)}`), ...splitBlockRecord(value) };
    }
  }

  commit(): Promise<void> {
    return this.store.commit();
  }
}

function splitBlockRecord(value: Uint8Array): { acceptedAt: number; bytes: Uint8Array } {
  if (value.length < 8) throw new RangeError("the stored platform chain is damaged: a block record is shorter than its acceptance time");
  return { acceptedAt: Number(readUint64(value)), bytes: value.slice(8) };
}
