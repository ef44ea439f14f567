/**
 * The chain's accounts: the default test mnemonic, the keys it derives, the funded accounts the
 * options describe (resolved here, in one place, for the engine, the local network and the
 * Hardhat plugin), and the unlocked keys the engine signs with.
 */
import { HDNodeWallet, Mnemonic } from "ethers";
import { Address, bytesToHex, hexToBytes, publicToAddress } from "@ethereumjs/util";

import { publicKeyOf } from "../crypto/secp256k1";

/** The mnemonic every EVM devnet ships with; its keys are public. */
export const DEFAULT_MNEMONIC = "test test test test test test test test test test test junk";
export const DEFAULT_HD_PATH = "m/44'/60'/0'/0";
export const DEFAULT_ACCOUNT_COUNT = 20;
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

export function deriveMnemonicKeys(mnemonic: string, count: number, path = DEFAULT_HD_PATH): `0x${string}`[] {
  const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(mnemonic), path);
  const keys: `0x${string}`[] = [];
  for (let i = 0; i < count; i++) keys.push(root.deriveChild(i).privateKey as `0x${string}`);
  return keys;
}

export function unlockedAccount(privateKeyHex: string): UnlockedAccount {
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
