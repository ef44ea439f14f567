import type { DurableStore } from "../../storage";

/**
 * The platform chain in the node's data directory ("p/" namespace): its accepted blocks, one
 * record per height, from which the chain is rebuilt at start by replaying their transactions
 * (UTXOs, aliases and their nonces come out as they were; the atomic memory, kept on its own, is
 * not touched again). Layout:
 *
 *   genesis              -> the genesis block's ID (a store of another genesis is refused)
 *   b/<height, 16 hex>   -> acceptance time (Unix ms, 8 bytes big-endian) ‖ block bytes
 *
 * Blocks are staged as they are accepted; `PlatformChain.issue` commits them (with whatever the
 * atomic memory staged for them) before the transaction is answered.
 */
export class PlatformChainRecords {
  constructor(private readonly store: DurableStore) {}

  static blockKey(height: bigint): string {
    return `b/${height.toString(16).padStart(16, "0")}`;
  }

  async genesisId(): Promise<Uint8Array | undefined> {
    return this.store.get("genesis");
  }

  putGenesis(id: Uint8Array): void {
    this.store.put("genesis", id);
  }

  putBlock(height: bigint, acceptedAt: number, bytes: Uint8Array): void {
    const record = new Uint8Array(8 + bytes.length);
    new DataView(record.buffer).setBigUint64(0, BigInt(acceptedAt), false);
    record.set(bytes, 8);
    this.store.put(PlatformChainRecords.blockKey(height), record);
  }

  delBlock(height: bigint): void {
    this.store.del(PlatformChainRecords.blockKey(height));
  }

  /** The stored blocks after genesis, in height order. */
  async *blocks(): AsyncIterable<{ height: bigint; acceptedAt: number; bytes: Uint8Array }> {
    for await (const [key, value] of this.store.entries("b/")) {
      const height = BigInt(`0x${key.slice(2)}`);
      const acceptedAt = Number(new DataView(value.buffer, value.byteOffset, value.byteLength).getBigUint64(0, false));
      yield { height, acceptedAt, bytes: value.slice(8) };
    }
  }

  commit(): Promise<void> {
    return this.store.commit();
  }
}
