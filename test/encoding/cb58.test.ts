import { expect } from "chai";
import fc from "fast-check";
import { base58 } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";
import { CB58_MAX_PAYLOAD_BYTES, bytesToHex, decodeCb58, encodeCb58, hexToBytes, isCb58 } from "../../src/encoding";
import { base58DecodeLarge, base58EncodeLarge } from "../../src/encoding/cb58";
import { expectEncodingError } from "./helpers";

const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Payloads biased towards leading zero bytes, which base58 writes as leading "1"s. */
const payload = (maxLength: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: 3 }), fc.uint8Array({ maxLength }))
    .map(([zeros, rest]) => new Uint8Array([...new Uint8Array(zeros), ...rest]));

describe("encoding/cb58", () => {
  describe("known vectors", () => {
    it("32 zero bytes <-> 11111111111111111111111111111111LpoYY", () => {
      expect(encodeCb58(new Uint8Array(32))).to.equal("11111111111111111111111111111111LpoYY");
      expect(decodeCb58("11111111111111111111111111111111LpoYY")).to.deep.equal(new Uint8Array(32));
    });

    it("the local-network test private key <-> its published cb58 body", () => {
      const key = hexToBytes("0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027");
      expect(encodeCb58(key)).to.equal("ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN");
      expect(decodeCb58("ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN")).to.deep.equal(key);
    });

    it("is base58 of the payload followed by the last 4 bytes of its sha256", () => {
      fc.assert(
        fc.property(payload(64), (bytes) => {
          const checked = new Uint8Array([...bytes, ...sha256(bytes).subarray(28)]);
          expect(encodeCb58(bytes)).to.equal(base58.encode(checked));
        }),
      );
    });
  });

  describe("round trips", () => {
    it("decodeCb58(encodeCb58(bytes)) returns the bytes, including empty and zero-prefixed ones", () => {
      fc.assert(
        fc.property(payload(80), (bytes) => {
          expect(decodeCb58(encodeCb58(bytes))).to.deep.equal(bytes);
        }),
      );
    });

    it("encodeCb58(decodeCb58(text)) returns the text for every valid cb58 string", () => {
      fc.assert(
        fc.property(payload(40), (bytes) => {
          const text = encodeCb58(bytes);
          expect(encodeCb58(decodeCb58(text))).to.equal(text);
          expect(isCb58(text)).to.equal(true);
          expect(isCb58(text, bytes.length)).to.equal(true);
          expect(isCb58(text, bytes.length + 1)).to.equal(false);
        }),
      );
    });

    it("handles payloads beyond 2 KiB (transactions) through the bigint path", () => {
      for (const length of [2045, 3000, 20000]) {
        const bytes = new Uint8Array(length).map((_, i) => (i * 131 + 7) & 0xff);
        bytes[0] = 0;
        bytes[1] = 0;
        expect(decodeCb58(encodeCb58(bytes))).to.deep.equal(bytes);
      }
    });

    it("bigint base58 path agrees with @scure/base on small inputs", () => {
      fc.assert(
        fc.property(payload(200), (bytes) => {
          const text = base58.encode(bytes);
          expect(base58EncodeLarge(bytes)).to.equal(text);
          expect(base58DecodeLarge(text)).to.deep.equal(bytes);
        }),
      );
    });
  });

  describe("malformed input", () => {
    it("throws on a checksum mismatch and reports both checksums", () => {
      expectEncodingError(
        () => decodeCb58("11111111111111111111111111111111LpoYZ"),
        'invalid cb58 string "11111111111111111111111111111111LpoYZ"',
        /checksum mismatch \(expected 0x[0-9a-f]{8}, got 0x[0-9a-f]{8}\)/,
      );
    });

    it("throws (never silently decodes) when any one character is changed", () => {
      fc.assert(
        fc.property(
          payload(40),
          fc.nat(),
          fc.integer({ min: 1, max: 57 }),
          (bytes, positionSeed, shift) => {
            const text = encodeCb58(bytes);
            const position = positionSeed % text.length;
            const replacement = BASE58_ALPHABET[(BASE58_ALPHABET.indexOf(text[position]!) + shift) % 58]!;
            const flipped = text.slice(0, position) + replacement + text.slice(position + 1);
            expectEncodingError(() => decodeCb58(flipped), "invalid cb58 string");
          },
        ),
      );
    });

    it("throws when a character is dropped or added", () => {
      const text = encodeCb58(hexToBytes(`0x${"ab".repeat(32)}`));
      expectEncodingError(() => decodeCb58(text.slice(0, -1)), "invalid cb58 string");
      expectEncodingError(() => decodeCb58(`${text}2`), "invalid cb58 string");
    });

    it("names a non-base58 character and its position", () => {
      expectEncodingError(() => decodeCb58("abc0"), 'non-base58 character "0" at position 3', 'base58 has no "0"');
      expectEncodingError(() => decodeCb58("2Ox"), 'non-base58 character "O" at position 1');
      expectEncodingError(() => decodeCb58("Il"), 'non-base58 character "I" at position 0');
      expectEncodingError(() => decodeCb58("abc def"), 'non-base58 character " " at position 3');
      expectEncodingError(() => decodeCb58("ab\u00e9"), 'non-base58 character "\u00e9" at position 2');
      expectEncodingError(() => decodeCb58("ab\u{1F600}"), 'non-base58 character "\u{1F600}" at position 2');
      expectEncodingError(() => decodeCb58("0x1234"), 'non-base58 character "0" at position 0');
    });

    it("rejects strings too short to hold the 4-byte checksum, and the empty string", () => {
      expectEncodingError(() => decodeCb58(""), "empty string");
      expectEncodingError(() => decodeCb58("1"), "too short: decodes to 1 byte, fewer than the 4-byte checksum");
      expectEncodingError(() => decodeCb58("111"), "too short: decodes to 3 bytes");
      expectEncodingError(() => decodeCb58("zzz"), "too short");
    });

    it("rejects non-string input and non-byte payloads", () => {
      expectEncodingError(() => decodeCb58(undefined as unknown as string), "invalid cb58 string undefined", "expected a string");
      expectEncodingError(() => encodeCb58("abc" as unknown as Uint8Array), "invalid cb58 payload", "expected a Uint8Array");
      expect(isCb58(42)).to.equal(false);
      expect(isCb58("abc0")).to.equal(false);
    });

    it("rejects payloads over the size limit", () => {
      expectEncodingError(() => encodeCb58(new Uint8Array(CB58_MAX_PAYLOAD_BYTES + 1)), "too long");
      expectEncodingError(() => decodeCb58("2".repeat(400_000)), "too long");
    });

    it("quotes long inputs shortened in the message", () => {
      const error = expectEncodingError(() => decodeCb58(`${"2".repeat(500)}0`), "(501 characters)", "at position 500");
      expect(error.message.length).to.be.lessThan(300);
    });

    it("reports hex for the checksums it compares", () => {
      const text = encodeCb58(new Uint8Array([1, 2, 3]));
      const payloadAndSum = base58.decode(text);
      payloadAndSum[payloadAndSum.length - 1]! ^= 1;
      const tampered = base58.encode(payloadAndSum);
      const expected = bytesToHex(sha256(new Uint8Array([1, 2, 3])).subarray(28));
      expectEncodingError(() => decodeCb58(tampered), `expected ${expected}`);
    });
  });
});
