import { expect } from "chai";
import fc from "fast-check";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bigIntToUnpaddedBytes, ecrecover as referenceEcrecover } from "@ethereumjs/util";

import { ecrecover, ecsign } from "../../src/engine/ecdsa";

// ethereumjs' own noble-based functions are the oracle for the customCrypto hooks.
const digestArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
const keyArb = fc.uint8Array({ minLength: 48, maxLength: 48 }).map((seed) => secp256k1.utils.randomSecretKey(seed));
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const sign = (digest: Uint8Array, key: Uint8Array, extraEntropy: boolean | Uint8Array = false) =>
  (ecsign as unknown as (d: Uint8Array, k: Uint8Array, o: { extraEntropy: boolean | Uint8Array }) => Uint8Array)(digest, key, { extraEntropy });

describe("the engine's ECDSA hooks for ethereumjs", () => {
  it("ecsign returns noble's 'recovered' layout (recovery id, r, s) with the same deterministic bytes", () => {
    fc.assert(
      fc.property(digestArb, keyArb, (digest, key) => {
        expect(hex(sign(digest, key))).to.equal(hex(secp256k1.sign(digest, key, { prehash: false, format: "recovered", extraEntropy: false })));
      }),
      { numRuns: 100 },
    );
  });

  it("ecsign with extraEntropy true signs with a fresh nonce each time, still recoverable", () => {
    const digest = new Uint8Array(32).fill(9);
    const key = secp256k1.utils.randomSecretKey();
    const [a, b] = [sign(digest, key, true), sign(digest, key, true)];
    expect(hex(a)).not.to.equal(hex(b));
    for (const bytes of [a, b]) {
      expect(hex(secp256k1.Signature.fromBytes(bytes, "recovered").recoverPublicKey(digest).toBytes(true))).to.equal(hex(secp256k1.getPublicKey(key, true)));
    }
  });

  it("ecrecover agrees with ethereumjs for v = 0/1, 27/28 and EIP-155 v, with unpadded r and s", () => {
    fc.assert(
      fc.property(digestArb, keyArb, fc.bigInt({ min: 1n, max: 2n ** 40n }), fc.constantFrom("typed", "legacy", "eip155"), (digest, key, chainId, style) => {
        const bytes = sign(digest, key);
        const recovery = BigInt(bytes[0]!);
        const r = bigIntToUnpaddedBytes(BigInt("0x" + hex(bytes.subarray(1, 33))));
        const s = bigIntToUnpaddedBytes(BigInt("0x" + hex(bytes.subarray(33))));
        const [v, id] = style === "typed" ? [recovery, undefined] : style === "legacy" ? [recovery + 27n, undefined] : [recovery + 35n + 2n * chainId, chainId];
        const ours = ecrecover(digest, v, r, s, id);
        expect(hex(ours)).to.equal(hex(referenceEcrecover(digest, v, r, s, id)));
        expect(hex(ours)).to.equal(hex(secp256k1.getPublicKey(key, false).subarray(1)));
      }),
      { numRuns: 100 },
    );
  });

  it("ecrecover rejects a v that is no recovery id for the chain, and r or s longer than 32 bytes", () => {
    const digest = new Uint8Array(32).fill(3);
    const bytes = sign(digest, secp256k1.utils.randomSecretKey());
    const [r, s] = [bytes.subarray(1, 33), bytes.subarray(33)];
    for (const [v, chainId] of [[2n, undefined], [29n, undefined], [27n, 1n], [39n, 1n]] as const) {
      expect(() => ecrecover(digest, v, r, s, chainId), `v ${v}`).to.throw(/v value/);
    }
    expect(() => ecrecover(digest, 27n, new Uint8Array([1, ...r]), s)).to.throw(/longer than 32 bytes/);
  });
});
