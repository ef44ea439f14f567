/**
 * Moves a contract chain stored in layout 1 (block records of 5 or 6 items, nothing else but the
 * head and the trie nodes) to layout 2 (stored-layout.ts): every block is read once, in order,
 * as start-up used to, and written again with its entries in the indexes. Nothing is deleted;
 * the batches are committed every MIGRATION_BATCH blocks and the `layout` record (written by the
 * caller) comes last, so a migration cut short runs again from the start at the next open, on
 * records it reads in either form.
 */
import type { Common } from "@ethereumjs/common";
import type { DurableStore } from "../../storage";
import type { BlockRecord } from "../chain";
import { StoredChainError } from "../errors";
import { EMPTY_MULTICOIN } from "./multicoin-diff";
import { decodeBlockRecord } from "./record-codec";
import { StoredBlocks } from "./stored-blocks";
import { BLOCK_PREFIX, blockKey } from "./stored-layout";

const MIGRATION_BATCH = 1000;

/** Writes the stored chain, whose head is at `height`, again in layout 2 (committed, but for the layout record). */
export async function migrateLayout(store: DurableStore, common: Common, height: bigint): Promise<void> {
  const blocks = new StoredBlocks(store, common, 1);
  let parent: BlockRecord | undefined;
  for await (const [key, value] of store.entries(BLOCK_PREFIX)) {
    const record = decodeBlockRecord(value, common, parent?.multiCoin ?? EMPTY_MULTICOIN);
    const expected = parent === undefined ? 0n : parent.number + 1n;
    if (key !== blockKey(record.number) || record.number !== expected) {
      throw new StoredChainError(`the stored chain is damaged: block ${record.number} is stored under ${key} after block ${expected - 1n}`);
    }
    blocks.stage(record, parent);
    parent = record;
    if (record.number % BigInt(MIGRATION_BATCH) === 0n) await store.commit();
  }
  if (parent?.number !== height) {
    throw new StoredChainError(`the stored chain is damaged: its head is block ${height}, and blocks are stored up to ${parent?.number ?? "none"}`);
  }
  await store.commit();
}
