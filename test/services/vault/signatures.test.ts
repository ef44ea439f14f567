/**
 * The vault's signature scheme and hex fields, rule by rule: what `parseHexField` accepts and
 * refuses, and how `recoverSigner` turns a 65-byte r ‖ s ‖ v signature into the signer's
 * address or refuses it (401), at the boundaries of each rule.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { expect } from "chai";
import { formatChainAddress } from "../../../src/encoding";
import { VaultError } from "../../../src/services/vault/errors";
import { parseHexField, recoverSigner, sha256Hex, toHex } from "../../../src/services/vault/signatures";
import { signHash } from "../../../src/utxo/codec";
import { OWNERS } from "./helpers";
import { syncRefusalOf } from "../../helpers/refusal";

const P_LOCAL = { hrp: "local", chainAlias: "P" };
const N = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
const HALF_N = N / 2n;

const refusal = (run: () => unknown): VaultError => syncRefusalOf(run, VaultError);

/** A signature by `key` over sha256(message), as bytes. */
const sign = (message: Uint8Array, key: Uint8Array) => signHash(sha256(message), key);
const bytesOf = (hex: string) => new Uint8Array(Buffer.from(hex, "hex"));
const u256 = (n: bigint) => bytesOf(n.toString(16).padStart(64, "0"));
/** The first message (`message-<i>`) whose signature by `key` has recovery byte `v`. */
function messageWithRecovery(key: Uint8Array, v: number): Uint8Array {
  for (let i = 0; ; i++) {
    const message = new TextEncoder().encode(`message-${i}`);
    if (sign(message, key)[64] === v) return message;
  }
}

