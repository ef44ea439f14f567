/**
 * The chain's accounts: the default test mnemonic, the keys it derives, the funded accounts the
 * options describe (resolved here, in one place, for the engine, the local network and the
 * Hardhat plugin), and the unlocked keys the engine signs with.
 */
import { Address, bytesToHex, hexToBytes, publicToAddress } from "@ethereumjs/util";

import { publicKeyOf } from "../crypto/secp256k1";
import { ethers } from "./lazy-ethers";

/** The mnemonic every EVM devnet ships with; its keys are public. */
export const DEFAULT_MNEMONIC = "test test test test test test test test test test test junk";
export const DEFAULT_HD_PATH = "m/44'/60'/0'/0";
export const DEFAULT_ACCOUNT_COUNT = 20;
/**
 * The default mnemonic's first 20 keys on the default path, written out: deriving them (PBKDF2,
 * then a curve multiplication per level) took 100–150 ms of every start of the in-process
 * network and of the node. test/engine/accounts.test.ts derives them again and compares.
 */
export const DEFAULT_MNEMONIC_KEYS: readonly `0x${string}`[] = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
  "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
  "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
  "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
  "0xf214f2b2cd398c806f84e317254e0f0b801d0643303237d97a22a48e01628897",
  "0x701b615bbdfb9de65240bc28bd21bbc0d996645a3dd57e7b12bc2bdf6f192c82",
  "0xa267530f49f8280200edf313ee7af6b827f2a8bce2897751d06a843f644967b1",
  "0x47c99abed3324a2707c28affff1267e45918ec8c3f20b8aa892e8b065d2942dd",
  "0xc526ee95bf44d8fc405a158bb884d9d1238d99f0612e9f33d006bb0789009aaa",
  "0x8166f546bab6da521a8369cab06c5d2b9e46670292d85c875ee9ec20e84ffb61",
  "0xea6c44ac03bff858b476bba40716402b03e41b8e97e276d1baec7c37d42484a0",
  "0x689af8efa8c651a91ad287602527f3af2fe9f6501a7ac4b061667b5a93e037fd",
  "0xde9be858da4a475276426320d5e9262ecfc3ba460bfac56360bfa6c4c28b4ee0",
  "0xdf57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e",
];

/** 10 000 native coin, in wei. */
export const DEFAULT_ACCOUNT_BALANCE = 10_000n * 10n ** 18n;

/** Accounts derived from a mnemonic (the default), as Hardhat configures them. */
export interface MnemonicAccountsOptions {
  mnemonic?: string;
  path?: string;
  count?: number;
  /** Native coin of each account, in wei. */
  balance?: bigint;
}

/** Explicit keys with their balances in wei. */
export interface KeyAccountOptions {
  privateKey: string;
  balance: bigint;
}

/** The accounts option: derived from a mnemonic, or explicit keys. */
export type AccountsOption = MnemonicAccountsOptions | KeyAccountOptions[];

/** An account funded at genesis: its key (lowercase hex) and native balance in wei. */
export interface GenesisAccount {
  privateKey: `0x${string}`;
  balance: bigint;
}

/**
 * The funded accounts: those of the accounts option (keys derived from the mnemonic, by
 * default the test mnemonic's first 20, or the explicit keys), then each of `extra` whose key
 * is not already among them (the local network's test key). Checked, with keys in lowercase.
 */
export function fundedAccounts(option: AccountsOption | undefined, extra: readonly KeyAccountOptions[] = []): GenesisAccount[] {
  const accounts = Array.isArray(option) ? option.map((a, i) => genesisAccount(a, `accounts[${i}]`)) : derivedAccounts(option);
  for (const [i, account] of extra.entries()) {
    const funded = genesisAccount(account, `extra[${i}]`);
    if (!accounts.some((a) => a.privateKey === funded.privateKey)) accounts.push(funded);
  }
  return accounts;
}

function genesisAccount({ privateKey, balance }: KeyAccountOptions, where: string): GenesisAccount {
  if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey)) throw new Error(`${where}.privateKey must be 0x followed by 64 hex digits`);
  if (balance < 0n) throw new Error(`${where}.balance cannot be negative`);
  return { privateKey: privateKey.toLowerCase() as `0x${string}`, balance };
}

function derivedAccounts(option: MnemonicAccountsOptions | undefined): GenesisAccount[] {
  const count = option?.count ?? DEFAULT_ACCOUNT_COUNT;
  const balance = option?.balance ?? DEFAULT_ACCOUNT_BALANCE;
  if (!Number.isInteger(count) || count < 0) throw new Error(`accounts.count must be a non-negative integer, got ${count}`);
  const keys = deriveMnemonicKeys(option?.mnemonic ?? DEFAULT_MNEMONIC, count, option?.path ?? DEFAULT_HD_PATH);
  return keys.map((privateKey) => ({ privateKey, balance }));
}

/** A key the engine can sign with: its address and uncompressed public key, computed once. */
export interface UnlockedAccount {
  readonly address: Address;
  readonly addressHex: `0x${string}`;
  readonly privateKey: Uint8Array;
  readonly privateKeyHex: `0x${string}`;
  /** 64-byte uncompressed public key without the 0x04 prefix, as ethereumjs caches it. */
  readonly publicKey: Uint8Array;
}

/** The first `count` keys of `mnemonic` on `path` (the default mnemonic's first 20 from the table). */
export function deriveMnemonicKeys(mnemonic: string, count: number, path = DEFAULT_HD_PATH): `0x${string}`[] {
  const known = mnemonic === DEFAULT_MNEMONIC && path === DEFAULT_HD_PATH ? DEFAULT_MNEMONIC_KEYS.slice(0, count) : [];
  if (known.length === count) return known;
  return [...known, ...computeMnemonicKeys(mnemonic, known.length, count, path)];
}

/** Keys `from` to `to` - 1 of `mnemonic` on `path`, derived. */
export function computeMnemonicKeys(mnemonic: string, from: number, to: number, path = DEFAULT_HD_PATH): `0x${string}`[] {
  const { HDNodeWallet, Mnemonic } = ethers();
  const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(mnemonic), path);
  const keys: `0x${string}`[] = [];
  for (let i = from; i < to; i++) keys.push(root.deriveChild(i).privateKey as `0x${string}`);
  return keys;
}

/**
 * Unlocked accounts by key, kept for the process: the plugin's config and the engine unlock the
 * same keys, and each costs a curve multiplication and a hash. Callers never change one.
 */
const unlockedByKey = new Map<string, UnlockedAccount>();

export function unlockedAccount(privateKeyHex: string): UnlockedAccount {
  const known = unlockedByKey.get(privateKeyHex.toLowerCase());
  if (known !== undefined) return known;
  const account = computeUnlockedAccount(privateKeyHex);
  unlockedByKey.set(account.privateKeyHex, account);
  return account;
}

/** The account of a key, computed without keeping it in the process's table (for keys that are locked again). */
export function computeUnlockedAccount(privateKeyHex: string): UnlockedAccount {
  const privateKey = hexToBytes(privateKeyHex as `0x${string}`);
  if (privateKey.length !== 32) throw new Error(`a private key is 32 bytes, got ${privateKey.length}`);
  const publicKey = publicKeyOf(privateKey, false).subarray(1);
  const address = new Address(publicToAddress(publicKey));
  return {
    address,
    addressHex: address.toString() as `0x${string}`,
    privateKey,
    privateKeyHex: bytesToHex(privateKey) as `0x${string}`,
    publicKey,
  };
}
