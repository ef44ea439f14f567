import {
  BranchMPTNode,
  ExtensionMPTNode,
  LeafMPTNode,
  MerklePatriciaTrie,
  isRawMPTNode,
  type BranchMPTNodeBranchValue,
  type MPTNode,
  type MPTOpts,
  type NodeReferenceOrRawMPTNode,
  type Path,
  type TrieShallowCopyOpts,
} from "@ethereumjs/mpt";
import { MapDB, type BatchDBOp } from "@ethereumjs/util";

import { GenerationalMemo } from "./generational-memo";

/**
 * Decoded nodes by the identity of the hash object that refers to them: the very Uint8Array
 * a parent node (or the trie's root) holds, so a lookup costs no hex conversion and no hashing.
 * The nodes kept are private copies, never handed out. 1024 nodes a generation keep about
 * 94 % of the lookups of a block per transaction in memory, in a few megabytes.
 */
type NodeMemo = GenerationalMemo<Uint8Array, MPTNode>;
const newNodeMemo = (): NodeMemo => new GenerationalMemo(1024);

/**
 * A Merkle Patricia trie that keeps the nodes it reads and writes decoded.
 *
 * ethereumjs fetches every node on a key's path from its database and RLP-decodes it again on
 * each access; with a block per transaction that decoding was a third of the state-root cost.
 * Nodes are content-addressed and, without pruning, never leave the database, so a decoded
 * node stays valid for its hash; only nodes seen while no checkpoint is open are remembered,
 * because a checkpoint's writes can still be reverted. Callers get copies: ethereumjs edits
 * the nodes of a path in place while it updates a key.
 */
export class NodeCachingTrie extends MerklePatriciaTrie {
  private readonly memo: NodeMemo;

  constructor(opts?: MPTOpts, memo: NodeMemo = newNodeMemo()) {
    if (opts?.useNodePruning === true) throw new Error("NodeCachingTrie needs nodes to stay in the database: node pruning must be off");
    super(opts);
    this.memo = memo;
  }

  override async lookupNode(ref: Uint8Array | Uint8Array[]): Promise<MPTNode> {
    if (isRawMPTNode(ref)) return super.lookupNode(ref);
    const known = this.memo.get(ref);
    if (known !== undefined) return copyNode(known);
    const node = await super.lookupNode(ref);
    if (!this.hasCheckpoints()) this.memo.set(ref, copyNode(node));
    return node;
  }

  /**
   * ethereumjs' path search, as a plain loop: its own goes through a generic walker that
   * schedules every node as a task with promise callbacks, which cost more than the lookups
   * once nodes come from memory. Same results, including the stack and the remaining nibbles;
   * a search resumed from a partial path still goes to ethereumjs.
   */
  override async findPath(key: Uint8Array, throwIfMissing = false, partialPath: { stack: MPTNode[] } = { stack: [] }): Promise<Path> {
    if (partialPath.stack.length > 0) return super.findPath(key, throwIfMissing, partialPath);
    const target = nibblesOf(key);
    const stack: MPTNode[] = [];
    let progress = 0;
    let ref: Uint8Array | Uint8Array[] = this.root();
    try {
      for (;;) {
        const node = await this.lookupNode(ref);
        stack.push(node);
        if (node instanceof BranchMPTNode) {
          if (progress === target.length) return { node, remaining: [], stack };
          const child = node.getBranch(target[progress]!);
          if (child === null) return { node: null, remaining: target.slice(progress), stack };
          progress++;
          ref = child;
          continue;
        }
        const start = progress;
        const nibbles = node.key();
        if (node instanceof LeafMPTNode && target.length - progress > nibbles.length) return { node: null, remaining: target.slice(start), stack };
        for (const nibble of nibbles) {
          if (nibble !== target[progress]) return { node: null, remaining: target.slice(start), stack };
          progress++;
        }
        if (node instanceof LeafMPTNode) return { node, remaining: [], stack };
        ref = node.value();
      }
    } catch (error) {
      // As ethereumjs: a missing node ends the search as "not found" unless asked to throw.
      if (throwIfMissing || !(error instanceof Error) || error.message !== "Missing node in DB") throw error;
      return { node: null, remaining: [], stack };
    }
  }

  override _formatNode(
    node: MPTNode,
    topLevel: boolean,
    opStack: BatchDBOp[],
    remove = false,
  ): Uint8Array | NodeReferenceOrRawMPTNode | BranchMPTNodeBranchValue[] {
    const ref = super._formatNode(node, topLevel, opStack, remove);
    if (!remove && ref instanceof Uint8Array && !this.hasCheckpoints()) this.memo.set(ref, copyNode(node));
    return ref;
  }

  /** As ethereumjs' own, but the copy is a NodeCachingTrie too, sharing the memo when it shares the key space. */
  override shallowCopy(includeCheckpoints = true, opts?: TrieShallowCopyOpts): NodeCachingTrie {
    const prefix = opts !== undefined && "keyPrefix" in opts ? opts.keyPrefix : this._opts.keyPrefix;
    const trie = new NodeCachingTrie(
      { ...this._opts, db: this._db.db.shallowCopy(), root: this.root(), cacheSize: 0, ...opts },
      sameBytes(prefix, this._opts.keyPrefix) ? this.memo : newNodeMemo(),
    );
    if (includeCheckpoints && this.hasCheckpoints()) trie._db.setCheckpoints(this._db.checkpoints);
    return trie;
  }
}

function nibblesOf(key: Uint8Array): number[] {
  const nibbles = new Array<number>(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    nibbles[2 * i] = key[i]! >> 4;
    nibbles[2 * i + 1] = key[i]! & 0x0f;
  }
  return nibbles;
}

function copyNode(node: MPTNode): MPTNode {
  if (node instanceof BranchMPTNode) {
    const copy = new BranchMPTNode();
    copy._branches = node._branches.slice();
    copy._value = node._value;
    return copy;
  }
  if (node instanceof LeafMPTNode) return new LeafMPTNode(node.key(), node.value());
  return new ExtensionMPTNode(node.key(), node.value());
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The trie's node database: ethereumjs' MapDB, with each key flattened as it is stored.
 * ethereumjs builds the keys (hex of the node hash) by concatenation, which leaves V8 a tree
 * of some thirty string pieces per key until something compares the key; with decoded nodes
 * kept in NodeCachingTrie nothing does, and the pieces of every node ever written stayed live.
 */
export class FlatKeyMapDB extends MapDB<string | Uint8Array, string | Uint8Array> {
  override async put(key: string | Uint8Array, value: string | Uint8Array): Promise<void> {
    // Reading a character makes V8 flatten the string in place.
    if (typeof key === "string" && key.length > 0) key.charCodeAt(0);
    return super.put(key, value);
  }

  override shallowCopy(): FlatKeyMapDB {
    return new FlatKeyMapDB(this._database);
  }
}
