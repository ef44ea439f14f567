/**
 * The password of the auth API (`--api-auth-password-file`): its rules and its kept form.
 *
 * The password is never kept: only its argon2id hash with a random 16-byte salt (the reference
 * node's parameters: 1 pass, 64 MiB, 4 lanes, 32 bytes). Every hash runs on the password
 * hasher's thread (`argon2-thread.ts`), never on the main thread. Unlike the reference node,
 * the hash does not sign the tokens: whoever read it from the data directory could sign any
 * token (issue 26, item 7); a random key does (`tokens.ts`).
 *
 * Rules, as the reference node applies them: a password has 1 to 1024 characters and a zxcvbn
 * score of at least 2 on its first 50 characters.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { randomBytes, timingSafeEqual } from "node:crypto";

import { argon2Thread, type HashPriority } from "./argon2-thread";
import { AuthError } from "./errors";

export const MAX_AUTH_PASSWORD_LENGTH = 1024;
/** zxcvbn score a password needs (0 to 4): "OK" in the reference node's scale. */
const MIN_AUTH_PASSWORD_SCORE = 2;
/** Only this many leading characters are scored (zxcvbn is slow on long inputs). */
const SCORED_PREFIX_LENGTH = 50;

let strengthMeter: ZxcvbnFactory | undefined;

/** Whether the password scores at least {@link MIN_AUTH_PASSWORD_SCORE} on its first 50 characters. */
export function isStrongEnough(password: string): boolean {
  strengthMeter ??= new ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs });
  return strengthMeter.check([...password].slice(0, SCORED_PREFIX_LENGTH).join("")).score >= MIN_AUTH_PASSWORD_SCORE;
}

/** Refuses a password the auth API may not take as its new password, with the node's words. */
export function checkNewPassword(password: string): void {
  const length = [...password].length;
  if (length === 0) throw new AuthError("empty password");
  if (length > MAX_AUTH_PASSWORD_LENGTH) throw new AuthError(`password exceeds maximum length of ${MAX_AUTH_PASSWORD_LENGTH} chars`);
  if (!isStrongEnough(password)) throw new AuthError("password is too weak");
}

/** A password as the node keeps it: salt and argon2id hash. */
export class PasswordHash {
  private constructor(
    private readonly salt: Uint8Array,
    /** The 32-byte argon2id hash (it checks the password; it signs nothing). */
    readonly key: Uint8Array,
  ) {}

  /** Hashes `password` with a fresh random salt. */
  static async of(password: string): Promise<PasswordHash> {
    const salt = new Uint8Array(randomBytes(16));
    return new PasswordHash(salt, await hash(password, salt));
  }

  /** The 48 bytes a data directory keeps: salt ‖ hash. */
  toBytes(): Uint8Array {
    const bytes = new Uint8Array(this.salt.length + this.key.length);
    bytes.set(this.salt, 0);
    bytes.set(this.key, this.salt.length);
    return bytes;
  }

  static fromBytes(bytes: Uint8Array): PasswordHash {
    if (bytes.length !== 48) throw new RangeError(`a kept password hash has 48 bytes, got ${bytes.length}`);
    return new PasswordHash(bytes.slice(0, 16), bytes.slice(16));
  }

  /**
   * Whether `password` is the one hashed here (compared in constant time). A client's check
   * waits in its line of the hasher's queue, and is refused at once when that line is full.
   */
  async matches(password: string, from: HashPriority = "node"): Promise<boolean> {
    return timingSafeEqual(await argon2Thread.hash(password, this.salt, from), this.key);
  }
}

/** The argon2id hash of `password` with `salt`, on the hasher's thread (also a key derivation). */
export function hash(password: string, salt: Uint8Array): Promise<Uint8Array> {
  return argon2Thread.hash(password, salt);
}
