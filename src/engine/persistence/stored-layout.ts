/**
 * The keys of the contract chain under the engine's store, layout 2:
 *
 *   head                       chain ID, rules, head height and state root, clock offset (chain-persistence.ts)
 *   layout                     "2"; absent in a store of layout 1, which is migrated on open (layout-migration.ts)
 *   t/<node key>               the state tries' nodes and contract code (trie-db.ts)
 *   b/<height>                 a block's record (record-codec.ts), 7 items since layout 2
 *   h/<block hash>             the block's height: blocks found by hash without reading the chain
 *   x/<tx hash>                [height, index] of a mined transaction
 *   m/<height>                 the multi-coin change of a block that changed the balances (multicoin-ledger.ts)
 *   l/<value>/<section>        the blocks of a section whose logs hold an address or topic (stored-log-index.ts)
 *
 * Heights are 16 hex digits so keys sort by height; hashes and values are unprefixed lowercase hex.
 * Layout 1 held only head, t/ and b/ (6-item records): start-up read every block to rebuild the rest.
 */
export const HEAD_KEY = "head";
export const LAYOUT_KEY = "layout";
export const CURRENT_LAYOUT = 2;
export const TRIE_PREFIX = "t/";
export const BLOCK_PREFIX = "b/";

export function heightHex(height: bigint): string {
  return height.toString(16).padStart(16, "0");
}

export function blockKey(height: bigint): string {
  return BLOCK_PREFIX + heightHex(height);
}

/** `hash` as 0x-prefixed hex (a record's own form). */
export function blockHashKey(hash: string): string {
  return `h/${hash.slice(2)}`;
}

export function transactionKey(hash: string): string {
  return `x/${hash.slice(2)}`;
}

export function multiCoinKey(height: bigint): string {
  return `m/${heightHex(height)}`;
}

/** `value`: an address or topic as the log index keys it (keyOf: one char per byte). */
export function logSectionKey(value: string, section: number): string {
  return `l/${Buffer.from(value, "latin1").toString("hex")}/${section.toString(16).padStart(8, "0")}`;
}
