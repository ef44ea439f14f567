/**
 * The contract chain's extra `eth_*` methods, over its standard EVM JSON-RPC: a native asset's
 * balance, the base fee and the priority fee.
 */
import { assetIdToCb58, type AssetIdInput, UINT64_MAX } from "../../encoding";
import type { Endpoint } from "../call";
import type { Args } from "../internal";
import type { RequestOptions } from "../types";

/** A block: a tag, a number or a 32-byte block hash. */
export type BlockParameter = "latest" | "pending" | "earliest" | "safe" | "finalized" | bigint | number | `0x${string}`;

/** `eth_getAssetBalance`: balance of a native asset (not the native coin) held by `address`. */
export function getAssetBalance(
  evm: Endpoint,
  address: string,
  assetID: AssetIdInput,
  block: BlockParameter = "latest",
  options?: RequestOptions,
): Promise<bigint> {
  return evm.call(
    "eth_getAssetBalance",
    (args) => {
      args.string(address, "address");
      let id: string;
      try {
        id = assetIdToCb58(assetID);
      } catch (e) {
        throw new TypeError(`eth_getAssetBalance: assetID: ${e instanceof Error ? e.message : String(e)}`);
      }
      return [address, blockParam(args, block), id];
    },
    (r) => r.quantity(),
    options,
  );
}

/** `eth_baseFee`: base fee of the next block, in wei. */
export function baseFee(evm: Endpoint, options?: RequestOptions): Promise<bigint> {
  return evm.call("eth_baseFee", () => [], (r) => r.quantity(), options);
}

/** `eth_maxPriorityFeePerGas`: priority fee needed for inclusion, in wei. */
export function maxPriorityFeePerGas(evm: Endpoint, options?: RequestOptions): Promise<bigint> {
  return evm.call("eth_maxPriorityFeePerGas", () => [], (r) => r.quantity(), options);
}

function blockParam(args: Args, block: unknown): string {
  if (typeof block === "bigint" || typeof block === "number") {
    const value = typeof block === "number" ? (Number.isSafeInteger(block) ? BigInt(block) : -1n) : block;
    if (value < 0n || value > UINT64_MAX) {
      throw new RangeError(`${args.method}: block number must be a non-negative integer below 2^64, got ${String(block)}`);
    }
    return `0x${value.toString(16)}`;
  }
  if (typeof block === "string") {
    if (["latest", "pending", "earliest", "safe", "finalized"].includes(block)) return block;
    if (/^0x[0-9a-fA-F]{64}$/.test(block)) return block;
    if (/^0x[0-9a-fA-F]{1,16}$/.test(block)) return block;
  }
  return args.type("block", "a block tag, number or 32-byte hash", block);
}
