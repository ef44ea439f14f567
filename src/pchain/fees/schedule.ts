/**
 * Which fee rule the platform chain applies, and with which numbers: the upgrade schedule's
 * Etna time decides, as on the reference node.
 *
 * - Before Etna: the static rule. Every transaction burns the network's fixed `txFee`
 *   (0.001 AVAX on a local network).
 * - From Etna: the dynamic rule (ACP-103, see gas.ts): a transaction burns at least its gas
 *   times the current price, and its gas must fit in the current capacity.
 *
 * The reference's local network has Etna active from the start (upgrade.Default: every upgrade
 * at InitiallyActiveTime, 2020-12-05), so the default here is the dynamic rule with the local
 * network's fee config (avalanchego genesis/genesis_local.go; mainnet and Fuji use the same
 * numbers). `etnaTime: UNSCHEDULED_ACTIVATION_TIME` keeps the pre-Etna fixed fee.
 */
import { type Dimensions, dimensions } from "./dimensions";
import type { GasConfig } from "./gas";

/** 2020-12-05T05:00:00Z: the reference's "initially active" time of a local network's upgrades (Unix seconds). */
export const INITIALLY_ACTIVE_TIME = 1_607_144_400n;
/** 9999-12-01T00:00:00Z: the reference's time for an upgrade that is not scheduled (Unix seconds). */
export const UNSCHEDULED_ACTIVATION_TIME = 253_399_622_400n;
/** 2024-07-15T04:00:00Z: the start time of the reference's local genesis, the platform chain's time before its first block. */
export const LOCAL_GENESIS_TIME = 1_721_016_000n;

/** Bandwidth 1, reads and writes 1000, compute 4: a block of ~1 MB, ~1000 reads or writes, ~250 ms of compute. */
export const LOCAL_FEE_WEIGHTS: Dimensions = dimensions({ bandwidth: 1, dbRead: 1_000, dbWrite: 1_000, compute: 4 });

/** The dynamic fee config of the reference's local network: capacity refills in 10 s, target half of max, price doubles every 30 s of full use. */
export const LOCAL_DYNAMIC_FEE_CONFIG: GasConfig = Object.freeze({
  weights: LOCAL_FEE_WEIGHTS,
  maxCapacity: 1_000_000n,
  maxPerSecond: 100_000n,
  targetPerSecond: 50_000n,
  minPrice: 1n,
  // (maxPerSecond - targetPerSecond) · 30 s / ln 2, as the reference hard-codes it.
  excessConversionConstant: 2_164_043n,
});

export type PlatformFeeRule = "static" | "dynamic";

export interface PlatformFeeSchedule {
  /** From this block time on (Unix seconds) the dynamic rule applies; before it, the static fee. */
  etnaTime: bigint;
  /** The dynamic rule's numbers. */
  dynamicFeeConfig: GasConfig;
  /** The static rule's fee per transaction, nAVAX. */
  staticFee: bigint;
}

/** What a genesis may say about fees; the rest is the local network's. */
export interface PlatformFeeOptions {
  /** Unix seconds; default INITIALLY_ACTIVE_TIME (dynamic fees from the start). UNSCHEDULED_ACTIVATION_TIME: the static fee always. */
  etnaTime?: bigint;
  /** Default LOCAL_DYNAMIC_FEE_CONFIG. */
  dynamicFeeConfig?: GasConfig;
}

export function platformFeeSchedule(staticFee: bigint, options: PlatformFeeOptions = {}): PlatformFeeSchedule {
  return { etnaTime: options.etnaTime ?? INITIALLY_ACTIVE_TIME, dynamicFeeConfig: options.dynamicFeeConfig ?? LOCAL_DYNAMIC_FEE_CONFIG, staticFee };
}

/** The rule of a block at `time`. */
export function feeRuleAt(schedule: PlatformFeeSchedule, time: bigint): PlatformFeeRule {
  return time >= schedule.etnaTime ? "dynamic" : "static";
}
