/**
 * The four resources a platform-chain transaction uses (ACP-103, avalanchego
 * vms/components/gas): bytes sent (bandwidth), database reads and writes, and signature
 * verification time (compute). A node's fee config weighs them into one amount of gas.
 *
 * All values are uint64 in the reference; here bigints checked against 2^64 - 1, an overflow
 * being a {@link GasOverflowError}.
 */
import { UINT64_MAX } from "../../encoding";

export interface Dimensions {
  bandwidth: bigint;
  dbRead: bigint;
  dbWrite: bigint;
  compute: bigint;
}

/** The dimensions in the reference's order (its JSON array order: bandwidth, dbRead, dbWrite, compute). */
export const DIMENSION_NAMES = ["bandwidth", "dbRead", "dbWrite", "compute"] as const satisfies readonly (keyof Dimensions)[];

export class GasOverflowError extends RangeError {
  override readonly name = "GasOverflowError";
}

function checked(value: bigint, what: string): bigint {
  if (value > UINT64_MAX) throw new GasOverflowError(`${what} overflows uint64 (${value})`);
  return value;
}

/** Dimensions with the given values, the others 0. */
export function dimensions(values: Partial<Record<keyof Dimensions, bigint | number>> = {}): Dimensions {
  const of = (k: keyof Dimensions): bigint => BigInt(values[k] ?? 0);
  return { bandwidth: of("bandwidth"), dbRead: of("dbRead"), dbWrite: of("dbWrite"), compute: of("compute") };
}

/** The sum of `all`, dimension by dimension. */
export function addDimensions(...all: Dimensions[]): Dimensions {
  const sum = dimensions();
  for (const d of all) for (const k of DIMENSION_NAMES) sum[k] = checked(sum[k] + d[k], `complexity ${k}`);
  return sum;
}

/** `d · weights`: the gas a complexity costs. */
export function toGas(d: Dimensions, weights: Dimensions): bigint {
  let gas = 0n;
  for (const k of DIMENSION_NAMES) gas = checked(gas + checked(d[k] * weights[k], `gas of ${k}`), "gas");
  return gas;
}

/** As the reference writes dimensions in JSON: [bandwidth, dbRead, dbWrite, compute]. */
export function dimensionsToArray(d: Dimensions): [bigint, bigint, bigint, bigint] {
  return [d.bandwidth, d.dbRead, d.dbWrite, d.compute];
}
