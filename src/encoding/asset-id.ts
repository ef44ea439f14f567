import { decodeCb58, encodeCb58 } from "./cb58";
import { EncodingError, fail } from "./errors";
import { assertUint256, bigintToBytes32, bytes32ToBigint, bytesToHex, type Hex, parseHex } from "./hex";

/** Asset, transaction and chain IDs are 32 bytes. */
export const ASSET_ID_LENGTH = 32;

/**
 * Any accepted spelling of an asset ID: a cb58 string, a 0x-prefixed 32-byte hex string,
 * a bigint in [0, 2^256) (the Solidity uint256, big-endian) or 32 bytes.
 */
export type AssetIdInput = string | bigint | Uint8Array;

const ACCEPTED_FORMS =
  "accepted forms: a cb58 string, a 0x-prefixed 32-byte hex string (64 hex digits), a bigint in [0, 2^256) or a 32-byte Uint8Array";

function detailOf(error: unknown): string {
  return error instanceof EncodingError ? error.detail : String(error);
}

/** Asset ID bytes from its cb58 form (the payload must be 32 bytes). */
export function assetIdFromCb58(text: string): Uint8Array {
  const bytes = decodeCb58(text);
  if (bytes.length !== ASSET_ID_LENGTH) {
    fail("asset ID", text, `cb58 payload is ${bytes.length} bytes, expected ${ASSET_ID_LENGTH}`);
  }
  return bytes;
}

/** Asset ID bytes from its 0x-prefixed 32-byte hex form (either case). */
export function assetIdFromHex(hex: string): Uint8Array {
  return parseHex(hex, "asset ID hex", ASSET_ID_LENGTH);
}

/** Asset ID bytes from its Solidity uint256 value (big-endian). */
export function assetIdFromBigInt(value: bigint): Uint8Array {
  assertUint256(value, "asset ID");
  return bigintToBytes32(value);
}

/**
 * Normalise any accepted asset ID spelling to a fresh 32-byte array: a cb58 string, a
 * 0x-prefixed 32-byte hex string, a bigint in [0, 2^256) or a 32-byte Uint8Array (copied).
 * Everything else is rejected with an EncodingError naming the accepted forms.
 */
export function parseAssetId(input: AssetIdInput): Uint8Array {
  if (input instanceof Uint8Array) {
    if (input.length !== ASSET_ID_LENGTH) {
      fail("asset ID", input, `${input.length} bytes; ${ACCEPTED_FORMS}`);
    }
    return input.slice();
  }
  if (typeof input === "bigint") {
    if (input < 0n || input >> 256n !== 0n) fail("asset ID", input, `out of range; ${ACCEPTED_FORMS}`);
    return bigintToBytes32(input);
  }
  if (typeof input === "string") {
    if (input.startsWith("0x") || input.startsWith("0X")) {
      try {
        return assetIdFromHex(input);
      } catch (error) {
        fail("asset ID", input, `${detailOf(error)}; ${ACCEPTED_FORMS}`, error);
      }
    }
    try {
      return assetIdFromCb58(input);
    } catch (error) {
      fail("asset ID", input, `${detailOf(error)}; ${ACCEPTED_FORMS}`, error);
    }
  }
  return fail("asset ID", input, ACCEPTED_FORMS);
}

/** True when `input` is an accepted asset ID spelling. */
export function isAssetId(input: unknown): input is AssetIdInput {
  try {
    parseAssetId(input as AssetIdInput);
    return true;
  } catch (error) {
    if (error instanceof EncodingError) return false;
    throw error;
  }
}

/** cb58 form of an asset ID given in any accepted spelling. */
export function assetIdToCb58(id: AssetIdInput): string {
  return encodeCb58(parseAssetId(id));
}

/** Lowercase 0x-prefixed 32-byte hex form of an asset ID given in any accepted spelling. */
export function assetIdToHex(id: AssetIdInput): Hex {
  return bytesToHex(parseAssetId(id));
}

/** Solidity uint256 (big-endian) of an asset ID given in any accepted spelling. */
export function assetIdToBigInt(id: AssetIdInput): bigint {
  return bytes32ToBigint(parseAssetId(id));
}

/** 32 bytes of an asset ID given in any accepted spelling (alias of parseAssetId). */
export const assetIdToBytes: (id: AssetIdInput) => Uint8Array = parseAssetId;
