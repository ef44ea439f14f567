/** The platform chain's blocks: the height, and a block by ID or by height. */
import type { Endpoint } from "../call";
import { compact, type JsonObject } from "../json";
import type { RequestOptions } from "../types";

export interface PlatformGetBlockParameters {
  blockID: string;
  encoding?: "hex" | "json";
}

export interface PlatformGetBlockByHeightParameters {
  height: bigint | number;
  encoding?: "hex" | "json";
}

/** A block: hex bytes, or with encoding `json` the block as an object. */
export interface PlatformBlock {
  block: string | JsonObject;
  encoding: string;
}

export function getHeight(chain: Endpoint, options?: RequestOptions): Promise<bigint> {
  return chain.call("getHeight", () => ({}), (r) => r.get("height").uint64(), options);
}

export function getBlock(chain: Endpoint, parameters: PlatformGetBlockParameters, options?: RequestOptions): Promise<PlatformBlock> {
  return callBlockMethod(chain, "getBlock", parameters, options);
}

export function getBlockByHeight(
  chain: Endpoint,
  parameters: PlatformGetBlockByHeightParameters,
  options?: RequestOptions,
): Promise<PlatformBlock> {
  return callBlockMethod(chain, "getBlockByHeight", parameters, options);
}

function callBlockMethod(
  chain: Endpoint,
  name: "getBlock" | "getBlockByHeight",
  parameters: { blockID?: string; height?: bigint | number; encoding?: "hex" | "json" },
  options: RequestOptions | undefined,
): Promise<PlatformBlock> {
  return chain.call(
    name,
    (args) =>
      compact({
        blockID: parameters.blockID,
        height: parameters.height === undefined ? undefined : args.uint64(parameters.height, "height"),
        encoding: parameters.encoding,
      }),
    (r) => ({
      block: r.get("encoding").string() === "json" ? r.get("block").object() : r.get("block").string(),
      encoding: r.get("encoding").string(),
    }),
    options,
  );
}
