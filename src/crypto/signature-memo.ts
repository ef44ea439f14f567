/**
 * Signatures already made, kept to be given again.
 *
 * An RFC 6979 signature is a pure function of the key and the digest: the same key signing the
 * same digest always gives the same bytes. A test suite run again sends the same transactions
 * from the same development keys, so a simulator that keeps what it signed, across runs, can
 * answer those transactions without signing them again. Why it matters: libsecp256k1's
 * WebAssembly runs cold in a short test run, about 0.2 ms a signature, some 13 ms of a Hardhat
 * ERC-20 suite's 66 transactions (bench/README.md).
 *
 * Entries are keyed by the signer's address and the digest; no key is ever stored. The memo is
 * bounded: past `limit` entries, the ones used least recently go. Its bytes (`toBytes`,
 * `fromBytes`) carry a SHA-256 of their entries, so a damaged copy is refused whole rather than
 * handing out a wrong signature. Reading them costs little more than the checksum: an entry is
 * decoded only when asked for (a run reads a few hundred and asks for a few dozen).
 */
import { createHash } from "node:crypto";

import type { RecoverableSignature } from "./secp256k1";

/** A memo's bytes: magic and version, then the entry count, the entries, and their SHA-256. */
const MAGIC = Uint8Array.from([0x6e, 0x6b, 0x73, 0x69, 0x67, 0x01]); // "nksig", version 1
const ADDRESS_BYTES = 20;
const DIGEST_BYTES = 32;
/** Address, digest, r, s and the recovery id. */
const ENTRY_BYTES = ADDRESS_BYTES + DIGEST_BYTES + 32 + 32 + 1;
const CHECKSUM_BYTES = 32;
const HEADER_BYTES = MAGIC.length + 4;

/**
 * The default bound: some twenty suites of the ERC-20 benchmark's size (about 120 kB). Reading,
 * looking up and writing grow with it: at this bound, reading a full memo, 60 lookups and
 * writing it took 0.3, 0.6 and 0.5 ms in a fresh Node.js 20 process here (1.5 ms at most for
 * any of them at four times the bound).
 */
export const SIGNATURE_MEMO_LIMIT = 1024;

/** The size of a memo's bytes with `entries` entries: a file larger than this for the bound is not one. */
export function signatureMemoBytes(entries: number): number {
  return HEADER_BYTES + entries * ENTRY_BYTES + CHECKSUM_BYTES;
}

export class SignatureMemo {
  /**
   * Entries read from bytes (`fromBytes`), left as they were read: their offsets by key are
   * indexed at the first lookup, and an entry is decoded only when asked for. A run reads a
   * memo of a few hundred entries and asks for a few dozen of them.
   */
  private stored: Uint8Array | undefined;
  private storedIndex: Map<string, number> | undefined;
  /** Entries given or used since the memo was made or read, by key, the least recently used first. */
  private readonly recent = new Map<string, RecoverableSignature>();
  private added = false;

