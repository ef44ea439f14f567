import type { Common } from "@ethereumjs/common";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { RLP } from "@ethereumjs/rlp";
import { KECCAK256_RLP } from "@ethereumjs/util";
import { keccak256 } from "./keccak";

/**
 * Roots of a block's transactions and receipts tries: the trie that maps RLP(i) to the i-th
 * encoded item.
 *
 * Automine makes blocks of one transaction, whose trie is a single leaf: its root is the hash
 * of that leaf, computed here directly; ethereumjs' BlockBuilder builds a new trie object for
 * each root of each block. Several items go through a trie as before.
 */

/** The leaf path of key RLP(0) = 0x80: hex-prefix flag 0x20 (leaf, even length), then nibbles 8, 0. */
const INDEX_ZERO_LEAF_PATH = Uint8Array.from([0x20, 0x80]);

export async function orderedTrieRoot(items: readonly Uint8Array[], common: Common): Promise<Uint8Array> {
  if (items.length === 0) return KECCAK256_RLP;
  // The root node is hashed whatever its length (only inner nodes under 32 bytes are inlined).
  if (items.length === 1) return keccak256(RLP.encode([INDEX_ZERO_LEAF_PATH, items[0]!]));
  const trie = new MerklePatriciaTrie({ common });
  for (let i = 0; i < items.length; i++) await trie.put(RLP.encode(i), items[i]!);
  return trie.root();
}