describe("vault signatures: hex fields", () => {
  it("reads hex with a 0x prefix, a 0X prefix or none, in either case", () => {
    for (const value of ["0xab01", "0XAB01", "ab01", "Ab01"]) expect([...parseHexField(value, "f")]).to.deep.equal([0xab, 0x01]);
  });

  it("refuses a missing, empty or non-string value as required (400), naming the field", () => {
    for (const value of [undefined, null, "", 12, ["00"]]) {
      const error = refusal(() => parseHexField(value, "unsignedTx"));
      expect(error.status).to.equal(400);
      expect(error.message).to.equal("unsignedTx is required: a hex string");
    }
  });

  it("refuses digits that are not hex, anywhere in the value", () => {
    for (const value of ["0xzz", "zz00", "00zz", "0x0g", "0x 00", "0x00 "]) {
      const error = refusal(() => parseHexField(value, "outputOwners"));
      expect(error.status).to.equal(400);
      expect(error.message).to.equal("outputOwners is not hex: expected an even number of hex digits, with or without 0x");
    }
  });

  it("refuses an odd number of hex digits", () => {
    expect(refusal(() => parseHexField("0xabc", "f")).message).to.match(/^f is not hex/);
    expect(refusal(() => parseHexField("a", "f")).message).to.match(/^f is not hex/);
  });

  it("needs at least one byte by default: a bare 0x is too short", () => {
    const error = refusal(() => parseHexField("0x", "metadata"));
    expect(error.status).to.equal(400);
    expect(error.message).to.equal("metadata is too short: 0 bytes, at least 1 expected");
    expect([...parseHexField("0x00", "metadata")]).to.deep.equal([0]);
  });

  it("needs at least minBytes bytes when given, and takes exactly that many", () => {
    expect(refusal(() => parseHexField("0x0102", "signedTx", { minBytes: 3 })).message).to.equal("signedTx is too short: 2 bytes, at least 3 expected");
    expect([...parseHexField("0x010203", "signedTx", { minBytes: 3 })]).to.deep.equal([1, 2, 3]);
  });

  it("answers bytes as lowercase hex with 0x", () => {
    expect(toHex(new Uint8Array([0x00, 0xab, 0xff]))).to.equal("0x00abff");
  });

  it("names a transaction by sha256 of its bytes, lowercase hex without prefix", () => {
    expect(sha256Hex(new TextEncoder().encode("abc"))).to.equal("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("vault signatures: recovering the signer", () => {
  const message = new TextEncoder().encode("the signed bytes");

  it("recovers the address of the key that signed sha256 of the message, with the given hrp and chain alias", () => {
    const signature = toHex(sign(message, OWNERS[0]!.key));
    expect(recoverSigner(signature, message, P_LOCAL)).to.equal(OWNERS[0]!.address);
    expect(recoverSigner(signature, message, { hrp: "fuji", chainAlias: "X" })).to.equal(formatChainAddress(OWNERS[0]!.shortId, "fuji", "X"));
  });

  it("recovers another address when the signature is over other bytes (who signed is recovered, never claimed)", () => {
    const signature = toHex(sign(message, OWNERS[0]!.key));
    expect(recoverSigner(signature, new TextEncoder().encode("other bytes"), P_LOCAL)).to.not.equal(OWNERS[0]!.address);
  });

  it("refuses a missing signature as empty (401)", () => {
    for (const value of [undefined, null, ""]) {
      const error = refusal(() => recoverSigner(value, message, P_LOCAL));
      expect(error.status).to.equal(401);
      expect(error.message).to.equal("signature is empty");
    }
  });

  it("refuses a signature that is not hex with 401, not 400", () => {
    const error = refusal(() => recoverSigner("0xzz", message, P_LOCAL));
    expect(error.status).to.equal(401);
    expect(error.code).to.equal("unauthenticated");
    expect(error.message).to.match(/^signature is not hex/);
    expect(refusal(() => recoverSigner(42, message, P_LOCAL)).status).to.equal(401);
  });

  it("refuses a signature of 64 or 66 bytes: it must be 65 (r ‖ s ‖ v)", () => {
    const good = sign(message, OWNERS[0]!.key);
    for (const bytes of [good.subarray(0, 64), new Uint8Array([...good, 0])]) {
      const error = refusal(() => recoverSigner(toHex(bytes), message, P_LOCAL));
      expect(error.status).to.equal(401);
      expect(error.message).to.equal(`signature must be 65 bytes (r ‖ s ‖ v), got ${bytes.length}`);
    }
  });

  it("refuses s above half the group order (high s); s at exactly half is not high", () => {
    const good = sign(message, OWNERS[0]!.key);
    const withS = (s: bigint) => {
      const bytes = new Uint8Array(good);
      bytes.set(u256(s), 32);
      return toHex(bytes);
    };
    const high = refusal(() => recoverSigner(withS(HALF_N + 1n), message, P_LOCAL));
    expect(high.status).to.equal(401);
    expect(high.message).to.equal("signature has a high s value: sign with low s (as RFC 6979 libraries do)");
    // At exactly half the order the signature is low s: it recovers some key (not the signer's).
    expect(recoverSigner(withS(HALF_N), message, P_LOCAL)).to.match(/^P-local1/);
  });

  it("accepts a recovery byte of 0 and of 1", () => {
    for (const v of [0, 1]) {
      const signed = messageWithRecovery(OWNERS[1]!.key, v);
      expect(recoverSigner(toHex(sign(signed, OWNERS[1]!.key)), signed, P_LOCAL)).to.equal(OWNERS[1]!.address);
    }
  });

  it("refuses a recovery byte other than 0 or 1 (2, 3 and 27 included)", () => {
    const good = sign(message, OWNERS[0]!.key);
    for (const v of [2, 3, 27]) {
      const bytes = new Uint8Array(good);
      bytes[64] = v;
      const error = refusal(() => recoverSigner(toHex(bytes), message, P_LOCAL));
      expect(error.status).to.equal(401);
      expect(error.message).to.equal(`signature recovery byte must be 0 or 1, got ${v}`);
    }
  });

  it("refuses a signature from which no key recovers (r = 0) as not verifying (401)", () => {
    const bytes = new Uint8Array(sign(message, OWNERS[0]!.key));
    bytes.fill(0, 0, 32);
    const error = refusal(() => recoverSigner(toHex(bytes), message, P_LOCAL));
    expect(error.status).to.equal(401);
    expect(error.message).to.match(/^signature does not verify: ./);
  });
});
