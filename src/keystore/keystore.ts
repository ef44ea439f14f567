/** The node's keystore (users, passwords, private keys per blockchain); its JSON-RPC API is in api.ts. */
import { scryptAsync } from "@noble/hashes/scrypt.js";
import { randomBytes } from "@noble/hashes/utils.js";
import { bytesToHex, equalBytes } from "../encoding";

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

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

interface StoredUser {
  salt: Uint8Array;
  passwordHash: Uint8Array;
  /** blockchain ID hex -> private keys (32 bytes each), in import order */
  keys: Map<string, Uint8Array[]>;
}

/** Scrypt with light parameters: strong enough for a local simulator, fast in tests. */
async function hashPassword(password: string, salt: Uint8Array): Promise<Uint8Array> {
  return scryptAsync(new TextEncoder().encode(password), salt, { N: 1 << 10, r: 8, p: 1, dkLen: 32 });
}

export class Keystore {
  private readonly users = new Map<string, StoredUser>();

  async createUser(username: string, password: string): Promise<void> {
    if (typeof username !== "string" || username.length === 0) throw new KeystoreError("username must be a non-empty string");
    if (username.length > 1024) throw new KeystoreError("username is longer than 1024 characters");
    checkPasswordStrength(password);
    if (this.users.has(username)) throw new KeystoreError(`user already exists: ${username}`);
    const salt = randomBytes(16);
    this.users.set(username, { salt, passwordHash: await hashPassword(password, salt), keys: new Map() });
  }

  listUsers(): string[] {
    return [...this.users.keys()].sort();
  }

  async deleteUser(username: string, password: string): Promise<void> {
    await this.authenticate(username, password);
    this.users.delete(username);
  }

  /** Checks the password; returns the user's key sets. */
  async authenticate(username: string, password: string): Promise<KeystoreUser> {
    const user = this.users.get(username);
    if (user === undefined) throw new KeystoreError(`user not found: ${username}`);
    if (typeof password !== "string" || !equalBytes(await hashPassword(password, user.salt), user.passwordHash)) {
      throw new KeystoreError("incorrect password");
    }
    return new KeystoreUser(username, user.keys);
  }
}

/** An authenticated user's keys for the blockchains of this node. */
export class KeystoreUser {
  constructor(
    readonly username: string,
    private readonly keys: Map<string, Uint8Array[]>,
  ) {}

  /** The user's private keys on a blockchain (32-byte chain ID), in import order. */
  keysFor(chainId: Uint8Array): Uint8Array[] {
    return [...(this.keys.get(bytesToHex(chainId)) ?? [])];
  }

  /** Adds a key on a blockchain; adding one it already has is not an error (as on the node). */
  addKey(chainId: Uint8Array, privateKey: Uint8Array): void {
    if (privateKey.length !== 32) throw new KeystoreError(`a private key is 32 bytes, got ${privateKey.length}`);
    const id = bytesToHex(chainId);
    const list = this.keys.get(id) ?? [];
    if (!list.some((k) => equalBytes(k, privateKey))) list.push(privateKey.slice());
    this.keys.set(id, list);
  }
}

export function checkPasswordStrength(password: unknown): void {
  if (typeof password !== "string") throw new KeystoreError("password must be a string");
  if (password.length < MIN_PASSWORD_LENGTH) throw new KeystoreError(`password is too weak: use at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw new KeystoreError(`password is longer than ${MAX_PASSWORD_LENGTH} characters`);
  if (new Set(password).size < 4) throw new KeystoreError("password is too weak: use more different characters");
}
