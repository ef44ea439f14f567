/**
 * The personal_ namespace's key store: accounts whose keys the node keeps only encrypted with a
 * password, with geth's keystore semantics. An account starts locked; `unlock` with its password
 * decrypts the key and hands it to the engine, which then signs eth_sendTransaction for it as
 * for the node's test accounts, for a while (`seconds`) or until the node stops (0); `lock`
 * takes it back. Signing with the password (personal_sign, personal_sendTransaction) decrypts
 * the key for that one use, locked or not.
 *
 * Keys are encrypted as geth's Web3 Secret Storage (version 3) does, with @noble/hashes:
 * scrypt(password, random salt) gives 32 bytes; the first 16 are the AES-128-CTR key of the
 * private key, keccak-256 of the last 16 and the ciphertext is the MAC that tells a wrong
 * password. The scrypt cost is geth's `--lightkdf` (N = 4096, r = 8), with p = 1: a devnet's
 * passwords guard test keys, and every unlock and signature waits for it. Neither the password
 * nor the plain key is kept; a locked key exists only as ciphertext. The store lives in memory,
 * one per engine.
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex } from "@ethereumjs/util";

import { publicKeyOf } from "../crypto/secp256k1";
import { computeUnlockedAccount, type UnlockedAccount } from "./accounts";
import type { Engine } from "./engine";

/** geth's messages (accounts/keystore and accounts), which clients match on. */
export const PERSONAL_ERRORS = {
  wrongPassword: "could not decrypt key with given password",
  unknownAccount: "unknown account",
  alreadyExists: "account already exists",
  locked: "authentication needed: password or unlock",
  durationTooLarge: "unlock duration too large",
} as const;

/** A refusal of the key store; its message is geth's. */
export class PersonalKeyError extends Error {
  override readonly name = "PersonalKeyError";
}

/** The longest unlock geth takes: time.Duration's range, in seconds. */
const MAX_UNLOCK_SECONDS = 9_223_372_036;
/** geth's default unlock: five minutes. */
export const DEFAULT_UNLOCK_SECONDS = 300;

const KDF = { N: 4096, r: 8, p: 1, dkLen: 32 } as const;
/** setTimeout's longest delay; longer unlocks wait in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface EncryptedKey {
  salt: Uint8Array;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  mac: Uint8Array;
}

interface Unlock {
  account: UnlockedAccount;
  /** Absent: unlocked until the node stops. */
  timer?: NodeJS.Timeout;
}

/**
 * scrypt on Node's thread pool (tens of ms of a core each): a client sending passwords in a loop
 * keeps the event loop free for everyone else's requests.
 */
function deriveKey(password: string, salt: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    scrypt(new TextEncoder().encode(password), salt, KDF.dkLen, { N: KDF.N, r: KDF.r, p: KDF.p }, (error, key) => (error === null ? resolve(new Uint8Array(key)) : reject(error))),
  );
}

async function encrypt(privateKey: Uint8Array, password: string): Promise<EncryptedKey> {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const derived = await deriveKey(password, salt);
  const cipher = createCipheriv("aes-128-ctr", derived.subarray(0, 16), iv);
  const ciphertext = new Uint8Array(Buffer.concat([cipher.update(privateKey), cipher.final()]));
  const mac = keccak_256(new Uint8Array([...derived.subarray(16, 32), ...ciphertext]));
  return { salt, iv, ciphertext, mac };
}

async function decrypt(key: EncryptedKey, password: string): Promise<Uint8Array> {
  const derived = await deriveKey(password, key.salt);
  const mac = keccak_256(new Uint8Array([...derived.subarray(16, 32), ...key.ciphertext]));
  if (!timingSafeEqual(mac, key.mac)) throw new PersonalKeyError(PERSONAL_ERRORS.wrongPassword);
  const decipher = createDecipheriv("aes-128-ctr", derived.subarray(0, 16), key.iv);
  return new Uint8Array(Buffer.concat([decipher.update(key.ciphertext), decipher.final()]));
}

export class PersonalKeys {
  /** Encrypted keys by lowercase address, in the order they were added. */
  private readonly keys = new Map<string, EncryptedKey>();
  private readonly unlocks = new Map<string, Unlock>();

