import { type AssetIdInput, parseAssetId } from "./asset-id";
import { fail } from "./errors";
import { checksumAddressFromBytes, type EvmAddressInput, parseEvmAddressAs } from "./evm-address";
import { assertUint256, bigintToBytes32, bytesToHex, type Hex, parseHex, readUint256, writeUint256 } from "./hex";

/** Address of the contract-chain genesis contract. */
export const GENESIS_CONTRACT_ADDRESS = "0x0100000000000000000000000000000000000000" as const;
/** Precompile returning an account's balance of a native asset. */
export const NATIVE_ASSET_BALANCE_ADDRESS = "0x0100000000000000000000000000000000000001" as const;
/** Precompile transferring a native asset to an address and optionally calling it. */
export const NATIVE_ASSET_CALL_ADDRESS = "0x0100000000000000000000000000000000000002" as const;

/** nativeAssetBalance input: address (20 bytes) ++ assetID (32 bytes), packed. */
export const NATIVE_ASSET_BALANCE_INPUT_LENGTH = 52;
/** nativeAssetCall input: address (20) ++ assetID (32) ++ amount (32) ++ callData (any length). */
export const NATIVE_ASSET_CALL_MIN_INPUT_LENGTH = 84;

const ADDRESS_END = 20;
const ASSET_ID_END = 52;
const AMOUNT_END = 84;

export interface NativeAssetBalanceInput {
  /** Account whose balance is read. */
  account: EvmAddressInput;
  /** Asset ID in any accepted spelling (cb58, 32-byte hex, uint256 bigint, 32 bytes). */
  assetId: AssetIdInput;
}

export interface DecodedNativeAssetBalanceInput {
  /** EIP-55 checksummed address. */
  account: Hex;
  /** Lowercase 32-byte hex asset ID. */
  assetId: Hex;
}

/** Byte-level view of a nativeAssetBalance input; fields are subarrays of the input. */
export interface NativeAssetBalanceInputBytes {
  account: Uint8Array;
  assetId: Uint8Array;
}

export interface NativeAssetCallInput {
  /** Recipient of the asset, and callee when callData is not empty. */
  to: EvmAddressInput;
  /** Asset ID in any accepted spelling (cb58, 32-byte hex, uint256 bigint, 32 bytes). */
  assetId: AssetIdInput;
  /** Amount in the asset's smallest unit, a bigint in [0, 2^256). */
  amount: bigint;
  /** Data of the call to `to` (0x hex, as ethers' encodeFunctionData returns it, or bytes); empty when omitted. */
  callData?: string | Uint8Array;
}

export interface DecodedNativeAssetCallInput {
  /** EIP-55 checksummed address. */
  to: Hex;
  /** Lowercase 32-byte hex asset ID. */
  assetId: Hex;
  amount: bigint;
  /** Lowercase hex, "0x" when empty. */
  callData: Hex;
}

/** Byte-level view of a nativeAssetCall input; byte fields are subarrays of the input. */
export interface NativeAssetCallInputBytes {
  to: Uint8Array;
  assetId: Uint8Array;
  amount: bigint;
  callData: Uint8Array;
}

function inputBytes(data: unknown, what: string): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (typeof data === "string") return parseHex(data, what);
  return fail(what, data, "expected 0x-prefixed hex or a Uint8Array");
}

// ---------------------------------------------------------------------------------------------
// nativeAssetBalance

/** Packed nativeAssetBalance input as bytes (52 bytes). */
export function encodeNativeAssetBalanceInputBytes({ account, assetId }: NativeAssetBalanceInput): Uint8Array {
  const out = new Uint8Array(NATIVE_ASSET_BALANCE_INPUT_LENGTH);
  out.set(parseEvmAddressAs(account, "nativeAssetBalance account"), 0);
  out.set(parseAssetId(assetId), ADDRESS_END);
  return out;
}

/** Packed nativeAssetBalance input: 20-byte address then 32-byte asset ID (52 bytes). */
export function encodeNativeAssetBalanceInput(input: NativeAssetBalanceInput): Hex {
  return bytesToHex(encodeNativeAssetBalanceInputBytes(input));
}

/**
 * Split a nativeAssetBalance input (exactly 52 bytes) without copying: the fields are
 * subarrays of `data`. For the engine's hot path.
 */
export function decodeNativeAssetBalanceInputBytes(data: Uint8Array): NativeAssetBalanceInputBytes {
  return splitBalanceInput(data, data);
}

