import { expect } from "chai";
import fc from "fast-check";
import { computeAddress } from "ethers";
import {
  PRIVATE_KEY_PREFIX,
  SECP256K1_ORDER,
  bigintToBytes32,
  bytesToHex,
  decodePrivateKey,
  encodeCb58,
  encodePrivateKey,
  formatChainAddress,
  hexToBytes,
  parseChainAddress,
  privateKeyToAddresses,
  publicKeyToAddresses,
} from "../../src/encoding";
import { expectEncodingError } from "./helpers";

/** The widely published local-network test key. */
const TEST_KEY_TEXT = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";
const TEST_KEY_HEX = "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";
const TEST_EVM = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
const TEST_X_LOCAL = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";

const validScalars = fc.bigInt({ min: 1n, max: SECP256K1_ORDER - 1n }).map(bigintToBytes32);

describe("encoding/private-key", () => {
  describe("known vectors", () => {
    it("decodes the test key from its PrivateKey- form and its hex form to the same bytes", () => {
      expect(bytesToHex(decodePrivateKey(TEST_KEY_TEXT))).to.equal(TEST_KEY_HEX);
      expect(bytesToHex(decodePrivateKey(TEST_KEY_HEX))).to.equal(TEST_KEY_HEX);
      expect(bytesToHex(decodePrivateKey(TEST_KEY_HEX.toUpperCase().replace("0X", "0x")))).to.equal(TEST_KEY_HEX);
    });

    it("encodes the test key to its PrivateKey- form", () => {
      expect(encodePrivateKey(hexToBytes(TEST_KEY_HEX))).to.equal(TEST_KEY_TEXT);
    });

    it("derives the test key's exchange and contract addresses", () => {
      const addresses = privateKeyToAddresses(TEST_KEY_TEXT, "local");
      expect(addresses.exchange).to.equal(TEST_X_LOCAL);
      expect(addresses.contract).to.equal(TEST_EVM);
      expect(bytesToHex(addresses.shortId)).to.equal("0x3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c");
      expect(addresses.publicKey.length).to.equal(33);
      expect(privateKeyToAddresses(TEST_KEY_HEX, "local")).to.deep.equal(addresses);
      expect(privateKeyToAddresses(hexToBytes(TEST_KEY_HEX), "local")).to.deep.equal(addresses);
    });

    it("uses the given hrp and chain alias for the exchange-side address", () => {
      expect(privateKeyToAddresses(TEST_KEY_TEXT, "avax").exchange).to.equal("X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5");
      const cSide = privateKeyToAddresses(TEST_KEY_TEXT, "local", "C").exchange;
      expect(cSide).to.equal(`C-${TEST_X_LOCAL.slice(2)}`);
      expect(parseChainAddress(cSide).shortId).to.deep.equal(parseChainAddress(TEST_X_LOCAL).shortId);
    });
  });

  describe("addresses of a public key", () => {
    it("publicKeyToAddresses of a key's compressed public key gives the key's addresses, for every scalar in [1, n)", () => {
      fc.assert(
        fc.property(validScalars, fc.constantFrom("local", "avax", "fuji"), fc.constantFrom("X", "P", "C"), (key, hrp, alias) => {
          const addresses = privateKeyToAddresses(key, hrp, alias);
          expect(publicKeyToAddresses(addresses.publicKey, hrp, alias)).to.deep.equal(addresses);
        }),
        { numRuns: 50 },
      );
    });

    it("publicKeyToAddresses of the test key's public key gives its published addresses", () => {
      const { publicKey } = privateKeyToAddresses(TEST_KEY_TEXT, "local");
      expect(publicKeyToAddresses(publicKey, "local").exchange).to.equal(TEST_X_LOCAL);
      expect(publicKeyToAddresses(publicKey, "local").contract).to.equal(TEST_EVM);
    });
  });

  describe("round trips", () => {
    it("decodePrivateKey(encodePrivateKey(key)) returns the key for every scalar in [1, n)", () => {
      fc.assert(
        fc.property(validScalars, (key) => {
          const text = encodePrivateKey(key);
          expect(text.startsWith(PRIVATE_KEY_PREFIX)).to.equal(true);
          expect(decodePrivateKey(text)).to.deep.equal(key);
          expect(decodePrivateKey(bytesToHex(key))).to.deep.equal(key);
          expect(encodePrivateKey(decodePrivateKey(text))).to.equal(text);
        }),
      );
    });

    it("accepts the edge scalars 1 and n - 1", () => {
      for (const scalar of [1n, SECP256K1_ORDER - 1n]) {
        const key = bigintToBytes32(scalar);
        expect(decodePrivateKey(encodePrivateKey(key))).to.deep.equal(key);
      }
    });

    it("derives the contract address ethers derives, for any key", () => {
      fc.assert(
        fc.property(validScalars, (key) => {
          const addresses = privateKeyToAddresses(key, "fuji");
          expect(addresses.contract).to.equal(computeAddress(bytesToHex(key)));
          expect(addresses.exchange).to.equal(formatChainAddress(addresses.shortId, "fuji"));
        }),
        { numRuns: 25 },
      );
    });
  });

  describe("malformed keys", () => {
    it("rejects scalars 0, n, n + 1 and 2^256 - 1 in every form", () => {
      for (const scalar of [0n, SECP256K1_ORDER, SECP256K1_ORDER + 1n, (1n << 256n) - 1n]) {
        const bytes = bigintToBytes32(scalar);
        const problem = scalar === 0n ? "zero is not a valid secp256k1 private key" : "not below the secp256k1 group order";
        expectEncodingError(() => encodePrivateKey(bytes), "invalid private key", problem, "[1, n)");
        expectEncodingError(() => decodePrivateKey(PRIVATE_KEY_PREFIX + encodeCb58(bytes)), problem);
        expectEncodingError(() => decodePrivateKey(bytesToHex(bytes)), problem);
        expectEncodingError(() => privateKeyToAddresses(bytes, "local"), problem);
      }
    });

    it("rejects a missing or misspelled prefix", () => {
      expectEncodingError(() => decodePrivateKey(TEST_KEY_TEXT.slice(PRIVATE_KEY_PREFIX.length)), 'expected "PrivateKey-" followed by cb58');
      expectEncodingError(() => decodePrivateKey(`privatekey-${TEST_KEY_TEXT.slice(11)}`), 'expected "PrivateKey-"');
      expectEncodingError(() => decodePrivateKey(TEST_KEY_HEX.slice(2)), "or 0x followed by 64 hex digits");
    });

    it("rejects payloads of the wrong length and bad checksums", () => {
      expectEncodingError(() => decodePrivateKey(PRIVATE_KEY_PREFIX + encodeCb58(new Uint8Array(31).fill(1))), "expected 32 bytes, got 31");
      expectEncodingError(() => decodePrivateKey(`${TEST_KEY_HEX}00`), "expected 32 bytes (64 hex digits), got 33");
      expectEncodingError(() => decodePrivateKey(`${TEST_KEY_TEXT.slice(0, -1)}M`), "cb58 checksum mismatch");
      expectEncodingError(() => decodePrivateKey(`${TEST_KEY_TEXT.slice(0, -1)}0`), 'non-base58 character "0"');
      expectEncodingError(() => encodePrivateKey(new Uint8Array(33)), "expected 32 bytes, got 33");
    });

    it("never quotes the key in its error messages", () => {
      const tampered = `${TEST_KEY_TEXT.slice(0, -1)}M`;
      const body = TEST_KEY_TEXT.slice(PRIVATE_KEY_PREFIX.length, -1);
      for (const attempt of [
        () => decodePrivateKey(tampered),
        () => decodePrivateKey(TEST_KEY_TEXT.slice(PRIVATE_KEY_PREFIX.length)),
        () => decodePrivateKey(`${TEST_KEY_HEX}0`),
        () => decodePrivateKey(`${TEST_KEY_HEX.slice(0, -1)}g`),
      ]) {
        const error = expectEncodingError(attempt, "invalid private key (", "redacted");
        expect(error.message).to.not.include(body.slice(0, 12));
        expect(error.message).to.not.include(TEST_KEY_HEX.slice(2, 14));
        expect(error.cause).to.equal(undefined);
      }
    });

    it("rejects values of other types", () => {
      expectEncodingError(() => decodePrivateKey(5 as unknown as string), "invalid private key (number)");
      expectEncodingError(() => privateKeyToAddresses({} as unknown as string, "local"), "invalid private key (object)");
      expectEncodingError(() => privateKeyToAddresses(TEST_KEY_TEXT, "Local"), "invalid hrp", "uppercase");
    });
  });
});
