import { expect } from "chai";
import * as encoding from "../../src/encoding";
import { EncodingError, decodeCb58 } from "../../src/encoding";

describe("encoding/errors", () => {
  it("EncodingError is an Error subclass with its own name, message and detail", () => {
    let caught: unknown;
    try {
      decodeCb58("abc0");
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(Error);
    expect(caught).to.be.instanceOf(EncodingError);
    const error = caught as EncodingError;
    expect(error.name).to.equal("EncodingError");
    expect(error.message).to.equal('invalid cb58 string "abc0": non-base58 character "0" at position 3 (base58 has no "0")');
    expect(error.detail).to.equal('non-base58 character "0" at position 3 (base58 has no "0")');
    expect(String(error)).to.match(/^EncodingError: invalid cb58 string/);
  });

  it("the index exports every codec of the encoding layer", () => {
    const functions = [
      "bytesToHex", "hexToBytes", "isHex", "bigintToBytes32", "bytes32ToBigint", "readUint256", "writeUint256",
      "concatBytes", "equalBytes", "encodeCb58", "decodeCb58", "isCb58", "parseAssetId", "isAssetId",
      "assetIdFromCb58", "assetIdFromHex", "assetIdFromBigInt", "assetIdToCb58", "assetIdToHex", "assetIdToBigInt",
      "assetIdToBytes", "parseEvmAddress", "toChecksumAddress", "isEvmAddress", "formatBech32Address",
      "formatChainAddress", "parseBech32Address", "parseChainAddress", "isChainAddress", "shortIdFromPublicKey",
      "evmAddressFromPublicKey", "encodePrivateKey", "decodePrivateKey", "privateKeyToAddresses", "publicKeyToAddresses",
      "encodeNativeAssetBalanceInput", "encodeNativeAssetBalanceInputBytes", "decodeNativeAssetBalanceInput",
      "decodeNativeAssetBalanceInputBytes", "encodeNativeAssetBalanceOutput", "decodeNativeAssetBalanceOutput",
      "encodeNativeAssetCallInput", "encodeNativeAssetCallInputBytes", "decodeNativeAssetCallInput",
      "decodeNativeAssetCallInputBytes",
    ];
    const exported = encoding as unknown as Record<string, unknown>;
    for (const name of functions) expect(typeof exported[name], name).to.equal("function");
  });
});
