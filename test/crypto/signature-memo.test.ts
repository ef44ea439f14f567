import { createHash } from "node:crypto";

import { expect } from "chai";
import fc from "fast-check";

import { signDigest } from "../../src/crypto/secp256k1";
import { SignatureMemo } from "../../src/crypto/signature-memo";

const KEY = Uint8Array.from(Buffer.from("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80", "hex"));
const SIGNER = Uint8Array.from(Buffer.from("f39fd6e51aad88f6f4ce6ab8827279cfffb92266", "hex"));
const digestOf = (n: number) => new Uint8Array(32).fill(n);

describe("crypto/signature-memo: signatures kept to be given again", () => {
  it("gives back the signature kept for a signer and digest, and nothing for another signer or digest", () => {
    const memo = new SignatureMemo();
    const signature = signDigest(digestOf(1), KEY);
    memo.set(SIGNER, digestOf(1), signature);
    expect(memo.get(SIGNER, digestOf(1))).to.deep.equal(signature);
    expect(memo.get(SIGNER, digestOf(2))).to.equal(undefined);
    expect(memo.get(new Uint8Array(20), digestOf(1))).to.equal(undefined);
  });

  it("hands out copies: changing what it gave or what it was given changes nothing kept", () => {
    const memo = new SignatureMemo();
    const signature = signDigest(digestOf(1), KEY);
    const kept = { r: signature.r.slice(), s: signature.s.slice(), recovery: signature.recovery };
    memo.set(SIGNER, digestOf(1), kept);
    kept.r.fill(0);
    memo.get(SIGNER, digestOf(1))!.s.fill(0);
    expect(memo.get(SIGNER, digestOf(1))).to.deep.equal(signature);
  });

  it("keeps at most its limit, dropping the entry used least recently", () => {
    const memo = new SignatureMemo(2);
    const signature = signDigest(digestOf(1), KEY);
    memo.set(SIGNER, digestOf(1), signature);
    memo.set(SIGNER, digestOf(2), signature);
    memo.get(SIGNER, digestOf(1));
    memo.set(SIGNER, digestOf(3), signature);
    expect(memo.size).to.equal(2);
    expect(memo.get(SIGNER, digestOf(2)), "least recently used").to.equal(undefined);
    expect(memo.get(SIGNER, digestOf(1))).to.not.equal(undefined);
    expect(memo.get(SIGNER, digestOf(3))).to.not.equal(undefined);
  });

  it("writes, after reading, the entries it did not use before the ones it used, keeping the last of them to its limit", () => {
    const memo = new SignatureMemo();
    for (const n of [1, 2, 3]) memo.set(SIGNER, digestOf(n), signDigest(digestOf(n), KEY));
    const read = SignatureMemo.fromBytes(memo.toBytes(), 2);
    expect(read.size, "all it read can be given").to.equal(3);
    read.get(SIGNER, digestOf(1));
    const written = SignatureMemo.fromBytes(read.toBytes());
    expect(written.size).to.equal(2);
    expect(written.get(SIGNER, digestOf(2)), "the oldest entry unused").to.equal(undefined);
    expect(written.get(SIGNER, digestOf(3))).to.deep.equal(signDigest(digestOf(3), KEY));
    expect(written.get(SIGNER, digestOf(1))).to.deep.equal(signDigest(digestOf(1), KEY));
  });

  it("says whether anything was added since it was made or read", () => {
    const memo = new SignatureMemo();
    expect(memo.changed).to.equal(false);
    memo.set(SIGNER, digestOf(1), signDigest(digestOf(1), KEY));
    expect(memo.changed).to.equal(true);
    const read = SignatureMemo.fromBytes(memo.toBytes());
    expect(read.changed).to.equal(false);
    read.get(SIGNER, digestOf(1));
    expect(read.changed, "a lookup adds nothing").to.equal(false);
  });

  it("reads back from its bytes every entry, in the same order of use", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 0, max: 3 })), { maxLength: 20 }), (entries) => {
        const memo = new SignatureMemo(8);
        for (const [signer, digest, recovery] of entries) memo.set(signer, digest, { r: digest.slice().reverse(), s: digest, recovery });
        expect(memo.size).to.be.at.most(8);
        const read = SignatureMemo.fromBytes(memo.toBytes(), 8);
        expect(read.size).to.equal(memo.size);
        expect(read.toBytes()).to.deep.equal(memo.toBytes());
        for (const [signer, digest] of entries) expect(read.get(signer, digest)).to.deep.equal(memo.get(signer, digest));
      }),
      { numRuns: 100 },
    );
  });

  it("refuses bytes that are not a whole, undamaged memo", () => {
    const memo = new SignatureMemo();
    memo.set(SIGNER, digestOf(1), signDigest(digestOf(1), KEY));
    const bytes = memo.toBytes();
    const flipped = bytes.slice();
    flipped[40] = flipped[40]! ^ 1;
    // A recovery id of 9 under a checksum that matches it.
    const badRecovery = bytes.slice();
    badRecovery[10 + 20 + 32 + 64] = 9;
    badRecovery.set(createHash("sha256").update(badRecovery.subarray(0, badRecovery.length - 32)).digest(), badRecovery.length - 32);
    const cases: [string, Uint8Array, RegExp][] = [
      ["empty", new Uint8Array(0), /not a signature memo/],
      ["another format", Uint8Array.from(Buffer.from("not a memo at all, but long enough to have a header and a checksum")), /not a signature memo/],
      ["cut short", bytes.subarray(0, bytes.length - 1), /entries is \d+ bytes, not \d+/],
      ["a byte changed", flipped, /checksum does not match/],
      ["a recovery id above 3", badRecovery, /recovery id is 0, 1, 2 or 3, not 9/],
    ];
    for (const [what, input, message] of cases) expect(() => SignatureMemo.fromBytes(input), what).to.throw(message);
  });

  it("refuses entries of the wrong sizes, a recovery id above 3 and a limit that is not a positive integer", () => {
    const memo = new SignatureMemo();
    const signature = signDigest(digestOf(1), KEY);
    expect(() => memo.set(SIGNER.subarray(1), digestOf(1), signature)).to.throw(RangeError);
    expect(() => memo.set(SIGNER, digestOf(1).subarray(1), signature)).to.throw(RangeError);
    expect(() => memo.set(SIGNER, digestOf(1), { ...signature, recovery: 4 })).to.throw(RangeError);
    expect(() => new SignatureMemo(0)).to.throw(RangeError);
    expect(() => new SignatureMemo(1.5)).to.throw(RangeError);
  });
});
