/**
 * The tokens' signing key as a data directory keeps it: encrypted (AES-256-GCM) under a key
 * derived from the node's startup password (argon2id with a salt of its own), never in clear.
 *
 * Why not in clear: whoever reads the directory (a backup, a copy, a mistaken permission) would
 * sign any token with it, which is what the kept password hash allowed before (issue 26, item
 * 7). Why kept at all: tokens made before a restart stayed valid on a node with a data directory,
 * and still do. The node knows its startup password (its password file) at each start, and
 * the directory is read only when that password is still the one it was started with
 * (`kept-auth.ts`), so it can always open the key; a reader of the directory alone cannot
 * without guessing the password, one argon2id (64 MiB) per guess.
 *
 * Kept bytes: salt (16) ‖ nonce (12) ‖ tag (16) ‖ encrypted key (32).
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

import { hash } from "./password";
import { SIGNING_KEY_BYTES } from "./tokens";

const SALT_BYTES = 16;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEPT_BYTES = SALT_BYTES + NONCE_BYTES + TAG_BYTES + SIGNING_KEY_BYTES;
/** Bound to the ciphertext: these bytes open only as what they were written as. */
const CONTEXT = Buffer.from("nativekit auth signing key v1", "utf8");

/** Seals and opens signing keys under one startup password. */
export class SigningKeyWrap {
  private constructor(
    private readonly salt: Uint8Array,
    private readonly key: Uint8Array,
  ) {}

  /** A wrap for `password` with a new salt. */
  static async fresh(password: string): Promise<SigningKeyWrap> {
    const salt = new Uint8Array(randomBytes(SALT_BYTES));
    return new SigningKeyWrap(salt, await hash(password, salt));
  }

  /** The wrap that `kept` was sealed with, when it was sealed under `password`. */
  static async of(password: string, kept: Uint8Array): Promise<SigningKeyWrap | undefined> {
    if (kept.length !== KEPT_BYTES) return undefined;
    const salt = kept.slice(0, SALT_BYTES);
    return new SigningKeyWrap(salt, await hash(password, salt));
  }

  /** The kept bytes of `signingKey` (a new nonce each time). */
  seal(signingKey: Uint8Array): Uint8Array {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    cipher.setAAD(CONTEXT);
    const sealed = Buffer.concat([cipher.update(signingKey), cipher.final()]);
    return new Uint8Array(Buffer.concat([this.salt, nonce, cipher.getAuthTag(), sealed]));
  }

  /** The signing key in `kept`, or undefined when it does not open under this wrap (changed bytes). */
  open(kept: Uint8Array): Uint8Array | undefined {
    if (kept.length !== KEPT_BYTES) return undefined;
    let offset = SALT_BYTES;
    const nonce = kept.subarray(offset, (offset += NONCE_BYTES));
    const tag = kept.subarray(offset, (offset += TAG_BYTES));
    const sealed = kept.subarray(offset);
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, nonce);
      decipher.setAAD(CONTEXT);
      decipher.setAuthTag(tag);
      return new Uint8Array(Buffer.concat([decipher.update(sealed), decipher.final()]));
    } catch {
      return undefined;
    }
  }
}
