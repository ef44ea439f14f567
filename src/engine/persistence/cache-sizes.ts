/**
 * How much of a chain kept in a store stays in memory: the node's `--accepted-cache-size` (the
 * reference's name for the accepted blocks it keeps at its tip) and `--trie-clean-cache` (the
 * reference's megabytes of clean trie nodes). The rest is read from the store when needed.
 */
export interface StoreCacheSizes {
  /** Decoded blocks (with their receipts) kept in memory besides the head. Default 256. */
  blocks?: number;
  /** Megabytes of state trie nodes kept in memory (counted as their keys' and values' bytes). Default 256. */
  trieNodesMb?: number;
}

export const DEFAULT_BLOCK_CACHE = 256;
export const DEFAULT_TRIE_CACHE_MB = 256;

/** The sizes with defaults filled in, checked: each a positive whole number. */
export function resolveCacheSizes(sizes: StoreCacheSizes | undefined): Required<StoreCacheSizes> {
  const blocks = sizes?.blocks ?? DEFAULT_BLOCK_CACHE;
  const trieNodesMb = sizes?.trieNodesMb ?? DEFAULT_TRIE_CACHE_MB;
  for (const [name, value] of [["blocks", blocks], ["trieNodesMb", trieNodesMb]] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`the store's ${name} cache size must be a positive whole number, got ${value}`);
  }
  return { blocks, trieNodesMb };
}
