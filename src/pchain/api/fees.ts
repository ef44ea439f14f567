/**
 * platform.getFeeConfig and platform.getFeeState (avalanchego vms/platformvm service.go, since
 * Etna), which avalanchejs 5 reads first (`Context.getContextFromURI`, `PVMApi.getFeeState`).
 *
 * The shapes are the reference's JSON of gas.Config and of the fee state: every gas amount and
 * price is a uint64 the reference writes as a JSON number (not a string), the weights are an
 * array [bandwidth, dbRead, dbWrite, compute], and the state's time is RFC 3339. (A value above
 * 2^53 would lose precision in JavaScript, as it does for any client parsing the reference's
 * answer with JSON.parse; none of the local config's values come near.)
 */
import { RpcApi } from "../../rpc";
import { dimensionsToArray } from "../fees";
import type { PlatformChain } from "../vm/chain";

/** What platform.getFeeConfig answers. */
export interface FeeConfigReply {
  weights: [number, number, number, number];
  maxCapacity: number;
  maxPerSecond: number;
  targetPerSecond: number;
  minPrice: number;
  excessConversionConstant: number;
}

/** What platform.getFeeState answers: the last accepted block's capacity and excess, the price of that excess, and the block's time. */
export interface FeeStateReply {
  capacity: number;
  excess: number;
  price: number;
  timestamp: string;
}

/** platform.getFeeConfig: the dynamic fee config of the chain. */
export function getFeeConfig(chain: PlatformChain): FeeConfigReply {
  const config = chain.feeSchedule().dynamicFeeConfig;
  const [bandwidth, dbRead, dbWrite, compute] = dimensionsToArray(config.weights).map(Number) as [number, number, number, number];
  return {
    weights: [bandwidth, dbRead, dbWrite, compute],
    maxCapacity: Number(config.maxCapacity),
    maxPerSecond: Number(config.maxPerSecond),
    targetPerSecond: Number(config.targetPerSecond),
    minPrice: Number(config.minPrice),
    excessConversionConstant: Number(config.excessConversionConstant),
  };
}

/** platform.getFeeState: the current fee state of the chain. */
export function getFeeState(chain: PlatformChain): FeeStateReply {
  const { state, price, timestamp } = chain.feeState();
  return { capacity: Number(state.capacity), excess: Number(state.excess), price: Number(price), timestamp: rfc3339(timestamp) };
}

/** Go's time.Time in JSON for whole seconds: "2024-07-15T04:00:00Z". */
function rfc3339(unixSeconds: bigint): string {
  return new Date(Number(unixSeconds) * 1000).toISOString().replace(".000Z", "Z");
}

export function createPlatformFeeApi(chain: PlatformChain): RpcApi {
  return new RpcApi().namedMethods(chain, {
    "platform.getFeeConfig": getFeeConfig,
    "platform.getFeeState": getFeeState,
  });
}
