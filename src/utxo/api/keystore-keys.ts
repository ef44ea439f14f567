import { secp256k1 } from "@noble/curves/secp256k1.js";
import { decodePrivateKey, encodePrivateKey, EncodingError, equalBytes } from "../../encoding";
import { authenticateUser } from "../../keystore/api";
import type { Keystore, KeystoreUser } from "../../keystore/keystore";
import { invalidParams, type NamedParams, serverError } from "../../rpc";
import { shortIdFromPrivateKey } from "../codec";
import type { AddressedChain, UtxoChainParams } from "./chain-params";

/*
 * A keystore user's keys for one UTXO chain (the reference node's createAddress,
 * listAddresses, importKey and exportKey, alike on the exchange and platform chains): each
 * chain's API registers these under its own method names, with its own context.
 */

/** A keystore user holds at most this many addresses per chain (the node's limit). */
export const MAX_KEYSTORE_ADDRESSES = 5000;

/** The chain whose keys a user keeps: its ID (the keystore's key ring) and its addresses. */
export interface KeyedChain extends AddressedChain {
  readonly chainId: Uint8Array;
  formatAddress(shortId: Uint8Array): string;
}

/** What the key methods work on: the chain, the keystore its users authenticate against, and its parameter reader. */
export interface KeystoreKeysContext {
  readonly chain: KeyedChain;
  readonly keystore: Keystore;
  readonly read: UtxoChainParams;
}

/** createAddress: a new random key for the user → its address. */
export async function createAddress(context: KeystoreKeysContext, p: NamedParams): Promise<{ address: string }> {
  return addKey(context.chain, await authenticateUser(context.keystore, p), secp256k1.utils.randomSecretKey());
}

/** listAddresses: the addresses of the user's keys. */
export async function listAddresses(context: KeystoreKeysContext, p: NamedParams): Promise<{ addresses: string[] }> {
  const { chain } = context;
  const owner = await authenticateUser(context.keystore, p);
  return { addresses: owner.keysFor(chain.chainId).map((k) => chain.formatAddress(shortIdFromPrivateKey(k))) };
}

/** importKey: privateKey ("PrivateKey-…") → its address, the key kept for the user. */
export async function importKey(context: KeystoreKeysContext, p: NamedParams): Promise<{ address: string }> {
  const text = p.string("privateKey", "argument 'privateKey' not given");
  let key: Uint8Array;
  try {
    key = decodePrivateKey(text);
  } catch (error) {
    if (error instanceof EncodingError) throw invalidParams(`invalid privateKey: ${error.detail}`);
    throw error;
  }
  return addKey(context.chain, await authenticateUser(context.keystore, p), key);
}

/** exportKey: address → the user's key for it ("PrivateKey-…"). */
export async function exportKey(context: KeystoreKeysContext, p: NamedParams): Promise<{ privateKey: string }> {
  const { chain } = context;
  const address = context.read.address(p, "address");
  const owner = await authenticateUser(context.keystore, p);
  const key = owner.keysFor(chain.chainId).find((k) => equalBytes(shortIdFromPrivateKey(k), address));
  if (key === undefined) {
    throw serverError(`problem retrieving private key: not found (user ${JSON.stringify(owner.username)} has no key for ${chain.formatAddress(address)})`);
  }
  return { privateKey: encodePrivateKey(key) };
}

/** The keys of the user a call names, for the context's chain (what its wallet spends and signs with). */
export async function userKeys(context: KeystoreKeysContext, p: NamedParams): Promise<Uint8Array[]> {
  return (await authenticateUser(context.keystore, p)).keysFor(context.chain.chainId);
}

/** Keeps `key` for `owner` (a key already held is kept once) → its address. */
async function addKey(chain: KeyedChain, owner: KeystoreUser, key: Uint8Array): Promise<{ address: string }> {
  const keys = owner.keysFor(chain.chainId);
  // The same key controls the same address: comparing keys is enough (and cheap).
  const has = keys.some((k) => equalBytes(k, key));
  if (!has && keys.length >= MAX_KEYSTORE_ADDRESSES) throw serverError(`keystore user has reached its limit of ${MAX_KEYSTORE_ADDRESSES} addresses`);
  await owner.addKey(chain.chainId, key);
  return { address: chain.formatAddress(shortIdFromPrivateKey(key)) };
}
