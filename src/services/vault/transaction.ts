/**
 * What the vault accepts as a transaction: bytes it decodes completely with the platform
 * chain's codec, nothing before or after. The vault stores only an unsigned platform
 * transaction of the alias's chain, and finds a stored one from a signed transaction by the
 * exact bytes of its unsigned part (never by a prefix: a record of the 42 bytes every platform
 * transaction starts with would otherwise stand for all of them).
 */
import { decodeCb58, encodeCb58, equalBytes } from "../../encoding";
import { PLATFORM_CHAIN_ID } from "../../network/chains";
import { decodePSignedTx, decodePUnsignedTx } from "../../pchain/codec";
import { badRequest } from "./errors";
import { parseHexField } from "./signatures";

/** codec version (2) + type ID (4) + network ID (4) + blockchain ID (32): every platform tx starts so. */
export const UNSIGNED_TX_HEADER = 42;

const PLATFORM_CHAIN_BYTES = decodeCb58(PLATFORM_CHAIN_ID);

/** An unsigned transaction the vault may store: its bytes and the chain it is for (cb58). */
export interface UnsignedTransaction {
  bytes: Uint8Array;
  chainId: string;
}

/**
 * The `unsignedTx` field: hex of one whole unsigned platform transaction of the platform chain,
 * the chain of `alias` (a multisig alias lives there). Anything else is refused with 400.
 */
export function parseUnsignedTx(value: unknown, alias: string): UnsignedTransaction {
  const bytes = parseHexField(value, "unsignedTx", { minBytes: UNSIGNED_TX_HEADER });
  let blockchainId: Uint8Array;
  try {
    blockchainId = decodePUnsignedTx(bytes).blockchainId;
  } catch (error) {
    throw badRequest(`unsignedTx is not a platform transaction: ${(error as Error).message}`);
  }
  const chainId = encodeCb58(blockchainId);
  if (!equalBytes(blockchainId, PLATFORM_CHAIN_BYTES)) {
    throw badRequest(`unsignedTx is a transaction of chain ${chainId}, not of the platform chain (${PLATFORM_CHAIN_ID}) of alias ${alias}`);
  }
  return { bytes, chainId };
}

/**
 * The `signedTx` field: hex of one whole signed platform transaction. Answers its bytes and the
 * exact bytes of its unsigned part (what the owners signed, what the vault stored).
 */
export function parseSignedTx(value: unknown): { bytes: Uint8Array; unsigned: Uint8Array } {
  const bytes = parseHexField(value, "signedTx", { minBytes: UNSIGNED_TX_HEADER });
  let unsignedLength: number;
  try {
    unsignedLength = decodePSignedTx(bytes).unsignedLength;
  } catch (error) {
    throw badRequest(`signedTx is not a signed platform transaction: ${(error as Error).message}`);
  }
  return { bytes, unsigned: bytes.subarray(0, unsignedLength) };
}
