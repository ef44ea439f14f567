import { expect } from "chai";
import fc from "fast-check";
import {
  UINT256_MAX,
  bigintToBytes32,
  bytes32ToBigint,
  bytesToHex,
  concatBytes,
  equalBytes,
  hexToBytes,
  isHex,
  readUint256,
  writeUint256,
} from "../../src/encoding";
import { expectEncodingError, mixCase } from "./helpers";

describe("encoding/hex", () => {
  describe("bytesToHex", () => {
    it("writes lowercase hex with a 0x prefix, two digits per byte", () => {
      expect(bytesToHex(new Uint8Array([]))).to.equal("0x");
      expect(bytesToHex(new Uint8Array([0, 1, 0x0f, 0x10, 0xab, 0xff]))).to.equal("0x00010f10abff");
    });

    it("encodes subarray views by their own bytes only", () => {
      const buffer = new Uint8Array([1, 2, 3, 4, 5]);
      expect(bytesToHex(buffer.subarray(1, 3))).to.equal("0x0203");
    });

    it("encodes a long view (Node's native path) by its own bytes, as byte by byte", () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 400 }), fc.nat(8), fc.nat(8), (bytes, head, tail) => {
          const inside = new Uint8Array(head + bytes.length + tail).fill(0xee);
          inside.set(bytes, head);
          const view = inside.subarray(head, head + bytes.length);
          expect(bytesToHex(view)).to.equal(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`);
        }),
      );
    });

    it("rejects non-byte-array input", () => {
      expectEncodingError(() => bytesToHex("0x00" as unknown as Uint8Array), "invalid byte array", "expected a Uint8Array");
    });
  });

  describe("hexToBytes", () => {
    it("parses either case and the empty string 0x", () => {
      expect(hexToBytes("0x")).to.deep.equal(new Uint8Array([]));
      expect(hexToBytes("0x00ABcdEF")).to.deep.equal(new Uint8Array([0x00, 0xab, 0xcd, 0xef]));
    });

    it("round-trips with bytesToHex for any bytes and any letter case", () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 64 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (bytes, upper) => {
          const hex = bytesToHex(bytes);
          expect(hexToBytes(hex)).to.deep.equal(bytes);
          expect(bytesToHex(hexToBytes(mixCase(hex, upper)))).to.equal(hex);
        }),
      );
    });

    it("decodes a long input (Node's native path) to the bytes it spells, in any letter case", () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 400 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (bytes, upper) => {
          const hex = `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
          const decoded = hexToBytes(mixCase(hex, upper));
          expect(decoded).to.deep.equal(bytes);
          expect(decoded.byteOffset).to.equal(0);
          expect(decoded.buffer.byteLength).to.equal(bytes.length);
        }),
      );
    });

    it("refuses a long input with one bad character anywhere, naming it and its position", () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 200 }), fc.nat(), fc.constantFrom(..."gGzx -+\n\u00e9"), (bytes, at, bad) => {
          const hex = bytesToHex(bytes);
          const position = 2 + (at % (hex.length - 2));
          const text = hex.slice(0, position) + bad + hex.slice(position + 1);
          expect(isHex(text)).to.equal(false);
          expectEncodingError(() => hexToBytes(text), `invalid hex character ${JSON.stringify(bad)} at position ${position}`);
        }),
      );
    });

    it("requires the 0x prefix", () => {
      expectEncodingError(() => hexToBytes("abcd"), 'invalid hex string "abcd"', "missing 0x prefix");
      expectEncodingError(() => hexToBytes("0Xabcd"), "missing 0x prefix");
      expectEncodingError(() => hexToBytes(""), "missing 0x prefix");
    });

    it("rejects an odd number of digits", () => {
      expectEncodingError(() => hexToBytes("0xabc"), "odd number of hex digits (3)");
    });

    it("names the first non-hex character and its position", () => {
      expectEncodingError(() => hexToBytes("0xabg0"), 'invalid hex character "g" at position 4');
      expectEncodingError(() => hexToBytes("0x0 "), 'invalid hex character " " at position 3');
      expectEncodingError(() => hexToBytes("0x+1"), 'invalid hex character "+" at position 2');
      expectEncodingError(() => hexToBytes("0x\u00e9a"), "at position 2");
    });

    it("enforces the expected length when given", () => {
      expect(hexToBytes("0x0102", 2)).to.deep.equal(new Uint8Array([1, 2]));
      expectEncodingError(() => hexToBytes("0x0102", 3), "expected 3 bytes (6 hex digits), got 2");
    });

    it("rejects non-string input", () => {
      expectEncodingError(() => hexToBytes(12 as unknown as string), "invalid hex string number 12");
    });

    it("never accepts a string that is not strict hex", () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string({ maxLength: 12 }),
            fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEFgxX -"), maxLength: 12 }).map((s) => `0x${s}`),
          ),
          (text) => {
          const strict = /^0x([0-9a-fA-F]{2})*$/.test(text);
          expect(isHex(text)).to.equal(strict);
          if (strict) expect(bytesToHex(hexToBytes(text))).to.equal(text.toLowerCase());
          else expectEncodingError(() => hexToBytes(text), "invalid hex string");
          },
        ),
      );
    });
  });

  describe("bigintToBytes32 / bytes32ToBigint", () => {
    it("encodes uint256 values big-endian in exactly 32 bytes", () => {
      expect(bytesToHex(bigintToBytes32(0n))).to.equal(`0x${"00".repeat(32)}`);
      expect(bytesToHex(bigintToBytes32(1n))).to.equal(`0x${"00".repeat(31)}01`);
      expect(bytesToHex(bigintToBytes32(0x0102n << 240n))).to.equal(`0x0102${"00".repeat(30)}`);
      expect(bytesToHex(bigintToBytes32(UINT256_MAX))).to.equal(`0x${"ff".repeat(32)}`);
    });

    it("round-trips every uint256 and agrees with BigInt(hex)", () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: UINT256_MAX }), (value) => {
          const bytes = bigintToBytes32(value);
          expect(bytes.length).to.equal(32);
          expect(bytes32ToBigint(bytes)).to.equal(value);
          expect(BigInt(bytesToHex(bytes))).to.equal(value);
        }),
      );
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
          expect(bigintToBytes32(bytes32ToBigint(bytes))).to.deep.equal(bytes);
        }),
      );
    });

    it("rejects negative, oversized and non-bigint values", () => {
      expectEncodingError(() => bigintToBytes32(-1n), "invalid uint256 -1", "negative");
      expectEncodingError(() => bigintToBytes32(1n << 256n), "does not fit in 256 bits");
      expectEncodingError(() => bigintToBytes32(1 as unknown as bigint), "expected a bigint");
    });

    it("requires exactly 32 bytes to decode", () => {
      expectEncodingError(() => bytes32ToBigint(new Uint8Array(31)), "expected 32 bytes, got 31");
      expectEncodingError(() => bytes32ToBigint(new Uint8Array(33)), "expected 32 bytes, got 33");
    });

    it("decodes a 32-byte view at a nonzero offset of a larger buffer", () => {
      const buffer = new Uint8Array(40);
      buffer[3 + 31] = 7;
      expect(bytes32ToBigint(buffer.subarray(3, 35))).to.equal(7n);
    });
  });

  describe("readUint256 / writeUint256", () => {
    it("write then read at any in-bounds offset returns the value and leaves other bytes alone", () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: UINT256_MAX }), fc.integer({ min: 0, max: 16 }), (value, offset) => {
          const buffer = new Uint8Array(48).fill(0xee);
          writeUint256(buffer, offset, value);
          expect(readUint256(buffer, offset)).to.equal(value);
          const untouched = [...buffer.subarray(0, offset), ...buffer.subarray(offset + 32)];
          expect(untouched.every((byte) => byte === 0xee)).to.equal(true);
        }),
      );
    });

    it("rejects a word that does not fit", () => {
      expectEncodingError(() => readUint256(new Uint8Array(40), 9), "offset 9", "does not fit in 40 bytes");
      expectEncodingError(() => writeUint256(new Uint8Array(40), -1, 0n), "offset -1");
      expectEncodingError(() => readUint256(new Uint8Array(40), 1.5), "offset 1.5");
    });
  });

  describe("concatBytes / equalBytes", () => {
    it("concatenates in order and compares by content", () => {
      const joined = concatBytes(new Uint8Array([1]), new Uint8Array([]), new Uint8Array([2, 3]));
      expect(joined).to.deep.equal(new Uint8Array([1, 2, 3]));
      expect(equalBytes(joined, new Uint8Array([1, 2, 3]))).to.equal(true);
      expect(equalBytes(joined, new Uint8Array([1, 2, 4]))).to.equal(false);
      expect(equalBytes(joined, new Uint8Array([1, 2]))).to.equal(false);
    });
  });
});
