import { expect } from "chai";
import fc from "fast-check";
import { bech32 } from "@scure/base";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { computeAddress } from "ethers";
import {
  MAX_HRP_LENGTH,
  bytesToHex,
  evmAddressFromPublicKey,
  formatBech32Address,
  formatChainAddress,
  hexToBytes,
  isChainAddress,
  parseBech32Address,
  parseChainAddress,
  shortIdFromPublicKey,
} from "../../src/encoding";
import { expectEncodingError } from "./helpers";

/** The widely published local-network test key and its addresses. */
const TEST_KEY = hexToBytes("0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027");
const TEST_PUBLIC_KEY = secp256k1.getPublicKey(TEST_KEY, true);
const TEST_X_LOCAL = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
const TEST_X_AVAX = "X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5";
const TEST_X_CUSTOM = "X-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p";
const TEST_EVM = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";

const shortIds = fc.uint8Array({ minLength: 20, maxLength: 20 });
const hrps = fc.oneof(
  fc.constantFrom("avax", "fuji", "local", "custom", "testing"),
  fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-_.1"), minLength: 1, maxLength: MAX_HRP_LENGTH }),
);
const aliases = fc.oneof(
  fc.constantFrom("X", "P", "C"),
  fc.string({ unit: fc.constantFrom(..."ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789"), minLength: 1, maxLength: 50 }),
);

function swapChar(text: string, position: number, replacement: string): string {
  return text.slice(0, position) + replacement + text.slice(position + 1);
}

