import type { OutputOwners } from "../../utxo/codec";
import type { AliasWithNonce } from "../codec";

/*
 * Who may spend what an address owns, with Camino's multisig aliases (caminogo
 * vms/secp256k1fx camino_keychain.go TraverseOwners): the owners are walked depth first; an
 * address that is an alias is replaced by its own owners (with their threshold), any other
 * address is a signer slot numbered by the walk (aliases take no number). Signature k must
 * come from the address at slot sigIdxs[k]; each level needs its threshold of signed slots
 * or satisfied sub-aliases, and a level already satisfied (or under one) takes no more
 * signatures. A sub-alias that falls short gives back the signatures it had counted.
 */

/** Camino's limit on nesting and on signatures (secp256k1fx MaxSignatures). */
export const MAX_SIGNATURES = 256;

export type AliasLookup = (address: Uint8Array) => AliasWithNonce | undefined;

/** Asked for each signer slot that still needs a signature: true when `address` signs as signature number `verified` at slot `slot`. */
export type SlotVisitor = (address: Uint8Array, slot: number, verified: number) => boolean;

export class OwnersError extends Error {
  override readonly name = "OwnersError";
  constructor(
    readonly problem: "cyclic-aliases" | "too-many-signatures",
    message: string,
  ) {
    super(message);
  }
}

interface Walk {
  slot: number;
  verified: number;
  seen: Set<string>;
  depth: number;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

function walkLevel(owners: OutputOwners, lookup: AliasLookup, visit: SlotVisitor, walk: Walk, satisfiedAbove: boolean): boolean {
  let satisfied = 0;
  for (const address of owners.addresses) {
    const alias = lookup(address);
    if (alias !== undefined) {
      if (walk.depth >= MAX_SIGNATURES) throw new OwnersError("too-many-signatures", "too many signatures (aliases nested too deep)");
      const key = hex(address);
      if (walk.seen.has(key)) throw new OwnersError("cyclic-aliases", "cyclic aliases not allowed");
      walk.seen.add(key);
      const before = walk.verified;
      walk.depth++;
      const met = walkLevel(alias.alias.owners, lookup, visit, walk, satisfiedAbove || satisfied >= owners.threshold);
      walk.depth--;
      if (!met) walk.verified = before;
      else if (satisfied < owners.threshold) satisfied++;
      continue;
    }
    if (!satisfiedAbove && satisfied < owners.threshold && visit(address, walk.slot, walk.verified)) {
      satisfied++;
      walk.verified++;
      if (walk.verified > MAX_SIGNATURES) throw new OwnersError("too-many-signatures", "too many signatures");
    }
    walk.slot++;
  }
  return satisfied >= owners.threshold;
}

/** Walks `owners`; returns whether the threshold is met and how many signatures were counted. */
export function traverseOwners(owners: OutputOwners, lookup: AliasLookup, visit: SlotVisitor): { met: boolean; verified: number } {
  const walk: Walk = { slot: 0, verified: 0, seen: new Set(), depth: 0 };
  const met = walkLevel(owners, lookup, visit, walk, false);
  return { met, verified: walk.verified };
}

/**
 * The slots and keys that spend `owners` with the keys `keyOf` holds (caminogo
 * Keychain.SpendMultiSig): undefined when they cannot meet the threshold.
 */
export function matchKeys(owners: OutputOwners, lookup: AliasLookup, keyOf: (address: Uint8Array) => Uint8Array | undefined): { sigIdxs: number[]; keys: Uint8Array[] } | undefined {
  const sigIdxs: number[] = [];
  const keys: Uint8Array[] = [];
  let result: { met: boolean; verified: number };
  try {
    result = traverseOwners(owners, lookup, (address, slot, verified) => {
      const key = keyOf(address);
      if (key === undefined) return false;
      // A sub-alias that fell short gave its signatures back: forget them.
      sigIdxs.length = Math.min(sigIdxs.length, verified);
      keys.length = sigIdxs.length;
      sigIdxs.push(slot);
      keys.push(key);
      return true;
    });
  } catch (error) {
    if (error instanceof OwnersError) return undefined;
    throw error;
  }
  if (!result.met) return undefined;
  sigIdxs.length = result.verified;
  keys.length = result.verified;
  return { sigIdxs, keys };
}
