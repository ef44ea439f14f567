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

/**
 * The uncompressed public keys (64 bytes, without the 0x04 prefix) of DEFAULT_MNEMONIC_KEYS, in
 * the same order: every chain unlocks these keys, and a cold process takes about 10 ms to
 * multiply them out (accounts.test.ts checks the table against the keys).
 */
export const DEFAULT_MNEMONIC_PUBLIC_KEYS: readonly string[] = [
  "8318535b54105d4a7aae60c08fc45f9687181b4fdfc625bd1a753fa7397fed753547f11ca8696646f2f3acb08e31016afac23e630c5d11f59f61fef57b0d2aa5",
  "ba5734d8f7091719471e7f7ed6b9df170dc70cc661ca05e688601ad984f068b0d67351e5f06073092499336ab0839ef8a521afd334e53807205fa2f08eec74f4",
  "9d9031e97dd78ff8c15aa86939de9b1e791066a0224e331bc962a2099a7b1f0464b8bbafe1535f2301c72c2cb3535b172da30b02686ab0393d348614f157fbdb",
  "20b871f3ced029e14472ec4ebc3c0448164942b123aa6af91a3386c1c403e0ebd3b4a5752a2b6c49e574619e6aa0549eb9ccd036b9bbc507e1f7f9712a236092",
  "bf6ee64a8d2fdc551ec8bb9ef862ef6b4bcb1805cdc520c3aa5866c0575fd3b514c5562c3caae7aec5cd6f144b57135c75b6f6cea059c3d08d1f39a9c227219d",
  "37b84de6947b243626cc8b977bb1f1632610614842468dfa8f35dcbbc55a515e47f6fe259cffc671a719eaef444a0d689b16a90051985a13661840cf5e221503",
  "9a4ab212cb92775d227af4237c20b81f4221e9361d29007dfc16c79186b577cb6ba3f1b582ad0b5572c93f47e7506d66df7f2af05fa1828de0e511aac7b97828",
  "01f2bf1fa920e77a43c7aec2587d0b3814093420cc59a9b3ad66dd5734dda7be6f8b7de790eac3a720fd8e4bcb9eae9434f843d3cec111d9e07adeddeae090f2",
  "931e7fda8da226f799f791eefc9afebcd7ae2b1b19a03c5eaa8d72122d9fe74d887a3962ff861190b531ab31ee82f0d7f255dfe3ab73ca627bd70ab3d1cbb417",
  "3255458e24278e31d5940f304b16300fdff3f6efd3e2a030b5818310ac67af45e28d057e6a332d07e0c5ab09d6947fd4eed1a646edbf224e2d2fec6f49f90abc",
  "0bb316cf4dbaeff8df7c6a8f3c55a11c72f7f2f8d79c274f27cdce2220f36371279e4fa6f5ecc92d799c79f30d3bb5913e906c06d7da20edd35dd61c4807052d",
  "e393c954d127d79d56b594a46df6b2e053f49446759eac612dbe12ade3095c679eeda1cafbff9d8fe17b8550d9d0d1fd71a2f5849b520c7bde795a3600b54616",
  "463e7db0f9c35ba7ae68a8098f1024019b90191281276eeef294acb3f1354b0acd69b0a35b569d08b5b45017078d2342120c335290857d95eb3621d1084622b6",
  "7805be0fc5186c4437306b531c8e981d3922e5fc81d72d527931b995445fb78ea33d6b7dba20f31fc5560dd19870fc010aaab063647da052dde84b14df052457",
  "407a862c69cbc66dceea40079757697abcf931043f5a5f128a56ae6e51bdbce7fd0e8041ad03925eb788729e42fa032d5f81e5f1e6276aa7427cb5a0c8a419cd",
  "d5ab34891bfe989bfa557f983cb5d031c4acc845ad990baaefb58ca1db0e77161e06c5160950b02dc29ef7ad651d76dbcb891b4d9779101a92dd843d518c8f10",
  "64c1c85d9aa8081a8ef94c35379fa7532942b2d8cbbd1e3ea71c0e3609b96cc0efcd28ccb0c8f30cf99ee0a361f1d8e7b052ec956c8172779d486f84cc2ad737",
  "c216848622dfc38a2ad2a921f524103cf654a22b8679736ecedc4901453ea3f7696c08bb654460f28cef6913033456b1432baeacd6fc4614df1008811b5c55ae",
  "302a94bd084ff317493db7c2fe07e0935c0f6d3e6772d6af3c58e92abebfb402d7355f0565f50297b6d26a329fc48ce6ea7a556bfd113b306459c9523633f6f2",
  "7bf824b28c4bf11ce553fa746a18754949ab4959e2ea73465778d14179211f8c87f456ff40773aafed961a226e0bfa251547013a81c24951a733f65cfed8dc5e",
];

/**
 * The addresses of DEFAULT_MNEMONIC_KEYS, in the same order (lower case, without 0x): deriving
 * them would be the only Keccak-256 a chain runs in the pure-JS implementation before the
 * engine's WebAssembly one is loaded, and a cold process pays for that implementation's
 * compilation (accounts.test.ts checks the table against the public keys).
 */
export const DEFAULT_MNEMONIC_ADDRESSES: readonly string[] = [
  "f39fd6e51aad88f6f4ce6ab8827279cfffb92266",
  "70997970c51812dc3a010c7d01b50e0d17dc79c8",
  "3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
  "90f79bf6eb2c4f870365e785982e1f101e93b906",
  "15d34aaf54267db7d7c367839aaf71a00a2c6a65",
  "9965507d1a55bcc2695c58ba16fb37d819b0a4dc",
  "976ea74026e726554db657fa54763abd0c3a0aa9",
  "14dc79964da2c08b23698b3d3cc7ca32193d9955",
  "23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f",
  "a0ee7a142d267c1f36714e4a8f75612f20a79720",
  "bcd4042de499d14e55001ccbb24a551f3b954096",
  "71be63f3384f5fb98995898a86b02fb2426c5788",
  "fabb0ac9d68b0b445fb7357272ff202c5651694a",
  "1cbd3b2770909d4e10f157cabc84c7264073c9ec",
  "df3e18d64bc6a983f673ab319ccae4f1a57c7097",
  "cd3b766ccdd6ae721141f452c550ca635964ce71",
  "2546bcd3c84621e976d8185a91a922ae77ecec30",
  "bda5747bfd65f08deb54cb465eb87d40e51b197e",
  "dd2fd4581271e230360230f9337d5c0430bf44c0",
  "8626f6940e2eb28930efb4cef49b2d1f2c9c1199",
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
  const known = DEFAULT_MNEMONIC_KEYS.indexOf(privateKeyHex.toLowerCase() as `0x${string}`);
  const publicKey = known >= 0 ? hexToBytes(`0x${DEFAULT_MNEMONIC_PUBLIC_KEYS[known]!}`) : publicKeyOf(privateKey, false).subarray(1);
  const address = new Address(known >= 0 ? hexToBytes(`0x${DEFAULT_MNEMONIC_ADDRESSES[known]!}`) : publicToAddress(publicKey));
  return {
    address,
    addressHex: address.toString() as `0x${string}`,
    privateKey,
    privateKeyHex: bytesToHex(privateKey) as `0x${string}`,
    publicKey,
  };
}
