/**
 * The platform chain's dynamic fee (ACP-103, as avalanchego vms/components/gas applies it since
 * Etna): a config of weights and rates, and a state of two numbers.
 *
 * - capacity: gas the chain may still consume now. It refills at `maxPerSecond` per second of
 *   block time, up to `maxCapacity`; a block's transactions take their gas from it, and a
 *   transaction needing more than there is is refused.
 * - excess: gas consumed above the target. Every gas consumed adds to it; each second of block
 *   time removes `targetPerSecond` (not below 0).
 * - price (nAVAX per gas): `minPrice · e^(excess / excessConversionConstant)`, computed with
 *   EIP-4844's integer "fake exponential", so it doubles for every
 *   `excessConversionConstant · ln 2` of excess.
 *
 * A transaction's fee is its gas (complexity · weights) times the price.
 */
import { UINT64_MAX } from "../../encoding";
import type { Dimensions } from "./dimensions";

export interface GasConfig {
  /** Weights that merge the complexity's dimensions into gas. */
  weights: Dimensions;
  /** Most gas the chain may hold for future use. */
  maxCapacity: bigint;
  /** Gas the capacity regains per second. */
  maxPerSecond: bigint;
  /** Gas per second the chain should use to keep the price stable. */
  targetPerSecond: bigint;
  /** Lowest price, nAVAX per gas. */
  minPrice: bigint;
  /** Converts excess gas to a price (larger: the price moves more slowly). */
  excessConversionConstant: bigint;
}

export interface GasState {
  capacity: bigint;
  excess: bigint;
}

export class InsufficientCapacityError extends RangeError {
  override readonly name = "InsufficientCapacityError";
  constructor(
    readonly capacity: bigint,
    readonly gas: bigint,
  ) {
    super(`insufficient capacity: capacity (${capacity}) < gas (${gas})`);
  }
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** The state `seconds` later: capacity refilled (at most maxCapacity), excess reduced (at least 0). */
export function advanceGasState(state: GasState, config: GasConfig, seconds: bigint): GasState {
  const duration = seconds > 0n ? seconds : 0n;
  const refilled = state.capacity + config.maxPerSecond * duration;
  const removed = config.targetPerSecond * duration;
  return {
    capacity: min(refilled > UINT64_MAX ? UINT64_MAX : refilled, config.maxCapacity),
    excess: removed >= state.excess ? 0n : state.excess - removed,
  };
}

/** The state after consuming `gas`; throws InsufficientCapacityError when the capacity is smaller. Excess stops at 2^64 - 1. */
export function consumeGas(state: GasState, gas: bigint): GasState {
  if (gas > state.capacity) throw new InsufficientCapacityError(state.capacity, gas);
  return { capacity: state.capacity - gas, excess: min(state.excess + gas, UINT64_MAX) };
}

/**
 * `minPrice · e^(excess / excessConversionConstant)` by the fake exponential of EIP-4844:
 * the Taylor series summed in integers until a term is 0, divided once at the end; 2^64 - 1
 * when the price would not fit in a uint64.
 */
export function gasPrice(minPrice: bigint, excess: bigint, excessConversionConstant: bigint): bigint {
  const denominator = excessConversionConstant;
  const ceiling = denominator * UINT64_MAX;
  let output = 0n;
  let term = minPrice * denominator;
  for (let i = 1n; term > 0n; i++) {
    output += term;
    if (output >= ceiling) return UINT64_MAX;
    term = (term * excess) / denominator / i;
  }
  return denominator === 0n ? 0n : output / denominator;
}

/** The price the config gives a state. */
export function priceOf(state: GasState, config: GasConfig): bigint {
  return gasPrice(config.minPrice, state.excess, config.excessConversionConstant);
}
