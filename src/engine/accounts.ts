import { HDNodeWallet, Mnemonic } from "ethers";
import { Address, bytesToHex, hexToBytes, publicToAddress } from "@ethereumjs/util";

import { publicKeyOf } from "../crypto/secp256k1";

/** The mnemonic every EVM devnet ships with; its keys are public. */
export const DEFAULT_MNEMONIC = "test test test test test test test test test test test junk";
export const DEFAULT_HD_PATH = "m/44'/60'/0'/0";
export const DEFAULT_ACCOUNT_COUNT = 20;
/** 10 000 native coin, in wei. */
export const DEFAULT_ACCOUNT_BALANCE = 10_000n * 10n ** 18n;

export interface GenesisAccount {
  privateKey: `0x${string}`;
  balance: bigint;
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
