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
 * handing out a wrong signature.
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

/** The default bound: some sixty suites of the ERC-20 benchmark's size. */
export const SIGNATURE_MEMO_LIMIT = 4096;

interface Entry {
  readonly key: Uint8Array;
  readonly signature: RecoverableSignature;
}

export class SignatureMemo {
  /** By hex of address and digest; a Map keeps insertion order, which `get` renews: the first is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private added = false;

  constructor(readonly limit: number = SIGNATURE_MEMO_LIMIT) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a signature memo's limit must be a positive integer, got ${limit}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether an entry was added since the memo was made or read. */
  get changed(): boolean {
    return this.added;
  }

  /** The signature `signer` (a 20-byte address) made of `digest` (32 bytes), if kept: a copy. */
  get(signer: Uint8Array, digest: Uint8Array): RecoverableSignature | undefined {
    const id = keyId(signer, digest);
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    const { r, s, recovery } = entry.signature;
    return { r: r.slice(), s: s.slice(), recovery };
  }

  /** Keeps the signature `signer` made of `digest`. */
  set(signer: Uint8Array, digest: Uint8Array, signature: RecoverableSignature): void {
    if (signer.length !== ADDRESS_BYTES || digest.length !== DIGEST_BYTES || signature.r.length !== 32 || signature.s.length !== 32) {
      throw new RangeError("a signature memo keeps 20-byte signers, 32-byte digests and 32-byte r and s");
    }
    if (!Number.isInteger(signature.recovery) || signature.recovery < 0 || signature.recovery > 3) {
      throw new RangeError(`a signature's recovery id is 0, 1, 2 or 3, not ${signature.recovery}`);
    }
    const key = new Uint8Array(ADDRESS_BYTES + DIGEST_BYTES);
    key.set(signer, 0);
    key.set(digest, ADDRESS_BYTES);
    const id = keyId(signer, digest);
    this.entries.delete(id);
    this.entries.set(id, { key, signature: { r: signature.r.slice(), s: signature.s.slice(), recovery: signature.recovery } });
    this.added = true;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(oldest);
    }
  }

  /** The memo's entries as bytes, least recently used first. */
  toBytes(): Uint8Array {
    const count = this.entries.size;
    const out = new Uint8Array(MAGIC.length + 4 + count * ENTRY_BYTES + CHECKSUM_BYTES);
    out.set(MAGIC, 0);
    new DataView(out.buffer).setUint32(MAGIC.length, count);
    let at = MAGIC.length + 4;
    for (const { key, signature } of this.entries.values()) {
      out.set(key, at);
      out.set(signature.r, at + key.length);
      out.set(signature.s, at + key.length + 32);
      out[at + key.length + 64] = signature.recovery;
      at += ENTRY_BYTES;
    }
    out.set(sha256(out.subarray(0, at)), at);
    return out;
  }

  /** A memo of `bytes` (from `toBytes`); throws on bytes that are not one whole and undamaged. */
  static fromBytes<T extends SignatureMemo>(this: new (limit: number) => T, bytes: Uint8Array, limit: number = SIGNATURE_MEMO_LIMIT): T {
    const header = MAGIC.length + 4;
    if (bytes.length < header + CHECKSUM_BYTES || !MAGIC.every((byte, i) => bytes[i] === byte)) throw new Error("not a signature memo (or of another version)");
    const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(MAGIC.length);
    const end = header + count * ENTRY_BYTES;
    if (bytes.length !== end + CHECKSUM_BYTES) throw new Error(`a signature memo of ${count} entries is ${end + CHECKSUM_BYTES} bytes, not ${bytes.length}`);
    const checksum = sha256(bytes.subarray(0, end));
    if (!checksum.every((byte, i) => bytes[end + i] === byte)) throw new Error("the signature memo's checksum does not match its entries");
    const memo = new this(limit);
    for (let at = header; at < end; at += ENTRY_BYTES) {
      memo.set(bytes.subarray(at, at + ADDRESS_BYTES), bytes.subarray(at + ADDRESS_BYTES, at + ADDRESS_BYTES + DIGEST_BYTES), {
        r: bytes.subarray(at + ADDRESS_BYTES + DIGEST_BYTES, at + ADDRESS_BYTES + DIGEST_BYTES + 32),
        s: bytes.subarray(at + ADDRESS_BYTES + DIGEST_BYTES + 32, at + ADDRESS_BYTES + DIGEST_BYTES + 64),
        recovery: bytes[at + ADDRESS_BYTES + DIGEST_BYTES + 64]!,
      });
    }
    memo.added = false;
    return memo;
  }
}

function keyId(signer: Uint8Array, digest: Uint8Array): string {
  return Buffer.from(signer.buffer, signer.byteOffset, signer.length).toString("hex") + Buffer.from(digest.buffer, digest.byteOffset, digest.length).toString("hex");
}

function sha256(bytes: Uint8Array): Uint8Array {
  return createHash("sha256").update(bytes).digest();
}