  constructor(private readonly engine: Engine) {
    // eth_sendTransaction from a locked account asks for its password, as geth's does.
    engine.runtimeKeys.setLockedCheck((address) => this.keys.has(address) && !engine.unlocked.has(address));
  }

  /** The accounts' addresses (lowercase), oldest first. */
  list(): string[] {
    return [...this.keys.keys()];
  }

  has(address: string): boolean {
    return this.keys.has(address.toLowerCase());
  }

  /** A new account with a random key, locked; returns its address. */
  create(password: string): Promise<string> {
    for (;;) {
      const key = randomBytes(32);
      // A random 32 bytes is a valid key but for a chance of about 2^-128.
      if (isValidKey(key)) return this.add(key, password);
    }
  }

  /** Adds an account for `privateKey` (32 bytes), locked; refuses a key already held. */
  import(privateKey: Uint8Array, password: string): Promise<string> {
    if (!isValidKey(privateKey)) throw new PersonalKeyError("invalid private key");
    return this.add(privateKey, password);
  }

  /**
   * Decrypts the key with `password` and lets the engine sign for it for `seconds` (0: until
   * the node stops). Unlocking an unlocked account again sets its new time, except one unlocked
   * until the node stops, which stays so (geth's TimedUnlock).
   */
  async unlock(address: string, password: string, seconds: number): Promise<void> {
    if (seconds > MAX_UNLOCK_SECONDS) throw new PersonalKeyError(PERSONAL_ERRORS.durationTooLarge);
    const account = await this.decrypt(address, password);
    const current = this.unlocks.get(account.addressHex);
    if (current !== undefined && this.engine.unlocked.has(account.addressHex)) {
      if (current.timer === undefined) return;
      clearTimeout(current.timer);
    }
    const unlock: Unlock = { account };
    if (seconds > 0) this.expireAfter(unlock, Date.now() + seconds * 1000);
    this.unlocks.set(account.addressHex, unlock);
    this.engine.runtimeKeys.unlockAccount(account);
  }

  /** Takes an account's key back from the engine; false when the address is not one of this store's. */
  lock(address: string): boolean {
    const addressHex = address.toLowerCase();
    if (!this.keys.has(addressHex)) return false;
    const unlock = this.unlocks.get(addressHex);
    if (unlock?.timer !== undefined) clearTimeout(unlock.timer);
    this.unlocks.delete(addressHex);
    this.engine.runtimeKeys.lock(addressHex);
    return true;
  }

  /** The account's key, decrypted with `password` for one use; refuses an unknown account or a wrong password. */
  async decrypt(address: string, password: string): Promise<UnlockedAccount> {
    const key = this.keys.get(address.toLowerCase());
    if (key === undefined) throw new PersonalKeyError(PERSONAL_ERRORS.unknownAccount);
    return computeUnlockedAccount(bytesToHex(await decrypt(key, password)));
  }

  private async add(privateKey: Uint8Array, password: string): Promise<string> {
    const address = computeUnlockedAccount(bytesToHex(privateKey)).addressHex;
    if (this.keys.has(address)) throw new PersonalKeyError(PERSONAL_ERRORS.alreadyExists);
    this.keys.set(address, await encrypt(privateKey, password));
    return address;
  }

  /** Locks `unlock`'s account at `deadline` (ms since the epoch), in steps setTimeout can take. */
  private expireAfter(unlock: Unlock, deadline: number): void {
    const wait = Math.min(Math.max(deadline - Date.now(), 0), MAX_TIMER_MS);
    unlock.timer = setTimeout(() => {
      if (this.unlocks.get(unlock.account.addressHex) !== unlock) return;
      if (Date.now() < deadline) this.expireAfter(unlock, deadline);
      else this.lock(unlock.account.addressHex);
    }, wait);
    // An unlock never keeps the process alive.
    unlock.timer.unref();
  }
}

function isValidKey(key: Uint8Array): boolean {
  if (key.length !== 32) return false;
  try {
    publicKeyOf(key, true);
    return true;
  } catch {
    return false;
  }
}

const stores = new WeakMap<Engine, PersonalKeys>();

/** The engine's personal key store (made on first use). */
export function personalKeysOf(engine: Engine): PersonalKeys {
  let store = stores.get(engine);
  if (store === undefined) {
    store = new PersonalKeys(engine);
    stores.set(engine, store);
  }
  return store;
}
