import { expect } from "chai";
import fc from "fast-check";
import { solidityPacked } from "ethers";
import {
  GENESIS_CONTRACT_ADDRESS,
  NATIVE_ASSET_BALANCE_ADDRESS,
  NATIVE_ASSET_BALANCE_INPUT_LENGTH,
  NATIVE_ASSET_CALL_ADDRESS,
  NATIVE_ASSET_CALL_MIN_INPUT_LENGTH,
  UINT256_MAX,
  assetIdToHex,
  bytesToHex,
  decodeNativeAssetBalanceInput,
  decodeNativeAssetBalanceInputBytes,
  decodeNativeAssetBalanceOutput,
  decodeNativeAssetCallInput,
  decodeNativeAssetCallInputBytes,
  encodeNativeAssetBalanceInput,
  encodeNativeAssetBalanceInputBytes,
  encodeNativeAssetBalanceOutput,
  encodeNativeAssetCallInput,
  encodeNativeAssetCallInputBytes,
  hexToBytes,
  toChecksumAddress,
} from "../../src/encoding";
import { expectEncodingError } from "./helpers";

const ACCOUNT = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
const ASSET_CB58 = "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z";
const ASSET_HEX = "0x21e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff";
const DEPOSIT_SELECTOR = "0xd0e30db0";

const addresses = fc.uint8Array({ minLength: 20, maxLength: 20 }).map(toChecksumAddress);
const assetIds = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(bytesToHex);
const amounts = fc.oneof(fc.bigInt({ min: 0n, max: UINT256_MAX }), fc.constantFrom(0n, 1n, UINT256_MAX));
const callDatas = fc.uint8Array({ maxLength: 100 }).map(bytesToHex);

