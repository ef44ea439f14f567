/** The node's keystore (users, passwords, private keys per blockchain); its JSON-RPC API is in api.ts. */
import { scryptAsync } from "@noble/hashes/scrypt.js";
import { randomBytes } from "@noble/hashes/utils.js";
import { bytesToHex, equalBytes } from "../encoding";
import type { DurableStore } from "../storage";
import { loadUsers, type StoredUser, userKey, userRecord } from "./records";

/**
 * The node's keystore: named users protected by a password, each holding private keys per
 * blockchain (a key imported on the exchange chain is not visible on the contract chain until
 * imported there too, as on the reference node). Only a hash of the password is kept.
 */
export class KeystoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeystoreError";
  }
}

const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;

/** Scrypt with light parameters: strong enough for a local simulator, fast in tests. */
async function hashPassword(password: string, salt: Uint8Array): Promise<Uint8Array> {
  return scryptAsync(new TextEncoder().encode(password), salt, { N: 1 << 10, r: 8, p: 1, dkLen: 32 });
}

export interface KeystoreOptions {
  /**
   * Where the users are kept across restarts (the node's "keystore/" namespace). Each change
   * (new user, deleted user, added key) is committed before it is answered. Use
   * `Keystore.open` to read the users a store already holds.
   */
  store?: DurableStore;
}

export class Keystore {
  private readonly users = new Map<string, StoredUser>();
  private readonly store: DurableStore | undefined;

  constructor(options: KeystoreOptions = {}) {
    this.store = options.store;
  }

  /** A keystore over `store` with the users it holds (none for a fresh store). Throws DamagedRecordError naming a record it cannot read. */
  static async open(store: DurableStore): Promise<Keystore> {
    const keystore = new Keystore({ store });
    for (const [username, user] of await loadUsers(store)) keystore.users.set(username, user);
    return keystore;
  }

  async createUser(username: string, password: string): Promise<void> {
    if (typeof username !== "string" || username.length === 0) throw new KeystoreError("username must be a non-empty string");
    if (username.length > 1024) throw new KeystoreError("username is longer than 1024 characters");
    checkPasswordStrength(password);
    if (this.users.has(username)) throw new KeystoreError(`user already exists: ${username}`);
    const salt = randomBytes(16);
    const passwordHash = await hashPassword(password, salt);
    if (this.users.has(username)) throw new KeystoreError(`user already exists: ${username}`);
    this.users.set(username, { salt, passwordHash, keys: new Map() });
    await this.save(username, () => this.users.delete(username));
  }

  listUsers(): string[] {
    return [...this.users.keys()].sort();
  }

  async deleteUser(username: string, password: string): Promise<void> {
    await this.authenticate(username, password);
    const user = this.users.get(username);
    if (user === undefined) return; // deleted meanwhile by another call
    this.users.delete(username);
    await this.save(username, () => this.users.set(username, user));
  }

  /** Checks the password; returns the user's key sets. */
  async authenticate(username: string, password: string): Promise<KeystoreUser> {
    const user = this.users.get(username);
    if (user === undefined) throw new KeystoreError(`user not found: ${username}`);
    if (typeof password !== "string" || !equalBytes(await hashPassword(password, user.salt), user.passwordHash)) {
      throw new KeystoreError("incorrect password");
    }
    return new KeystoreUser(username, user.keys, this.store === undefined ? undefined : (undo) => this.save(username, undo));
  }

  /**
   * Stages the user's record as it is now in memory (or its deletion) and commits it. When the
   * store cannot write it, `undo` takes the change back in memory too, so that what the
   * keystore answers stays what a restart would find.
   */
  private async save(username: string, undo: () => void): Promise<void> {
    if (this.store === undefined) return;
    const user = this.users.get(username);
    if (user === undefined) this.store.del(userKey(username));
    else this.store.put(userKey(username), userRecord(user));
    try {
      await this.store.commit();
    } catch (error) {
      undo();
      throw new KeystoreError(`the keystore could not save user ${username}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** An authenticated user's keys for the blockchains of this node. */
export class KeystoreUser {
  constructor(
    readonly username: string,
    private readonly keys: Map<string, Uint8Array[]>,
    /** Commits the user's record (see Keystore.save); absent without a store. */
    private readonly save?: (undo: () => void) => Promise<void>,
  ) {}

  /** The user's private keys on a blockchain (32-byte chain ID), in import order. */
  keysFor(chainId: Uint8Array): Uint8Array[] {
    return [...(this.keys.get(bytesToHex(chainId)) ?? [])];
  }

  /**
   * Adds a key on a blockchain; adding one it already has is not an error (as on the node).
   * Resolves once the keystore's store (if any) holds it.
   */
  async addKey(chainId: Uint8Array, privateKey: Uint8Array): Promise<void> {
    if (privateKey.length !== 32) throw new KeystoreError(`a private key is 32 bytes, got ${privateKey.length}`);
    const id = bytesToHex(chainId);
    const list = this.keys.get(id) ?? [];
    if (list.some((k) => equalBytes(k, privateKey))) return;
    const had = this.keys.has(id);
    list.push(privateKey.slice());
    this.keys.set(id, list);
    await this.save?.(() => {
      list.pop();
      if (!had) this.keys.delete(id);
    });
  }
}

function checkPasswordStrength(password: unknown): void {
  if (typeof password !== "string") throw new KeystoreError("password must be a string");
  if (password.length < MIN_PASSWORD_LENGTH) throw new KeystoreError(`password is too weak: use at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw new KeystoreError(`password is longer than ${MAX_PASSWORD_LENGTH} characters`);
  if (new Set(password).size < 4) throw new KeystoreError("password is too weak: use more different characters");
}
