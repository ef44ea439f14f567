import * as library from "@ethereumjs/rlp";
import { expect } from "chai";
import fc from "fast-check";

import * as replacement from "../../src/encoding/ethereumjs-rlp";
import { encode, RLP, type RlpInput } from "../../src/encoding/ethereumjs-rlp";

/** Byte strings of every length class RLP has: one byte, short (< 56) and long headers. */
const byteString = fc.oneof(
  fc.uint8Array({ minLength: 0, maxLength: 1 }),
  fc.uint8Array({ minLength: 0, maxLength: 60 }),
  fc.integer({ min: 50, max: 300 }).map((length) => new Uint8Array(length).fill(0xab)),
);

/** What ethereumjs' packages encode: byte strings and nested lists of them (a trie's branch node is 17). */
const bytesTree: fc.Arbitrary<RlpInput> = fc.letrec<{ tree: RlpInput }>((tie) => ({
  tree: fc.oneof({ depthSize: "small", withCrossShrink: true }, byteString, fc.array(tie("tree"), { maxLength: 18 })),
})).tree;

/** The other items the library takes: strings (hex or text), numbers, bigints, null and undefined. */
const libraryItem: fc.Arbitrary<RlpInput> = fc.oneof(
  fc.uint8Array({ maxLength: 40 }).map((bytes) => `0x${Buffer.from(bytes).toString("hex")}`),
  fc.string({ maxLength: 70 }),
  fc.nat(),
  fc.bigInt({ min: 0n, max: (1n << 300n) - 1n }),
  fc.constant(null),
  fc.constant(undefined),
);

const anyTree: fc.Arbitrary<RlpInput> = fc.letrec<{ tree: RlpInput }>((tie) => ({
  tree: fc.oneof({ depthSize: "small" }, byteString, libraryItem, fc.array(tie("tree"), { maxLength: 6 })),
})).tree;

/** The error `encode` throws, or undefined. */
function failureOf(encodeWith: (input: RlpInput) => Uint8Array, input: RlpInput): string | undefined {
  try {
    encodeWith(input);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("encoding/ethereumjs-rlp: @ethereumjs/rlp with a one-pass encode", () => {
  it("encodes byte strings and nested lists to the library's bytes", () => {
    fc.assert(
      fc.property(bytesTree, (input) => {
        expect(encode(input)).to.deep.equal(library.encode(input));
      }),
      { numRuns: 400 },
    );
  });

  it("encodes strings, numbers, bigints, null and undefined, alone or in lists, as the library does", () => {
    fc.assert(
      fc.property(anyTree, (input) => {
        expect(encode(input)).to.deep.equal(library.encode(input));
      }),
      { numRuns: 400 },
    );
  });

  it("writes the long headers of payloads of 56 bytes and more, up to lengths of three bytes", () => {
    for (const length of [55, 56, 255, 256, 65_535, 65_536]) {
      const bytes = new Uint8Array(length).fill(7);
      expect(encode(bytes), `a string of ${length} bytes`).to.deep.equal(library.encode(bytes));
      expect(encode([bytes]), `a list holding it`).to.deep.equal(library.encode([bytes]));
    }
  });

  it("encodes a single byte below 0x80 as the same array, as the library does", () => {
    const small = Uint8Array.from([0x7f]);
    expect(encode(small)).to.equal(small);
    expect(library.encode(small)).to.equal(small);
    expect(encode(Uint8Array.from([0x80]))).to.deep.equal(Uint8Array.from([0x81, 0x80]));
  });

  it("refuses what the library refuses, with its message", () => {
    const refused: unknown[] = [-1, [Uint8Array.from([1]), -5], { not: "rlp" }, [[true]]];
    for (const input of refused) {
      const expected = failureOf(library.encode, input as RlpInput);
      expect(expected, `the library refuses ${String(input)}`).to.be.a("string");
      expect(failureOf(encode, input as RlpInput)).to.equal(expected);
    }
  });

  it("gives the package's decode and helpers unchanged, and RLP.encode is the one-pass encode", () => {
    expect(RLP.encode).to.equal(encode);
    expect(RLP.decode).to.equal(library.decode);
    expect(replacement.decode).to.equal(library.decode);
    expect(replacement.utils).to.equal(library.utils);
    const input = [Uint8Array.from([1, 2]), [new Uint8Array(70)]];
    expect(RLP.decode(RLP.encode(input))).to.deep.equal(input);
  });
});