  constructor(readonly limit: number = SIGNATURE_MEMO_LIMIT) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a signature memo's limit must be a positive integer, got ${limit}`);
  }

  /** How many entries the memo can give now (its bytes keep the last `limit` of them). */
  get size(): number {
    let size = this.recent.size;
    for (const id of this.index().keys()) if (!this.recent.has(id)) size++;
    return size;
  }

  /** Whether an entry was added since the memo was made or read. */
  get changed(): boolean {
    return this.added;
  }

  /** The signature `signer` (a 20-byte address) made of `digest` (32 bytes), if kept: a copy. */
  get(signer: Uint8Array, digest: Uint8Array): RecoverableSignature | undefined {
    const id = keyId(signer, digest);
    let signature = this.recent.get(id);
    if (signature !== undefined) {
      this.recent.delete(id);
    } else {
      const at = this.index().get(id);
      if (at === undefined) return undefined;
      const stored = this.stored!;
      const r = at + ADDRESS_BYTES + DIGEST_BYTES;
      signature = { r: stored.slice(r, r + 32), s: stored.slice(r + 32, r + 64), recovery: stored[r + 64]! };
    }
    this.recent.set(id, signature);
    return { r: signature.r.slice(), s: signature.s.slice(), recovery: signature.recovery };
  }

  /** Keeps the signature `signer` made of `digest`. */
  set(signer: Uint8Array, digest: Uint8Array, signature: RecoverableSignature): void {
    if (signer.length !== ADDRESS_BYTES || digest.length !== DIGEST_BYTES || signature.r.length !== 32 || signature.s.length !== 32) {
      throw new RangeError("a signature memo keeps 20-byte signers, 32-byte digests and 32-byte r and s");
    }
    if (!isRecoveryId(signature.recovery)) throw new RangeError(`a signature's recovery id is 0, 1, 2 or 3, not ${signature.recovery}`);
    const id = keyId(signer, digest);
    this.recent.delete(id);
    this.recent.set(id, { r: signature.r.slice(), s: signature.s.slice(), recovery: signature.recovery });
    this.added = true;
    for (const oldest of this.recent.keys()) {
      if (this.recent.size <= this.limit) break;
      this.recent.delete(oldest);
    }
  }

  /** The memo's entries as bytes, least recently used first: the last `limit` of them. */
  toBytes(): Uint8Array {
    // Read entries not used since, in their order, then the ones used or given, in theirs.
    const older = [...this.index()].filter(([id]) => !this.recent.has(id)).map(([, offset]) => offset);
    const newer = [...this.recent];
    const dropped = Math.max(0, older.length + newer.length - this.limit);
    const olderKept = older.slice(Math.min(dropped, older.length));
    const newerKept = newer.slice(Math.max(0, dropped - older.length));
    const count = olderKept.length + newerKept.length;
    const out = new Uint8Array(HEADER_BYTES + count * ENTRY_BYTES + CHECKSUM_BYTES);
    out.set(MAGIC, 0);
    new DataView(out.buffer).setUint32(MAGIC.length, count);
    let at = HEADER_BYTES;
    for (const offset of olderKept) {
      out.set(this.stored!.subarray(offset, offset + ENTRY_BYTES), at);
      at += ENTRY_BYTES;
    }
    for (const [id, signature] of newerKept) {
      out.set(Buffer.from(id, "latin1"), at);
      out.set(signature.r, at + ADDRESS_BYTES + DIGEST_BYTES);
      out.set(signature.s, at + ADDRESS_BYTES + DIGEST_BYTES + 32);
      out[at + ADDRESS_BYTES + DIGEST_BYTES + 64] = signature.recovery;
      at += ENTRY_BYTES;
    }
    out.set(sha256(out.subarray(0, at)), at);
    return out;
  }

  /** A memo of `bytes` (from `toBytes`); throws on bytes that are not one whole and undamaged. */
  static fromBytes<T extends SignatureMemo>(this: new (limit: number) => T, bytes: Uint8Array, limit: number = SIGNATURE_MEMO_LIMIT): T {
    if (bytes.length < HEADER_BYTES + CHECKSUM_BYTES || !MAGIC.every((byte, i) => bytes[i] === byte)) throw new Error("not a signature memo (or of another version)");
    const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(MAGIC.length);
    const end = HEADER_BYTES + count * ENTRY_BYTES;
    if (bytes.length !== end + CHECKSUM_BYTES) throw new Error(`a signature memo of ${count} entries is ${end + CHECKSUM_BYTES} bytes, not ${bytes.length}`);
    const checksum = sha256(bytes.subarray(0, end));
    if (!checksum.every((byte, i) => bytes[end + i] === byte)) throw new Error("the signature memo's checksum does not match its entries");
    for (let at = HEADER_BYTES + ENTRY_BYTES - 1; at < end; at += ENTRY_BYTES) {
      if (!isRecoveryId(bytes[at]!)) throw new RangeError(`a signature's recovery id is 0, 1, 2 or 3, not ${bytes[at]}`);
    }
    const memo = new this(limit);
    memo.stored = bytes;
    return memo;
  }

  /** The read entries' offsets by key; where a key is there twice, the later one. */
  private index(): Map<string, number> {
    if (this.storedIndex !== undefined) return this.storedIndex;
    const index = new Map<string, number>();
    const stored = this.stored;
    if (stored !== undefined) {
      const buffer = Buffer.from(stored.buffer, stored.byteOffset, stored.length);
      const end = stored.length - CHECKSUM_BYTES;
      for (let at = HEADER_BYTES; at < end; at += ENTRY_BYTES) {
        const id = buffer.toString("latin1", at, at + ADDRESS_BYTES + DIGEST_BYTES);
        index.delete(id);
        index.set(id, at);
      }
    }
    this.storedIndex = index;
    return index;
  }
}

function isRecoveryId(recovery: number): boolean {
  return Number.isInteger(recovery) && recovery >= 0 && recovery <= 3;
}

/** Signer and digest as a string of one character per byte: the key of both maps. */
function keyId(signer: Uint8Array, digest: Uint8Array): string {
  return Buffer.from(signer.buffer, signer.byteOffset, signer.length).toString("latin1") + Buffer.from(digest.buffer, digest.byteOffset, digest.length).toString("latin1");
}

function sha256(bytes: Uint8Array): Uint8Array {
  return createHash("sha256").update(bytes).digest();
}
