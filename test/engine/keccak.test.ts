import { expect } from "chai";
import fc from "fast-check";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { keccak256, loadKeccak } from "../../src/engine/keccak";

describe("the engine's Keccak-256", () => {
  before(async () => {
    await loadKeccak();
  });

  it("agrees with @noble/hashes on inputs of every length up to several blocks", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), (data) => {
        expect(Buffer.from(keccak256(data)).toString("hex")).to.equal(Buffer.from(keccak_256(data)).toString("hex"));
      }),
      { numRuns: 500 },
    );
  });

  it("hashes the empty input to the well-known constant", () => {
    expect(Buffer.from(keccak256(new Uint8Array(0))).toString("hex")).to.equal("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  });
});
