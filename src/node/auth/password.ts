/**
 * The password of the auth API (`--api-auth-password-file`): its rules and the key it yields.
 *
 * The password is never kept: only its argon2id hash with a random 16-byte salt (the reference
 * node's parameters: 1 pass, 64 MiB, 4 lanes, 32 bytes). That hash is also the HMAC key that
 * signs the API's tokens, so a new password (or a new salt, at each start) invalidates every
 * token signed before.
 *
 * Rules, as the reference node applies them: a password has 1 to 1024 characters and a zxcvbn
 * score of at least 2 on its first 50 characters.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { argon2id } from "hash-wasm";
import { randomBytes, timingSafeEqual } from "node:crypto";

import { AuthError } from "./errors";

export const MAX_AUTH_PASSWORD_LENGTH = 1024;
/** zxcvbn score a password needs (0 to 4): "OK" in the reference node's scale. */
export const MIN_AUTH_PASSWORD_SCORE = 2;
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
    /** The 32-byte hash: also the HMAC key of the tokens signed under this password. */
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

  /** Whether `password` is the one hashed here (compared in constant time). */
  async matches(password: string): Promise<boolean> {
    return timingSafeEqual(await hash(password, this.salt), this.key);
  }
}

function hash(password: string, salt: Uint8Array): Promise<Uint8Array> {
  return argon2id({ password, salt, iterations: 1, memorySize: 64 * 1024, parallelism: 4, hashLength: 32, outputType: "binary" });
}
