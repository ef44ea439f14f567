/**
 * The platform chain's fee state as its blocks leave it, and what a transaction owes in the
 * next block.
 *
 * The state belongs to the last accepted block: each block first advances it by the seconds
 * since its parent (capacity refills, excess decays), then consumes its transactions' gas. So
 * it is a function of the blocks' times and transactions, recomputed when a chain is replayed.
 * getFeeState reports it with the price of its excess and the last block's time, as the
 * reference does; the next block's price can only be lower (excess decays with time), so a
 * transaction priced from that report pays enough.
 *
 * One difference from the reference: a fresh reference chain starts with capacity 0 (nothing
 * has refilled it before a first block; avalanchejs tolerates that only on network 12345),
 * while this chain's genesis state is full, so builders check capacity on any network ID. A
 * transaction's acceptance is the same either way: its block refills the capacity first.
 */
import type { PUnsignedTx } from "../codec";
import { type Dimensions, toGas } from "./dimensions";
import { txComplexity } from "./complexity";
import { advanceGasState, consumeGas, type GasState, InsufficientCapacityError, priceOf } from "./gas";
import { feeRuleAt, type PlatformFeeSchedule } from "./schedule";

/** What a transaction owes in a block at a given time. */
export type FeeQuote =
  | { rule: "static"; fee: bigint }
  | {
      rule: "dynamic";
      /** gas × price, nAVAX. */
      fee: bigint;
      complexity: Dimensions;
      gas: bigint;
      /** nAVAX per gas. */
      price: bigint;
      /** Gas the block may still consume. */
      capacity: bigint;
    };

/** The fee state of the last accepted block. */
export interface FeeStateAt {
  state: GasState;
  /** The block's time, Unix seconds. */
  timestamp: bigint;
}

export class PlatformFeeMarket {
  private current: FeeStateAt;

  constructor(
    readonly schedule: PlatformFeeSchedule,
    genesisTime: bigint,
  ) {
    this.current = { state: { capacity: schedule.dynamicFeeConfig.maxCapacity, excess: 0n }, timestamp: genesisTime };
  }

  /** The state of the last accepted block, its price and time. */
  feeState(): FeeStateAt & { price: bigint } {
    return { ...this.current, price: priceOf(this.current.state, this.schedule.dynamicFeeConfig) };
  }

  /** The state a block at `time` starts from. */
  private stateAt(time: bigint): GasState {
    return advanceGasState(this.current.state, this.schedule.dynamicFeeConfig, time - this.current.timestamp);
  }

  /** What `tx` owes in a block at `time` (not before the last block). */
  quote(tx: PUnsignedTx, time: bigint): FeeQuote {
    if (feeRuleAt(this.schedule, time) === "static") return { rule: "static", fee: this.schedule.staticFee };
    const config = this.schedule.dynamicFeeConfig;
    const state = this.stateAt(time);
    const complexity = txComplexity(tx);
    const gas = toGas(complexity, config.weights);
    const price = priceOf(state, config);
    return { rule: "dynamic", fee: gas * price, complexity, gas, price, capacity: state.capacity };
  }

  /**
   * A block at `time` holding `tx` was accepted: the state moves to it. Verification has checked
   * the capacity; a replayed block whose gas no longer fits (another fee config) empties it.
   */
  accept(tx: PUnsignedTx, time: bigint): void {
    const timestamp = time > this.current.timestamp ? time : this.current.timestamp;
    if (feeRuleAt(this.schedule, time) === "static") {
      this.current = { state: this.current.state, timestamp };
      return;
    }
    const state = this.stateAt(time);
    const gas = toGas(txComplexity(tx), this.schedule.dynamicFeeConfig.weights);
    let next: GasState;
    try {
      next = consumeGas(state, gas);
    } catch (error) {
      if (!(error instanceof InsufficientCapacityError)) throw error;
      next = { capacity: 0n, excess: state.excess + gas };
    }
    this.current = { state: next, timestamp };
  }

  /** Takes `at` as the last accepted block's state (a chain opened on the state its store kept). */
  resume(at: FeeStateAt): void {
    this.current = { state: at.state, timestamp: at.timestamp };
  }

  /** The state now; the returned function puts it back. */
  capture(): () => void {
    const saved = this.current;
    return () => {
      this.current = saved;
    };
  }
}
