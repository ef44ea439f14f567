/**
 * EIP-1186 proofs (eth_getProof): an account's fields and some of its storage slots, each with
 * the trie nodes from the state root (or the account's storage root) down to it, so that a
 * client holding only a block header can check them. ethereumjs makes them from the same tries
 * the chain's state roots are computed from (`getMerkleStateProof`).
 *
 * What the proofs cover: the state trie holds each account's nonce, balance, storage root and
 * code hash, and the storage tries hold contract storage. Multi-coin balances are kept beside
 * the tries (multicoin.ts), not in them, so no proof covers them (read them with
 * eth_getAssetBalance). A proof at an older block verifies against that block's stateRoot; a
 * proof at the head is of the live state, which is the head block's unless the state was edited
 * directly since (hardhat_set*). A fork's state is not all local, so a fork gives no proofs.
 */
import { getMerkleStateProof } from "@ethereumjs/statemanager";
import { bytesToBigInt, hexToBytes, type Address } from "@ethereumjs/util";
import type { BlockRecord } from "./chain";
import type { Engine } from "./engine";
import { UnavailableOperationError } from "./errors";

/** One proved storage slot. */
export interface StorageSlotProof {
  /** The slot, 32 bytes. */
  readonly key: Uint8Array;
  readonly value: bigint;
  /** RLP trie nodes, root first (empty for an account without storage). */
  readonly proof: readonly Uint8Array[];
}

export interface AccountProof {
  readonly address: Address;
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly codeHash: Uint8Array;
  readonly storageHash: Uint8Array;
  /** RLP trie nodes from the state root down to the account (or to where it would be). */
  readonly accountProof: readonly Uint8Array[];
  readonly storageProof: readonly StorageSlotProof[];
}

/** The proof of an account and of `slots` (32 bytes each) at the state of `record`. */
export async function proveAccount(engine: Engine, address: Address, slots: readonly Uint8Array[], record: BlockRecord): Promise<AccountProof> {
  if (engine.fork !== undefined) {
    throw new UnavailableOperationError("eth_getProof is not available on a fork: the remote chain's state is read account by account, not held as a trie here");
  }
  const live = engine.stateManager;
  const state = record === engine.head ? live : live.viewAt(record.block.header.stateRoot, record.multiCoin);
  const proof = await getMerkleStateProof(state, address, [...slots]);
  const bytes = (nodes: readonly string[]) => nodes.map((node) => hexToBytes(node as `0x${string}`));
  // ethereumjs gives no storage proofs for an account that does not exist: each slot is 0, proved by the empty storage trie.
  const storageProof =
    proof.storageProof.length === slots.length
      ? proof.storageProof.map((item, i) => ({ key: slots[i]!, value: bytesToBigInt(hexToBytes(quantityBytes(item.value))), proof: bytes(item.proof) }))
      : slots.map((key) => ({ key, value: 0n, proof: [] }));
  return {
    address,
    balance: BigInt(proof.balance),
    nonce: BigInt(proof.nonce),
    codeHash: hexToBytes(proof.codeHash),
    storageHash: hexToBytes(proof.storageHash),
    accountProof: bytes(proof.accountProof),
    storageProof,
  };
}

/** ethereumjs writes a slot's value as hex bytes ("0x0" for none): as even-length hex. */
function quantityBytes(value: string): `0x${string}` {
  const digits = value.slice(2);
  return `0x${digits.length % 2 === 1 ? "0" : ""}${digits}`;
}