describe("encoding/precompile", () => {
  it("exposes the precompile addresses and input lengths of the seed", () => {
    expect(GENESIS_CONTRACT_ADDRESS).to.equal("0x0100000000000000000000000000000000000000");
    expect(NATIVE_ASSET_BALANCE_ADDRESS).to.equal("0x0100000000000000000000000000000000000001");
    expect(NATIVE_ASSET_CALL_ADDRESS).to.equal("0x0100000000000000000000000000000000000002");
    expect(NATIVE_ASSET_BALANCE_INPUT_LENGTH).to.equal(52);
    expect(NATIVE_ASSET_CALL_MIN_INPUT_LENGTH).to.equal(84);
  });

  describe("nativeAssetBalance input", () => {
    it("packs the 20-byte address then the 32-byte asset ID (52 bytes)", () => {
      const encoded = encodeNativeAssetBalanceInput({ account: ACCOUNT, assetId: ASSET_CB58 });
      expect(encoded).to.equal(`0x${ACCOUNT.slice(2).toLowerCase()}${ASSET_HEX.slice(2)}`);
      expect(hexToBytes(encoded).length).to.equal(52);
      expect(encoded).to.equal(solidityPacked(["address", "uint256"], [ACCOUNT, BigInt(ASSET_HEX)]));
    });

    it("accepts the asset ID as cb58, hex, bigint or bytes, and the address in any valid case", () => {
      const expected = encodeNativeAssetBalanceInput({ account: ACCOUNT, assetId: ASSET_CB58 });
      for (const assetId of [ASSET_HEX, BigInt(ASSET_HEX), hexToBytes(ASSET_HEX)]) {
        expect(encodeNativeAssetBalanceInput({ account: ACCOUNT, assetId })).to.equal(expected);
      }
      expect(encodeNativeAssetBalanceInput({ account: ACCOUNT.toLowerCase(), assetId: ASSET_HEX })).to.equal(expected);
      expect(encodeNativeAssetBalanceInput({ account: hexToBytes(ACCOUNT), assetId: ASSET_HEX })).to.equal(expected);
      expect(bytesToHex(encodeNativeAssetBalanceInputBytes({ account: ACCOUNT, assetId: ASSET_HEX }))).to.equal(expected);
    });

    it("decodes to the checksummed account and the lowercase hex asset ID", () => {
      const encoded = encodeNativeAssetBalanceInput({ account: ACCOUNT, assetId: ASSET_CB58 });
      expect(decodeNativeAssetBalanceInput(encoded)).to.deep.equal({ account: ACCOUNT, assetId: ASSET_HEX });
      expect(decodeNativeAssetBalanceInput(hexToBytes(encoded))).to.deep.equal({ account: ACCOUNT, assetId: ASSET_HEX });
    });

    it("round-trips any account and asset ID", () => {
      fc.assert(
        fc.property(addresses, assetIds, (account, assetId) => {
          const encoded = encodeNativeAssetBalanceInput({ account, assetId });
          expect(decodeNativeAssetBalanceInput(encoded)).to.deep.equal({ account, assetId });
          expect(encodeNativeAssetBalanceInput(decodeNativeAssetBalanceInput(encoded))).to.equal(encoded);
        }),
      );
    });

    it("splits bytes into subarray views of the input without copying", () => {
      const data = hexToBytes(encodeNativeAssetBalanceInput({ account: ACCOUNT, assetId: ASSET_HEX }));
      const { account, assetId } = decodeNativeAssetBalanceInputBytes(data);
      expect(account.buffer).to.equal(data.buffer);
      expect(assetId.buffer).to.equal(data.buffer);
      expect([account.byteOffset, account.length, assetId.byteOffset, assetId.length]).to.deep.equal([0, 20, 20, 32]);
      expect(bytesToHex(assetId)).to.equal(ASSET_HEX);
    });

    it("rejects inputs that are not exactly 52 bytes, naming the length", () => {
      const encoded = encodeNativeAssetBalanceInput({ account: ACCOUNT, assetId: ASSET_HEX });
      expectEncodingError(() => decodeNativeAssetBalanceInput(`${encoded}00`), "expected exactly 52 bytes", "got 53");
      expectEncodingError(() => decodeNativeAssetBalanceInput(encoded.slice(0, -2) as `0x${string}`), "got 51");
      expectEncodingError(() => decodeNativeAssetBalanceInputBytes(new Uint8Array(84)), "invalid nativeAssetBalance input Uint8Array(84)", "got 84");
      expectEncodingError(() => decodeNativeAssetBalanceInput("0x" as `0x${string}`), 'invalid nativeAssetBalance input "0x"', "got 0");
      expectEncodingError(() => decodeNativeAssetBalanceInput(`${encoded}0` as `0x${string}`), "odd number of hex digits");
    });

    it("rejects a bad account or asset ID", () => {
      expectEncodingError(
        () => encodeNativeAssetBalanceInput({ account: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52Fc", assetId: ASSET_HEX }),
        "invalid nativeAssetBalance account",
        "EIP-55 checksum mismatch",
      );
      expectEncodingError(() => encodeNativeAssetBalanceInput({ account: "0x1234", assetId: ASSET_HEX }), "expected 20 bytes");
      expectEncodingError(() => encodeNativeAssetBalanceInput({ account: ACCOUNT, assetId: -1n }), "invalid asset ID -1");
      expectEncodingError(() => encodeNativeAssetBalanceInput({ account: ACCOUNT, assetId: "0x00" }), "invalid asset ID");
    });
  });

  describe("nativeAssetBalance output", () => {
    it("is one 32-byte big-endian word", () => {
      expect(encodeNativeAssetBalanceOutput(0n)).to.equal(`0x${"00".repeat(32)}`);
      expect(encodeNativeAssetBalanceOutput(10n ** 18n)).to.equal(`0x${(10n ** 18n).toString(16).padStart(64, "0")}`);
      expect(decodeNativeAssetBalanceOutput(`0x${"ff".repeat(32)}`)).to.equal(UINT256_MAX);
    });

    it("round-trips every uint256 balance, as hex and as bytes", () => {
      fc.assert(
        fc.property(amounts, (balance) => {
          const encoded = encodeNativeAssetBalanceOutput(balance);
          expect(decodeNativeAssetBalanceOutput(encoded)).to.equal(balance);
          expect(decodeNativeAssetBalanceOutput(hexToBytes(encoded))).to.equal(balance);
        }),
      );
    });

    it("rejects outputs that are not exactly one word and balances outside [0, 2^256)", () => {
      expectEncodingError(() => decodeNativeAssetBalanceOutput(`0x${"00".repeat(31)}`), "expected exactly one 32-byte word, got 31 bytes");
      expectEncodingError(() => decodeNativeAssetBalanceOutput(`0x${"00".repeat(64)}`), "got 64 bytes");
      expectEncodingError(() => decodeNativeAssetBalanceOutput("0x"), "got 0 bytes");
      expectEncodingError(() => encodeNativeAssetBalanceOutput(-1n), "invalid nativeAssetBalance balance -1", "negative");
      expectEncodingError(() => encodeNativeAssetBalanceOutput(1n << 256n), "does not fit in 256 bits");
      expectEncodingError(() => encodeNativeAssetBalanceOutput(5 as unknown as bigint), "expected a bigint");
    });
  });

  describe("nativeAssetCall input", () => {
    it("packs address, asset ID, amount and call data (84 + call data bytes)", () => {
      const amount = 123_456_789n * 10n ** 9n;
      const encoded = encodeNativeAssetCallInput({ to: ACCOUNT, assetId: ASSET_CB58, amount, callData: DEPOSIT_SELECTOR });
      expect(encoded).to.equal(
        `0x${ACCOUNT.slice(2).toLowerCase()}${ASSET_HEX.slice(2)}${amount.toString(16).padStart(64, "0")}d0e30db0`,
      );
      expect(hexToBytes(encoded).length).to.equal(88);
    });

    it("matches Solidity abi.encodePacked(address, uint256, uint256, bytes)", () => {
      fc.assert(
        fc.property(addresses, assetIds, amounts, callDatas, (to, assetId, amount, callData) => {
          const expected = solidityPacked(["address", "uint256", "uint256", "bytes"], [to, BigInt(assetId), amount, callData]);
          expect(encodeNativeAssetCallInput({ to, assetId, amount, callData })).to.equal(expected);
        }),
        { numRuns: 50 },
      );
    });

    it("encodes an omitted call data as a plain transfer of exactly 84 bytes", () => {
      const encoded = encodeNativeAssetCallInput({ to: ACCOUNT, assetId: ASSET_HEX, amount: 1n });
      expect(hexToBytes(encoded).length).to.equal(84);
      expect(decodeNativeAssetCallInput(encoded).callData).to.equal("0x");
      expect(encodeNativeAssetCallInput({ to: ACCOUNT, assetId: ASSET_HEX, amount: 1n, callData: new Uint8Array() })).to.equal(encoded);
    });

    it("round-trips any recipient, asset ID, amount and call data", () => {
      fc.assert(
        fc.property(addresses, assetIds, amounts, callDatas, (to, assetId, amount, callData) => {
          const encoded = encodeNativeAssetCallInput({ to, assetId, amount, callData });
          expect(decodeNativeAssetCallInput(encoded)).to.deep.equal({ to, assetId, amount, callData });
          expect(decodeNativeAssetCallInput(hexToBytes(encoded))).to.deep.equal({ to, assetId, amount, callData });
          expect(bytesToHex(encodeNativeAssetCallInputBytes({ to, assetId, amount, callData: hexToBytes(callData) }))).to.equal(encoded);
        }),
      );
    });

    it("splits bytes into subarray views of the input without copying", () => {
      fc.assert(
        fc.property(addresses, assetIds, amounts, callDatas, (to, assetId, amount, callData) => {
          const data = encodeNativeAssetCallInputBytes({ to, assetId, amount, callData });
          const decoded = decodeNativeAssetCallInputBytes(data);
          for (const view of [decoded.to, decoded.assetId, decoded.callData]) expect(view.buffer).to.equal(data.buffer);
          expect([decoded.to.byteOffset, decoded.assetId.byteOffset, decoded.callData.byteOffset]).to.deep.equal([0, 20, 84]);
          expect(toChecksumAddress(decoded.to)).to.equal(to);
          expect(bytesToHex(decoded.assetId)).to.equal(assetId);
          expect(decoded.amount).to.equal(amount);
          expect(bytesToHex(decoded.callData)).to.equal(callData);
        }),
        { numRuns: 50 },
      );
    });

    it("decodes a view at a nonzero offset in a larger buffer", () => {
      const inner = encodeNativeAssetCallInputBytes({ to: ACCOUNT, assetId: ASSET_HEX, amount: 7n, callData: DEPOSIT_SELECTOR });
      const buffer = new Uint8Array(inner.length + 10);
      buffer.set(inner, 5);
      const decoded = decodeNativeAssetCallInputBytes(buffer.subarray(5, 5 + inner.length));
      expect(decoded.amount).to.equal(7n);
      expect(bytesToHex(decoded.callData)).to.equal(DEPOSIT_SELECTOR);
      expect(decoded.callData.byteOffset).to.equal(5 + 84);
    });

    it("rejects inputs shorter than 84 bytes, naming the length", () => {
      expectEncodingError(() => decodeNativeAssetCallInput(`0x${"00".repeat(83)}`), "expected at least 84 bytes", "got 83");
      expectEncodingError(() => decodeNativeAssetCallInput("0x00"), 'invalid nativeAssetCall input "0x00"', "got 1");
      expectEncodingError(() => decodeNativeAssetCallInputBytes(new Uint8Array(52)), "invalid nativeAssetCall input Uint8Array(52)", "got 52");
      expectEncodingError(() => decodeNativeAssetCallInput("d0e30db0" as `0x${string}`), "missing 0x prefix");
      expectEncodingError(() => decodeNativeAssetCallInput(42 as unknown as `0x${string}`), "expected 0x-prefixed hex or a Uint8Array");
    });

    it("rejects amounts outside [0, 2^256)", () => {
      const base = { to: ACCOUNT, assetId: ASSET_HEX };
      expectEncodingError(() => encodeNativeAssetCallInput({ ...base, amount: -1n }), "invalid nativeAssetCall amount -1", "negative");
      expectEncodingError(() => encodeNativeAssetCallInput({ ...base, amount: 1n << 256n }), "does not fit in 256 bits");
      expectEncodingError(() => encodeNativeAssetCallInput({ ...base, amount: 1 as unknown as bigint }), "expected a bigint");
      expect(decodeNativeAssetCallInput(encodeNativeAssetCallInput({ ...base, amount: UINT256_MAX })).amount).to.equal(UINT256_MAX);
    });

    it("rejects a bad recipient, asset ID or call data", () => {
      const base = { assetId: ASSET_HEX, amount: 1n };
      expectEncodingError(
        () => encodeNativeAssetCallInput({ ...base, to: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52Fc" }),
        "invalid nativeAssetCall recipient",
        "EIP-55 checksum mismatch",
      );
      expectEncodingError(() => encodeNativeAssetCallInput({ ...base, to: `0x${"00".repeat(21)}` }), "expected 20 bytes", "got 21");
      expectEncodingError(() => encodeNativeAssetCallInput({ ...base, to: ACCOUNT, assetId: "nope" }), "invalid asset ID");
      expectEncodingError(() => encodeNativeAssetCallInput({ ...base, to: ACCOUNT, callData: "0xd0e30db" }), "invalid nativeAssetCall callData", "odd number");
      expectEncodingError(() => encodeNativeAssetCallInput({ ...base, to: ACCOUNT, callData: "deposit()" as `0x${string}` }), "missing 0x prefix");
      expectEncodingError(() => encodeNativeAssetCallInput({ ...base, to: ACCOUNT, callData: 5 as unknown as `0x${string}` }), "expected 0x-prefixed hex");
    });

    it("agrees with assetIdToHex on the asset ID written", () => {
      const decoded = decodeNativeAssetCallInput(encodeNativeAssetCallInput({ to: ACCOUNT, assetId: ASSET_CB58, amount: 0n }));
      expect(decoded.assetId).to.equal(assetIdToHex(ASSET_CB58));
    });
  });
});
