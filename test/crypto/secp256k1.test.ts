import { expect } from "chai";
import fc from "fast-check";
import { secp256k1 } from "@noble/curves/secp256k1.js";

import { publicKeyOf, recoverPublicKey, signDigest } from "../../src/crypto/secp256k1";

// noble's pure-JS curve is the oracle: the WebAssembly libsecp256k1 must agree with it byte for byte.
const digestArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
const keyArb = fc.uint8Array({ minLength: 48, maxLength: 48 }).map((seed) => secp256k1.utils.randomSecretKey(seed));
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const N = secp256k1.Point.Fn.ORDER;

describe("secp256k1 (libsecp256k1 in WebAssembly)", () => {
  it("signDigest gives noble's RFC 6979 low-s signature and recovery id, byte for byte", () => {
    fc.assert(
      fc.property(digestArb, keyArb, (digest, key) => {
        const ours = signDigest(digest, key);
        const reference = secp256k1.sign(digest, key, { prehash: false, format: "recovered", extraEntropy: false });
        expect(ours.recovery).to.equal(reference[0]);
        expect(hex(ours.r) + hex(ours.s)).to.equal(hex(reference.subarray(1)));
      }),
      { numRuns: 200 },
    );
  });

  it("signDigest with extra entropy still gives a valid signature of the same key", () => {
    fc.assert(
      fc.property(digestArb, keyArb, digestArb, (digest, key, entropy) => {
        const { r, s, recovery } = signDigest(digest, key, entropy);
        const rs = new Uint8Array([...r, ...s]);
        expect(secp256k1.verify(rs, digest, secp256k1.getPublicKey(key), { prehash: false })).to.equal(true);
        expect(hex(recoverPublicKey(digest, rs, recovery, true))).to.equal(hex(secp256k1.getPublicKey(key, true)));
      }),
      { numRuns: 50 },
    );
  });

  it("recoverPublicKey returns the signer's key, compressed or not, and accepts a high s", () => {
    fc.assert(
      fc.property(digestArb, keyArb, (digest, key) => {
        const { r, s, recovery } = signDigest(digest, key);
        const rs = new Uint8Array([...r, ...s]);
        expect(hex(recoverPublicKey(digest, rs, recovery, false))).to.equal(hex(secp256k1.getPublicKey(key, false)));
        // The same signature with s negated and the parity flipped recovers the same key.
        const highS = new Uint8Array(64);
        highS.set(r);
        highS.set(secp256k1.Point.Fn.toBytes(N - BigInt("0x" + hex(s))), 32);
        expect(hex(recoverPublicKey(digest, highS, recovery ^ 1, true))).to.equal(hex(secp256k1.getPublicKey(key, true)));
      }),
      { numRuns: 100 },
    );
  });

  it("recoverPublicKey rejects r or s of zero, r or s at the group order, and a recovery id above 3", () => {
    const digest = new Uint8Array(32).fill(1);
    const { r, s } = signDigest(digest, secp256k1.utils.randomSecretKey());
    const order = secp256k1.Point.Fn.toBytes(N);
    const zero = new Uint8Array(32);
    for (const rs of [[zero, s], [r, zero], [order, s], [r, order]] as const) {
      expect(() => recoverPublicKey(digest, new Uint8Array([...rs[0], ...rs[1]]), 0, true)).to.throw(/invalid signature/);
    }
    expect(() => recoverPublicKey(digest, new Uint8Array([...r, ...s]), 4, true)).to.throw(/recovery id 4/);
  });

  it("publicKeyOf matches noble for compressed and uncompressed keys, and rejects zero", () => {
    fc.assert(
      fc.property(keyArb, (key) => {
        expect(hex(publicKeyOf(key, true))).to.equal(hex(secp256k1.getPublicKey(key, true)));
        expect(hex(publicKeyOf(key, false))).to.equal(hex(secp256k1.getPublicKey(key, false)));
      }),
      { numRuns: 50 },
    );
    expect(() => publicKeyOf(new Uint8Array(32), true)).to.throw();
  });
});
