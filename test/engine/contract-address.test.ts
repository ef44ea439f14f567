import { expect } from "chai";
import fc from "fast-check";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bigIntToBytes, bytesToHex, generateAddress, generateAddress2 } from "@ethereumjs/util";
import { create2ContractAddress, createdContractAddress } from "../../src/engine/contract-address";
import { loadKeccak } from "../../src/engine/keccak";
import { TOMBSTONE_CODE_HASH } from "../../src/engine/fork/forked-state";

describe("contract addresses through the engine's Keccak", () => {
  before(async () => {
    await loadKeccak();
  });

  it("gives CREATE the address ethereumjs gives, for nonces from zero to beyond 64 bits", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.bigInt({ min: 0n, max: 2n ** 72n }), (sender, nonce) => {
        expect(createdContractAddress(sender, nonce).toString()).to.equal(bytesToHex(generateAddress(sender, bigIntToBytes(nonce))));
      }),
      { numRuns: 300 },
    );
  });

  it("gives CREATE2 the address ethereumjs gives, for any salt and init code", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 300 }), (sender, salt, code) => {
        expect(create2ContractAddress(sender, salt, code).toString()).to.equal(bytesToHex(generateAddress2(sender, salt, code)));
      }),
      { numRuns: 300 },
    );
  });

  it("the fork's tombstone code hash is keccak256 of its text, as written out", () => {
    expect(bytesToHex(TOMBSTONE_CODE_HASH)).to.equal(bytesToHex(keccak_256(new TextEncoder().encode("nativekit:deleted-account"))));
  });
});