function splitBalanceInput(data: Uint8Array, original: unknown): NativeAssetBalanceInputBytes {
  if (!(data instanceof Uint8Array)) fail("nativeAssetBalance input", data, "expected a Uint8Array");
  if (data.length !== NATIVE_ASSET_BALANCE_INPUT_LENGTH) {
    fail(
      "nativeAssetBalance input",
      original,
      `expected exactly ${NATIVE_ASSET_BALANCE_INPUT_LENGTH} bytes (20-byte address + 32-byte asset ID), got ${data.length}`,
    );
  }
  return { account: data.subarray(0, ADDRESS_END), assetId: data.subarray(ADDRESS_END, ASSET_ID_END) };
}

/** Decode a nativeAssetBalance input (exactly 52 bytes, hex or bytes). */
export function decodeNativeAssetBalanceInput(data: Hex | Uint8Array): DecodedNativeAssetBalanceInput {
  const { account, assetId } = splitBalanceInput(inputBytes(data, "nativeAssetBalance input"), data);
  return { account: checksumAddressFromBytes(account), assetId: bytesToHex(assetId) };
}

/** nativeAssetBalance output: the balance as one 32-byte big-endian word. */
export function encodeNativeAssetBalanceOutput(balance: bigint): Hex {
  assertUint256(balance, "nativeAssetBalance balance");
  return bytesToHex(bigintToBytes32(balance));
}

/** Balance from a nativeAssetBalance output, which must be exactly one 32-byte word. */
export function decodeNativeAssetBalanceOutput(data: Hex | Uint8Array): bigint {
  const bytes = inputBytes(data, "nativeAssetBalance output");
  if (bytes.length !== 32) {
    fail("nativeAssetBalance output", data, `expected exactly one 32-byte word, got ${bytes.length} bytes`);
  }
  return readUint256(bytes, 0);
}

// ---------------------------------------------------------------------------------------------
// nativeAssetCall

/** Packed nativeAssetCall input as bytes (84 + callData length). */
export function encodeNativeAssetCallInputBytes({ to, assetId, amount, callData }: NativeAssetCallInput): Uint8Array {
  const address = parseEvmAddressAs(to, "nativeAssetCall recipient");
  const id = parseAssetId(assetId);
  assertUint256(amount, "nativeAssetCall amount");
  let data: Uint8Array;
  if (callData === undefined) data = new Uint8Array(0);
  else if (callData instanceof Uint8Array) data = callData;
  else if (typeof callData === "string") data = parseHex(callData, "nativeAssetCall callData");
  else data = fail("nativeAssetCall callData", callData, "expected 0x-prefixed hex, a Uint8Array or undefined");
  const out = new Uint8Array(NATIVE_ASSET_CALL_MIN_INPUT_LENGTH + data.length);
  out.set(address, 0);
  out.set(id, ADDRESS_END);
  writeUint256(out, ASSET_ID_END, amount);
  out.set(data, AMOUNT_END);
  return out;
}

/** Packed nativeAssetCall input: address (20) ++ asset ID (32) ++ amount (32) ++ callData. */
export function encodeNativeAssetCallInput(input: NativeAssetCallInput): Hex {
  return bytesToHex(encodeNativeAssetCallInputBytes(input));
}

/**
 * Split a nativeAssetCall input (at least 84 bytes) without copying: `to`, `assetId` and
 * `callData` are subarrays of `data`. For the engine's hot path.
 */
export function decodeNativeAssetCallInputBytes(data: Uint8Array): NativeAssetCallInputBytes {
  return splitCallInput(data, data);
}

function splitCallInput(data: Uint8Array, original: unknown): NativeAssetCallInputBytes {
  if (!(data instanceof Uint8Array)) fail("nativeAssetCall input", data, "expected a Uint8Array");
  if (data.length < NATIVE_ASSET_CALL_MIN_INPUT_LENGTH) {
    fail(
      "nativeAssetCall input",
      original,
      `expected at least ${NATIVE_ASSET_CALL_MIN_INPUT_LENGTH} bytes (20-byte address + 32-byte asset ID + 32-byte amount, then call data), got ${data.length}`,
    );
  }
  return {
    to: data.subarray(0, ADDRESS_END),
    assetId: data.subarray(ADDRESS_END, ASSET_ID_END),
    amount: readUint256(data, ASSET_ID_END),
    callData: data.subarray(AMOUNT_END),
  };
}

/** Decode a nativeAssetCall input (at least 84 bytes, hex or bytes). */
export function decodeNativeAssetCallInput(data: Hex | Uint8Array): DecodedNativeAssetCallInput {
  const decoded = splitCallInput(inputBytes(data, "nativeAssetCall input"), data);
  return {
    to: checksumAddressFromBytes(decoded.to),
    assetId: bytesToHex(decoded.assetId),
    amount: decoded.amount,
    callData: bytesToHex(decoded.callData),
  };
}
