import * as library from "@ethereumjs/rlp";
import { expect } from "chai";
import fc from "fast-check";

import * as replacement from "../../src/encoding/ethereumjs-rlp";
import { decode, encode, RLP, type RlpInput } from "../../src/encoding/ethereumjs-rlp";
import { stdoutOfFreshProcess } from "../helpers/fresh-process";

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

/** What decoding gives: the value, or the error's message. */
function outcomeOf(decodeWith: (input: Uint8Array) => unknown, input: Uint8Array): { value: unknown } | { error: string } {
  try {
    return { value: decodeWith(input) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe("encoding/ethereumjs-rlp: @ethereumjs/rlp with a one-pass encode and decode", () => {
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

  it("decodes what it encodes to the library's values", () => {
    fc.assert(
      fc.property(bytesTree, (input) => {
        const encoded = encode(input);
        expect(decode(encoded)).to.deep.equal(library.decode(encoded));
      }),
      { numRuns: 200 },
    );
  });

  it("decodes any bytes as the library does: the same value, or the same refusal", () => {
    // Encodings with bytes changed, cut or added, and plain noise: every check the library makes.
    const damaged = fc.tuple(bytesTree, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("change", "cut", "add", "noise"), fc.uint8Array({ maxLength: 80 }));
    fc.assert(
      fc.property(damaged, ([tree, at, byte, how, noise]) => {
        const encoded = encode(tree).slice();
        let input: Uint8Array;
        if (how === "noise") input = noise;
        else if (how === "cut") input = encoded.subarray(0, encoded.length === 0 ? 0 : at % encoded.length);
        else if (how === "add") input = Uint8Array.from([...encoded, byte]);
        else {
          if (encoded.length > 0) encoded[at % encoded.length] = byte;
          input = encoded;
        }
        expect(outcomeOf(decode, input)).to.deep.equal(outcomeOf(library.decode, input));
      }),
      { numRuns: 1_000 },
    );
  });

  it("refuses each malformed encoding with the library's message", () => {
    // Each complete but for the one fault named, so that only that check can refuse it.
    const malformed = [
      [0x81, 0x05], // a single byte below 0x80 with a prefix
      [0x83, 0x01], // a string longer than the bytes left
      [0xb8, 0x05, 1, 2, 3, 4, 5], // a long-form string whose length is under 56
      [0xb9, 0x00, 0x40, ...new Array<number>(64).fill(1)], // a string length with a leading zero
      [0xb8], // no bytes for the length
      [0xc3, 0x01], // a list longer than the bytes left
      [0xf8, 0x02, 0x01, 0x02], // a long-form list whose length is under 56
      [0xf9, 0x00, 0x40, ...new Array<number>(64).fill(1)], // a list length with a leading zero
      [0x01, 0x02], // bytes left over
    ];
    for (const bytes of malformed) {
      const input = Uint8Array.from(bytes);
      const expected = outcomeOf(library.decode, input);
      expect(expected, `the library refuses ${bytes}`).to.have.property("error");
      expect(outcomeOf(decode, input), `${bytes}`).to.deep.equal(expected);
    }
  });

  it("decodes lists nested deeper than its own call stack allows as the library does", function () {
    this.timeout(60_000);
    // In a fresh process, as a request meets it: nothing optimised yet, so the one-pass reader's
    // frames are larger than the library's and it fails some way short of the deepest nesting the
    // library reads. Checked a tenth short of that depth, where the library surely reads, and
    // where neither does.
    const script = `
      const library = require("@ethereumjs/rlp");
      const { decode } = require("./src/encoding/ethereumjs-rlp");
      const longListHeader = (length) => { const bytes = []; for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256); return Uint8Array.from([0xf7 + bytes.length, ...bytes]); };
      const nested = (depth) => { const headers = []; let length = 1; for (let d = 0; d < depth; d++) { const header = length < 56 ? Uint8Array.of(0xc0 + length) : longListHeader(length); headers.push(header); length += header.length; } const out = new Uint8Array(length); let at = 0; for (let d = headers.length - 1; d >= 0; d--) { out.set(headers[d], at); at += headers[d].length; } out[at] = 0xc0; return out; };
      const outcome = (read, depth) => { try { let value = read(nested(depth)); let levels = 0; while (Array.isArray(value) && value.length === 1) { value = value[0]; levels++; } return { levels }; } catch (e) { return { error: e.message }; } };
      let deepest = 100, tooDeep = 100000;
      while (tooDeep - deepest > 20) { const middle = Math.floor((deepest + tooDeep) / 2); if ("levels" in outcome(library.decode, middle)) deepest = middle; else tooDeep = middle; }
      const depths = [1000, Math.floor(deepest * 0.9), tooDeep * 2];
      process.stdout.write(JSON.stringify(depths.map((depth) => ({ depth, ours: outcome(decode, depth), library: outcome(library.decode, depth) }))));
    `;
    const out = stdoutOfFreshProcess(script);
    const results = JSON.parse(out) as { depth: number; ours: unknown; library: unknown }[];
    expect(results[1]!.library, "the library reads the middle depth").to.have.property("levels");
    expect(results[2]!.library, "and not the last").to.have.property("error");
    for (const { depth, ours, library: theirs } of results) expect(ours, `${depth} levels`).to.deep.equal(theirs);
  });

  it("gives fresh copies: changing the input afterwards changes no decoded value", () => {
    const input = encode([Uint8Array.from([1, 2, 3]), [new Uint8Array(60).fill(9)]]).slice();
    const decoded = decode(input) as [Uint8Array, Uint8Array[]];
    input.fill(0);
    expect(decoded[0]).to.deep.equal(Uint8Array.from([1, 2, 3]));
    expect(decoded[1]![0]).to.deep.equal(new Uint8Array(60).fill(9));
  });

  it("leaves streaming, strings and empty input to the library's decode", () => {
    const encoded = encode([Uint8Array.from([1])]);
    const streamed = Uint8Array.from([...encoded, 0x05]);
    expect(decode(streamed, true)).to.deep.equal(library.decode(streamed, true));
    expect(decode("0xc20102")).to.deep.equal(library.decode("0xc20102"));
    expect(decode(new Uint8Array(0))).to.deep.equal(library.decode(new Uint8Array(0)));
    expect(decode(null)).to.deep.equal(library.decode(null));
  });

  it("gives the package's helpers unchanged, and RLP is the one-pass encode and decode", () => {
    expect(RLP.encode).to.equal(encode);
    expect(RLP.decode).to.equal(decode);
    expect(replacement.utils).to.equal(library.utils);
    expect(replacement.EthereumJSErrorWithoutCode).to.equal(library.EthereumJSErrorWithoutCode);
  });
});
