/** The platform chain's dynamic fees (ACP-103): the fee config and the current fee state. */
import type { Endpoint } from "../call";
import type { RequestOptions } from "../types";

/** platform.getFeeConfig: the dynamic fee config (ACP-103) the chain runs since Etna. */
export interface PlatformFeeConfig {
  /** Gas per unit of each dimension (the node writes them as an array in this order). */
  weights: { bandwidth: bigint; dbRead: bigint; dbWrite: bigint; compute: bigint };
  maxCapacity: bigint;
  maxPerSecond: bigint;
  targetPerSecond: bigint;
  minPrice: bigint;
  excessConversionConstant: bigint;
}

/** platform.getFeeState: the last accepted block's gas capacity and excess, the gas price (nAVAX) and the block's time (RFC 3339). */
export interface PlatformFeeState {
  capacity: bigint;
  excess: bigint;
  price: bigint;
  timestamp: string;
}

export function getFeeConfig(chain: Endpoint, options?: RequestOptions): Promise<PlatformFeeConfig> {
  return chain.call(
    "getFeeConfig",
    () => ({}),
    (r) => {
      const weights = r.get("weights").array();
      if (weights.length !== 4) r.get("weights").fail("an array of 4 weights [bandwidth, dbRead, dbWrite, compute]");
      const [bandwidth, dbRead, dbWrite, compute] = weights.map((w) => w.uint64()) as [bigint, bigint, bigint, bigint];
      return {
        weights: { bandwidth, dbRead, dbWrite, compute },
        maxCapacity: r.get("maxCapacity").uint64(),
        maxPerSecond: r.get("maxPerSecond").uint64(),
        targetPerSecond: r.get("targetPerSecond").uint64(),
        minPrice: r.get("minPrice").uint64(),
        excessConversionConstant: r.get("excessConversionConstant").uint64(),
      };
    },
    options,
  );
}

/** A transaction's fee is its gas (complexity · weights) times `price`. */
export function getFeeState(chain: Endpoint, options?: RequestOptions): Promise<PlatformFeeState> {
  return chain.call(
    "getFeeState",
    () => ({}),
    (r) => ({
      capacity: r.get("capacity").uint64(),
      excess: r.get("excess").uint64(),
      price: r.get("price").uint64(),
      timestamp: r.get("timestamp").string(),
    }),
    options,
  );
}
