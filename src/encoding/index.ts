/**
 * Pure encoding layer: cb58, hex, asset IDs, precompile calldata, exchange- and contract-chain
 * addresses and private keys. Every function validates its input and throws EncodingError.
 */
export { EncodingError } from "./errors";
export {
  type Hex,
  UINT256_MAX,
  bytesToHex,
  hexToBytes,
  isHex,
  bigintToBytes32,
  bytes32ToBigint,
  readUint256,
  writeUint256,
  concatBytes,
  equalBytes,
} from "./hex";
export { CB58_CHECKSUM_LENGTH, CB58_MAX_PAYLOAD_BYTES, encodeCb58, decodeCb58, isCb58 } from "./cb58";
export {
  ASSET_ID_LENGTH,
  type AssetIdInput,
  parseAssetId,
  isAssetId,
  assetIdFromCb58,
  assetIdFromHex,
  assetIdFromBigInt,
  assetIdToCb58,
  assetIdToHex,
  assetIdToBigInt,
  assetIdToBytes,
} from "./asset-id";
export {
  EVM_ADDRESS_LENGTH,
  type EvmAddressInput,
  parseEvmAddress,
  toChecksumAddress,
  isEvmAddress,
} from "./evm-address";
export {
  SHORT_ID_LENGTH,
  EXCHANGE_CHAIN_ALIAS,
  MAX_HRP_LENGTH,
  type Bech32Address,
  type ChainAddress,
  formatBech32Address,
  formatChainAddress,
  parseBech32Address,
  parseChainAddress,
  isChainAddress,
  shortIdFromPublicKey,
  evmAddressFromPublicKey,
} from "./address";
export {
  PRIVATE_KEY_PREFIX,
  PRIVATE_KEY_LENGTH,
  SECP256K1_ORDER,
  type KeyAddresses,
  encodePrivateKey,
  decodePrivateKey,
  privateKeyToAddresses,
  publicKeyToAddresses,
} from "./private-key";
export {
  GENESIS_CONTRACT_ADDRESS,
  NATIVE_ASSET_BALANCE_ADDRESS,
  NATIVE_ASSET_CALL_ADDRESS,
  NATIVE_ASSET_BALANCE_INPUT_LENGTH,
  NATIVE_ASSET_CALL_MIN_INPUT_LENGTH,
  type NativeAssetBalanceInput,
  type DecodedNativeAssetBalanceInput,
  type NativeAssetBalanceInputBytes,
  type NativeAssetCallInput,
  type DecodedNativeAssetCallInput,
  type NativeAssetCallInputBytes,
  encodeNativeAssetBalanceInput,
  encodeNativeAssetBalanceInputBytes,
  decodeNativeAssetBalanceInput,
  decodeNativeAssetBalanceInputBytes,
  encodeNativeAssetBalanceOutput,
  decodeNativeAssetBalanceOutput,
  encodeNativeAssetCallInput,
  encodeNativeAssetCallInputBytes,
  decodeNativeAssetCallInput,
  decodeNativeAssetCallInputBytes,
} from "./precompile";
export { type NodeByteEncoding, NODE_BYTE_ENCODINGS, NODE_BYTES_CHECKSUM_LENGTH, encodeNodeBytes, decodeNodeBytes } from "./node-bytes";
export { UINT64_MAX, UINT32_MAX } from "./integers";
