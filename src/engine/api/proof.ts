/**
 * eth_getProof (EIP-1186): [address, storageKeys, block] to the account's proof and its slots'
 * (see `../proofs.ts`). Keys are read as geth reads them: hex of at most 32 bytes, and each is
 * answered as given when it had 32 bytes, else as a quantity.
 */
import { invalidParams } from "../../rpc/errors";
import type { Engine } from "../engine";
import { proveAccount } from "../proofs";
import { hex, q } from "./format";
import * as p from "./params";

/** Most storage keys one request may ask for. */
const MAX_STORAGE_KEYS = 1024;

export async function eth_getProof(engine: Engine, [address, keys, block]: unknown[]): Promise<Record<string, unknown>> {
  const account = p.address(address, "address");
  if (!Array.isArray(keys)) throw invalidParams(`storageKeys must be an array of hex storage keys, got ${JSON.stringify(keys)}`);
  if (keys.length > MAX_STORAGE_KEYS) throw invalidParams(`storageKeys may hold at most ${MAX_STORAGE_KEYS} keys, got ${keys.length}`);
  const slots = keys.map((key, i) => storageKey(key, `storageKeys[${i}]`));
  const record = engine.resolveBlock(p.blockSelector(block ?? "latest"));
  const proof = await proveAccount(engine, account, slots.map((s) => s.bytes), record);
  return {
    address: account.toString(),
    accountProof: proof.accountProof.map(hex),
    balance: q(proof.balance),
    codeHash: hex(proof.codeHash),
    nonce: q(proof.nonce),
    storageHash: hex(proof.storageHash),
    storageProof: proof.storageProof.map((item, i) => ({ key: slots[i]!.label, value: q(item.value), proof: item.proof.map(hex) })),
  };
}

/** A storage key: hex of at most 32 bytes (an odd digit count is allowed), left-padded to 32. */
function storageKey(value: unknown, name: string): { bytes: Uint8Array; label: string } {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{0,64}$/.test(value)) {
    throw invalidParams(`${name} must be a hex storage key of at most 32 bytes, got ${JSON.stringify(value)}`);
  }
  const digits = value.slice(2).padStart(64, "0");
  const bytes = Uint8Array.from(Buffer.from(digits, "hex"));
  const full = value.length === 66;
  return { bytes, label: full ? value.toLowerCase() : q(BigInt(`0x${digits}`)) };
}
