import { expect } from "chai";
import fc from "fast-check";
import {
  ASSET_ID_LENGTH,
  UINT256_MAX,
  assetIdFromBigInt,
  assetIdFromCb58,
  assetIdFromHex,
  assetIdToBigInt,
  assetIdToBytes,
  assetIdToCb58,
  assetIdToHex,
  bytesToHex,
  encodeCb58,
  isAssetId,
  parseAssetId,
} from "../../src/encoding";
import { expectEncodingError, mixCase } from "./helpers";

/** The mainnet native asset ID, as published: cb58 and its 32-byte hex. */
const MAINNET_NATIVE_CB58 = "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z";
const MAINNET_NATIVE_HEX = "0x21e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff";

const ACCEPTED = "accepted forms: a cb58 string, a 0x-prefixed 32-byte hex string";

const assetIdBytes = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe("encoding/asset-id", () => {
  describe("known vectors", () => {
    it("converts the mainnet native asset ID between cb58, hex and uint256", () => {
      expect(assetIdToHex(MAINNET_NATIVE_CB58)).to.equal(MAINNET_NATIVE_HEX);
      expect(assetIdToCb58(MAINNET_NATIVE_HEX)).to.equal(MAINNET_NATIVE_CB58);
      expect(assetIdToBigInt(MAINNET_NATIVE_CB58)).to.equal(BigInt(MAINNET_NATIVE_HEX));
      expect(assetIdToCb58(BigInt(MAINNET_NATIVE_HEX))).to.equal(MAINNET_NATIVE_CB58);
    });

    it("maps the all-zero ID to 1111...LpoYY, 0x00..00 and 0n", () => {
      const zero = "11111111111111111111111111111111LpoYY";
      expect(assetIdToHex(zero)).to.equal(`0x${"00".repeat(32)}`);
      expect(assetIdToBigInt(zero)).to.equal(0n);
      expect(assetIdToCb58(0n)).to.equal(zero);
    });

    it("reads the uint256 big-endian, as Solidity does", () => {
      expect(assetIdToHex(1n)).to.equal(`0x${"00".repeat(31)}01`);
      expect(assetIdToBigInt(`0x01${"00".repeat(31)}`)).to.equal(1n << 248n);
    });
  });

  describe("parseAssetId", () => {
    it("accepts all four forms of the same ID and returns the same 32 bytes", () => {
      const bytes = assetIdFromHex(MAINNET_NATIVE_HEX);
      for (const form of [MAINNET_NATIVE_CB58, MAINNET_NATIVE_HEX, BigInt(MAINNET_NATIVE_HEX), bytes]) {
        expect(parseAssetId(form)).to.deep.equal(bytes);
      }
      expect(parseAssetId(MAINNET_NATIVE_HEX.toUpperCase().replace("0X", "0x"))).to.deep.equal(bytes);
    });

    it("returns a copy of byte input, so later mutation of either side is not shared", () => {
      const input = new Uint8Array(32).fill(9);
      const parsed = parseAssetId(input);
      parsed[0] = 0;
      expect(input[0]).to.equal(9);
      expect(assetIdToBytes(input)).to.not.equal(input);
    });

    it("rejects byte arrays of the wrong length", () => {
      expectEncodingError(() => parseAssetId(new Uint8Array(31)), "invalid asset ID Uint8Array(31): 31 bytes", ACCEPTED);
      expectEncodingError(() => parseAssetId(new Uint8Array(33)), "33 bytes", ACCEPTED);
    });

    it("rejects bigints outside [0, 2^256)", () => {
      expectEncodingError(() => parseAssetId(-1n), "invalid asset ID -1: out of range", ACCEPTED);
      expectEncodingError(() => parseAssetId(1n << 256n), "out of range", ACCEPTED);
      expect(assetIdToHex(UINT256_MAX)).to.equal(`0x${"ff".repeat(32)}`);
    });

    it("rejects hex of the wrong length or with bad characters", () => {
      expectEncodingError(() => parseAssetId("0x1234"), "expected 32 bytes (64 hex digits), got 2", ACCEPTED);
      expectEncodingError(() => parseAssetId(`0x${"00".repeat(33)}`), "got 33", ACCEPTED);
      expectEncodingError(() => parseAssetId(`0x${"0".repeat(63)}g`), 'invalid hex character "g" at position 65');
      expectEncodingError(() => parseAssetId(`0X${"00".repeat(32)}`), "missing 0x prefix", ACCEPTED);
      expectEncodingError(() => parseAssetId(`0x${"0".repeat(63)}`), "odd number of hex digits");
    });

    it("rejects cb58 whose payload is not 32 bytes, or that fails its checksum", () => {
      expectEncodingError(() => parseAssetId(encodeCb58(new Uint8Array(31))), "cb58 payload is 31 bytes, expected 32", ACCEPTED);
      expectEncodingError(() => parseAssetId(`${MAINNET_NATIVE_CB58.slice(0, -1)}Y`), "checksum mismatch", ACCEPTED);
      expectEncodingError(() => parseAssetId("AVAX"), "invalid asset ID \"AVAX\"", ACCEPTED);
      expectEncodingError(() => parseAssetId(""), "empty string", ACCEPTED);
    });

    it("rejects values of other types, naming the accepted forms", () => {
      for (const value of [5, null, undefined, {}, [1, 2], true]) {
        expectEncodingError(() => parseAssetId(value as unknown as string), "invalid asset ID", ACCEPTED, "32-byte Uint8Array");
        expect(isAssetId(value)).to.equal(false);
      }
      expect(isAssetId(MAINNET_NATIVE_CB58)).to.equal(true);
    });
  });

  describe("round trips", () => {
    it("cb58: assetIdFromCb58(assetIdToCb58(id)) returns the ID", () => {
      fc.assert(
        fc.property(assetIdBytes, (bytes) => {
          expect(assetIdFromCb58(assetIdToCb58(bytes))).to.deep.equal(bytes);
        }),
      );
    });

    it("hex: assetIdFromHex(assetIdToHex(id)) returns the ID and the hex is lowercase, 66 characters", () => {
      fc.assert(
        fc.property(assetIdBytes, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), (bytes, upper) => {
          const hex = assetIdToHex(bytes);
          expect(hex).to.match(/^0x[0-9a-f]{64}$/);
          expect(assetIdFromHex(hex)).to.deep.equal(bytes);
          expect(assetIdToHex(mixCase(hex, upper))).to.equal(hex);
        }),
      );
    });

    it("bigint: assetIdFromBigInt and assetIdToBigInt are inverse over [0, 2^256)", () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: UINT256_MAX }), (value) => {
          const bytes = assetIdFromBigInt(value);
          expect(bytes.length).to.equal(ASSET_ID_LENGTH);
          expect(assetIdToBigInt(bytes)).to.equal(value);
          expect(assetIdToBigInt(assetIdToCb58(value))).to.equal(value);
          expect(BigInt(assetIdToHex(value))).to.equal(value);
        }),
      );
    });

    it("every form converts to every other and back to the same bytes", () => {
      fc.assert(
        fc.property(assetIdBytes, (bytes) => {
          const cb58 = assetIdToCb58(bytes);
          const hex = assetIdToHex(cb58);
          const value = assetIdToBigInt(hex);
          expect(bytesToHex(parseAssetId(value))).to.equal(bytesToHex(bytes));
          expect(assetIdToCb58(value)).to.equal(cb58);
        }),
      );
    });

    it("assetIdFromBigInt rejects out-of-range values with the range in the message", () => {
      expectEncodingError(() => assetIdFromBigInt(-5n), "invalid asset ID -5", "[0, 2^256)");
      expectEncodingError(() => assetIdFromHex("0x00"), "invalid asset ID hex", "expected 32 bytes");
    });
  });
});
