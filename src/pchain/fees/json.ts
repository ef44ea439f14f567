/**
 * The fee keys a genesis file may hold, named as the reference names them: `etnaTime` (its
 * upgrade file's key: an RFC 3339 time, or Unix seconds) and `dynamicFeeConfig` (its network
 * parameters' key: `{weights: [bandwidth, dbRead, dbWrite, compute], maxCapacity,
 * maxPerSecond, targetPerSecond, minPrice, excessConversionConstant}`, non-negative integers).
 * Errors are RangeErrors naming the field.
 */
import { UINT64_MAX } from "../../encoding";
import { dimensions } from "./dimensions";
import type { GasConfig } from "./gas";
import type { PlatformFeeOptions } from "./schedule";

function uint64(value: unknown, where: string): bigint {
  const ok = (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) || (typeof value === "string" && /^\d+$/.test(value));
  if (!ok) throw new RangeError(`${where}: expected a non-negative integer, got ${JSON.stringify(value)}`);
  const n = BigInt(value as number | string);
  if (n > UINT64_MAX) throw new RangeError(`${where}: ${n} does not fit in a uint64`);
  return n;
}

function etnaTime(value: unknown): bigint {
  if (typeof value === "string" && !/^\d+$/.test(value)) {
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw new RangeError(`etnaTime: expected an RFC 3339 time such as "2024-12-16T17:00:00Z" or Unix seconds, got ${JSON.stringify(value)}`);
    return BigInt(Math.floor(ms / 1000));
  }
  return uint64(value, "etnaTime");
}

function dynamicFeeConfig(value: unknown): GasConfig {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new RangeError("dynamicFeeConfig: expected an object {weights, maxCapacity, maxPerSecond, targetPerSecond, minPrice, excessConversionConstant}");
  const v = value as Record<string, unknown>;
  if (!Array.isArray(v.weights) || v.weights.length !== 4) throw new RangeError("dynamicFeeConfig.weights: expected 4 integers [bandwidth, dbRead, dbWrite, compute]");
  const [bandwidth, dbRead, dbWrite, compute] = v.weights.map((w: unknown, i) => uint64(w, `dynamicFeeConfig.weights[${i}]`)) as [bigint, bigint, bigint, bigint];
  const field = (name: keyof GasConfig) => uint64(v[name], `dynamicFeeConfig.${name}`);
  return {
    weights: dimensions({ bandwidth, dbRead, dbWrite, compute }),
    maxCapacity: field("maxCapacity"),
    maxPerSecond: field("maxPerSecond"),
    targetPerSecond: field("targetPerSecond"),
    minPrice: field("minPrice"),
    excessConversionConstant: field("excessConversionConstant"),
  };
}

/** The fee options of a genesis JSON object; undefined when it names none. */
export function parseFeeOptionsJson(json: Record<string, unknown>): PlatformFeeOptions | undefined {
  if (json.etnaTime === undefined && json.dynamicFeeConfig === undefined) return undefined;
  return {
    ...(json.etnaTime === undefined ? {} : { etnaTime: etnaTime(json.etnaTime) }),
    ...(json.dynamicFeeConfig === undefined ? {} : { dynamicFeeConfig: dynamicFeeConfig(json.dynamicFeeConfig) }),
  };
}
