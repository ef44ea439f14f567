import { expect } from "chai";
import fc from "fast-check";
import { getAddress } from "ethers";
import { bytesToHex, isEvmAddress, parseEvmAddress, toChecksumAddress } from "../../src/encoding";
import { expectEncodingError } from "./helpers";

/** Examples from EIP-55. */
const EIP55_EXAMPLES = [
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
];

describe("encoding/evm-address", () => {
  it("produces the EIP-55 examples from lowercase and uppercase input", () => {
    for (const example of EIP55_EXAMPLES) {
      expect(toChecksumAddress(example.toLowerCase())).to.equal(example);
      expect(toChecksumAddress(`0x${example.slice(2).toUpperCase()}`)).to.equal(example);
      expect(toChecksumAddress(example)).to.equal(example);
    }
  });

  it("agrees with ethers getAddress on any 20 bytes, and parse/format round-trip", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const checksummed = toChecksumAddress(bytes);
        expect(checksummed).to.equal(getAddress(bytesToHex(bytes)));
        expect(parseEvmAddress(checksummed)).to.deep.equal(bytes);
        expect(parseEvmAddress(checksummed.toLowerCase())).to.deep.equal(bytes);
        expect(isEvmAddress(checksummed)).to.equal(true);
      }),
    );
  });

  it("rejects a mixed-case address whose checksum is wrong, naming the correct one", () => {
    expectEncodingError(
      () => toChecksumAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52Fc"),
      'invalid address "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52Fc"',
      "EIP-55 checksum mismatch (expected 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC",
    );
    expect(isEvmAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52Fc")).to.equal(false);
  });

  it("rejects any single-letter case flip of a checksummed address", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat(), (bytes, seed) => {
        const checksummed = toChecksumAddress(bytes);
        const letters = [...checksummed].map((c, i) => (i >= 2 && /[a-fA-F]/.test(c) ? i : -1)).filter((i) => i >= 0);
        fc.pre(letters.length > 0);
        const position = letters[seed % letters.length]!;
        const char = checksummed[position]!;
        const flipped = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
        const tampered = checksummed.slice(0, position) + flipped + checksummed.slice(position + 1);
        // A flip leaves the string mixed-case unless it was the only letter of its case.
        const digits = tampered.slice(2);
        fc.pre(digits !== digits.toLowerCase() && digits !== digits.toUpperCase());
        expectEncodingError(() => parseEvmAddress(tampered), "EIP-55 checksum mismatch");
      }),
    );
  });

  it("rejects wrong lengths, a missing prefix and non-hex characters", () => {
    expectEncodingError(() => parseEvmAddress("0x1234"), "expected 20 bytes (40 hex digits), got 2");
    expectEncodingError(() => parseEvmAddress(`0x${"00".repeat(32)}`), "expected 20 bytes", "got 32");
    expectEncodingError(() => parseEvmAddress("00".repeat(20)), "missing 0x prefix");
    expectEncodingError(() => parseEvmAddress(`0x${"0".repeat(39)}z`), 'invalid hex character "z" at position 41');
    expectEncodingError(() => parseEvmAddress(new Uint8Array(19)), "invalid address Uint8Array(19)", "expected 20 bytes, got 19");
    expectEncodingError(() => parseEvmAddress(5 as unknown as string), "invalid address number 5");
    expect(isEvmAddress(`0x${"00".repeat(19)}`)).to.equal(false);
    expect(isEvmAddress(undefined)).to.equal(false);
  });
});
