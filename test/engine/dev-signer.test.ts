import { expect } from "chai";
import fc from "fast-check";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { signWithPublicTestKey } from "../../src/engine/dev-signer";

describe("the unlocked accounts' signer", () => {
  it("produces low-s signatures that verify and recover to the signing key", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 48, maxLength: 48 }), (digest, seed) => {
        const key = secp256k1.utils.randomSecretKey(seed);
        const bytes = signWithPublicTestKey(digest, key);
        const signature = secp256k1.Signature.fromBytes(bytes, "recovered");
        expect(signature.hasHighS()).to.equal(false);
        expect(secp256k1.verify(bytes.subarray(1), digest, secp256k1.getPublicKey(key), { prehash: false })).to.equal(true);
        const recovered = signature.recoverPublicKey(digest).toBytes(true);
        expect(Buffer.from(recovered).toString("hex")).to.equal(Buffer.from(secp256k1.getPublicKey(key, true)).toString("hex"));
      }),
      { numRuns: 200 },
    );
  });

  it("is deterministic: the same digest and key give the same signature", () => {
    const key = secp256k1.utils.randomSecretKey();
    const digest = new Uint8Array(32).fill(7);
    expect(signWithPublicTestKey(digest, key)).to.deep.equal(signWithPublicTestKey(digest, key));
  });
});