describe("encoding/address", () => {
  describe("known vectors", () => {
    it("derives the short ID of the test key as ripemd160(sha256(compressed public key))", () => {
      const shortId = shortIdFromPublicKey(TEST_PUBLIC_KEY);
      expect(bytesToHex(shortId)).to.equal("0x3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c");
      expect(formatChainAddress(shortId, "local")).to.equal(TEST_X_LOCAL);
      expect(formatChainAddress(shortId, "avax")).to.equal(TEST_X_AVAX);
      expect(formatChainAddress(shortId, "custom", "X")).to.equal(TEST_X_CUSTOM);
      expect(formatBech32Address(shortId, "local")).to.equal(TEST_X_LOCAL.slice(2));
    });

    it("derives the test key's EIP-55 contract-chain address from its public key", () => {
      expect(evmAddressFromPublicKey(TEST_PUBLIC_KEY)).to.equal(TEST_EVM);
      expect(evmAddressFromPublicKey(secp256k1.getPublicKey(TEST_KEY, false))).to.equal(TEST_EVM);
    });

    it("parses the test key's address into alias, hrp and short ID", () => {
      const parsed = parseChainAddress(TEST_X_LOCAL);
      expect(parsed.chainAlias).to.equal("X");
      expect(parsed.hrp).to.equal("local");
      expect(parsed.shortId).to.deep.equal(shortIdFromPublicKey(TEST_PUBLIC_KEY));
      expect(parseChainAddress(`C-${TEST_X_LOCAL.slice(2)}`).chainAlias).to.equal("C");
    });
  });

  describe("round trips", () => {
    it("parseChainAddress(formatChainAddress(shortId, hrp, alias)) returns the same parts", () => {
      fc.assert(
        fc.property(shortIds, hrps, aliases, (shortId, hrp, chainAlias) => {
          const text = formatChainAddress(shortId, hrp, chainAlias);
          expect(text.startsWith(`${chainAlias}-${hrp}1`)).to.equal(true);
          expect(parseChainAddress(text)).to.deep.equal({ chainAlias, hrp, shortId });
          expect(formatChainAddress(shortId, hrp, chainAlias)).to.equal(text);
          expect(isChainAddress(text, { hrp, chainAlias })).to.equal(true);
        }),
      );
    });

    it("parseBech32Address(formatBech32Address(shortId, hrp)) returns the same parts", () => {
      fc.assert(
        fc.property(shortIds, hrps, (shortId, hrp) => {
          const text = formatBech32Address(shortId, hrp);
          expect(parseBech32Address(text)).to.deep.equal({ hrp, shortId });
          expect(parseBech32Address(text, hrp).shortId).to.deep.equal(shortId);
        }),
      );
    });

    it("accepts an all-uppercase bech32 part and reports the hrp in lowercase", () => {
      const upper = `X-${TEST_X_LOCAL.slice(2).toUpperCase()}`;
      expect(parseChainAddress(upper)).to.deep.equal(parseChainAddress(TEST_X_LOCAL));
      expect(parseBech32Address(TEST_X_LOCAL.slice(2).toUpperCase()).hrp).to.equal("local");
    });
  });

  describe("malformed addresses", () => {
    it("rejects an address without a chain prefix and points to parseBech32Address", () => {
      expectEncodingError(
        () => parseChainAddress(TEST_X_LOCAL.slice(2)),
        `invalid chain address "${TEST_X_LOCAL.slice(2)}"`,
        "missing chain prefix",
        "parseBech32Address",
      );
      expectEncodingError(() => parseChainAddress(`-${TEST_X_LOCAL.slice(2)}`), "bad chain alias", "empty");
    });

    it("rejects a bad checksum, whichever data character is changed", () => {
      fc.assert(
        fc.property(shortIds, fc.nat(), fc.integer({ min: 1, max: 31 }), (shortId, seed, shift) => {
          const text = formatChainAddress(shortId, "local");
          const dataStart = "X-local1".length;
          const position = dataStart + (seed % (text.length - dataStart));
          const charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
          const replacement = charset[(charset.indexOf(text[position]!) + shift) % 32]!;
          expectEncodingError(() => parseChainAddress(swapChar(text, position, replacement)), "bech32 checksum mismatch");
        }),
      );
    });

    it("rejects a changed hrp through the checksum, and an unexpected hrp by name", () => {
      expectEncodingError(() => parseChainAddress(TEST_X_LOCAL.replace("local", "fuji1")), "checksum mismatch");
      expectEncodingError(
        () => parseChainAddress(TEST_X_AVAX, { hrp: "local" }),
        'hrp "avax" does not match the expected hrp "local"',
      );
      expectEncodingError(() => parseBech32Address(TEST_X_AVAX.slice(2), "fuji"), 'expected hrp "fuji"');
      expectEncodingError(() => parseChainAddress(TEST_X_LOCAL, { chainAlias: "P" }), 'chain alias "X" does not match the expected "P"');
    });

    it("rejects payloads that are not 20 bytes, naming the length", () => {
      const long = `X-${bech32.encode("local", bech32.toWords(new Uint8Array(21)))}`;
      const short = `X-${bech32.encode("local", bech32.toWords(new Uint8Array(19)))}`;
      const key = `X-${bech32.encode("local", bech32.toWords(new Uint8Array(33)))}`;
      expectEncodingError(() => parseChainAddress(long), "payload is 21 bytes, expected a 20-byte short ID");
      expectEncodingError(() => parseChainAddress(short), "payload is 19 bytes");
      expectEncodingError(() => parseChainAddress(key), "payload is 33 bytes");
    });

    it("names characters outside the bech32 alphabet and their position in the whole address", () => {
      expectEncodingError(() => parseChainAddress(swapChar(TEST_X_LOCAL, 10, "b")), 'invalid bech32 character "b" at position 10');
      expectEncodingError(() => parseChainAddress(swapChar(TEST_X_LOCAL, 12, "i")), 'invalid bech32 character "i" at position 12');
      expectEncodingError(() => parseBech32Address(swapChar(TEST_X_LOCAL.slice(2), 8, "o")), 'invalid bech32 character "o" at position 8');
    });

    it("rejects mixed case, a missing separator, an empty hrp and a too-short data part", () => {
      expectEncodingError(() => parseChainAddress(TEST_X_LOCAL.replace("local", "Local")), "mixes upper and lower case");
      expectEncodingError(() => parseChainAddress("X-localqqqqqqqq"), 'missing the "1" separating the hrp');
      expectEncodingError(() => parseChainAddress("X-1qqqqqqqq"), 'empty hrp before the "1" separator');
      expectEncodingError(() => parseChainAddress("X-local1qqq"), "too short for the 6-character checksum");
      expectEncodingError(() => parseChainAddress(`X-${"a".repeat(60)}1${"q".repeat(38)}`), "at most 90 allowed");
      expectEncodingError(() => parseChainAddress(`X-lo cal1${"q".repeat(38)}`), "bad hrp", "not printable ASCII");
    });

    it("rejects non-string input", () => {
      expectEncodingError(() => parseChainAddress(42 as unknown as string), "invalid chain address number 42");
      expectEncodingError(() => parseBech32Address(null as unknown as string), "invalid bech32 address null");
      expect(isChainAddress(42)).to.equal(false);
      expect(isChainAddress(TEST_X_LOCAL.slice(2))).to.equal(false);
    });
  });

  describe("formatting errors", () => {
    const shortId = new Uint8Array(20);

    it("rejects bad hrps by name", () => {
      expectEncodingError(() => formatChainAddress(shortId, ""), 'invalid hrp ""', "empty");
      expectEncodingError(() => formatChainAddress(shortId, "Local"), 'uppercase character "L" at position 0');
      expectEncodingError(() => formatChainAddress(shortId, "lo cal"), "not printable ASCII");
      expectEncodingError(() => formatChainAddress(shortId, "a".repeat(MAX_HRP_LENGTH + 1)), "too long");
      expect(formatBech32Address(shortId, "a".repeat(MAX_HRP_LENGTH)).length).to.equal(90);
    });

    it("rejects chain aliases that would not parse back", () => {
      expectEncodingError(() => formatChainAddress(shortId, "local", ""), 'invalid chain alias ""', "empty");
      expectEncodingError(() => formatChainAddress(shortId, "local", "X-Y"), 'contains "-" at position 1');
      expectEncodingError(() => formatChainAddress(shortId, "local", "X Y"), "not printable ASCII");
    });

    it("rejects short IDs that are not 20 bytes", () => {
      expectEncodingError(() => formatChainAddress(new Uint8Array(19), "local"), "invalid short ID Uint8Array(19)", "expected 20 bytes, got 19");
      expectEncodingError(() => formatBech32Address("00" as unknown as Uint8Array, "local"), "invalid short ID");
    });
  });

  describe("public keys", () => {
    it("gives the same short ID and EVM address for the compressed and uncompressed key", () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed) => {
          fc.pre(secp256k1.utils.isValidSecretKey(seed));
          const compressed = secp256k1.getPublicKey(seed, true);
          const uncompressed = secp256k1.getPublicKey(seed, false);
          expect(shortIdFromPublicKey(uncompressed)).to.deep.equal(shortIdFromPublicKey(compressed));
          expect(evmAddressFromPublicKey(compressed)).to.equal(computeAddress(bytesToHex(compressed)));
          expect(evmAddressFromPublicKey(uncompressed)).to.equal(evmAddressFromPublicKey(compressed));
        }),
        { numRuns: 30 },
      );
    });

    it("rejects keys of the wrong length or not on the curve", () => {
      expectEncodingError(() => shortIdFromPublicKey(new Uint8Array(32)), "invalid secp256k1 public key Uint8Array(32)", "expected 33 (compressed) or 65 (uncompressed) bytes, got 32");
      expectEncodingError(() => shortIdFromPublicKey(new Uint8Array(33)), "not a point on the curve");
      const badPrefix = TEST_PUBLIC_KEY.slice();
      badPrefix[0] = 0x05;
      expectEncodingError(() => shortIdFromPublicKey(badPrefix), "not a point on the curve");
      expectEncodingError(() => evmAddressFromPublicKey(new Uint8Array(65)), "not a point on the curve");
      expectEncodingError(() => evmAddressFromPublicKey("0x02" as unknown as Uint8Array), "expected a Uint8Array");
    });
  });
});
