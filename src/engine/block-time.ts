/**
 * What the next block will be like before it exists: its timestamp (the wall clock plus the
 * offset evm_increaseTime adds, or one set for it), its base fee, its prevRandao, and the gas
 * limit and coinbase of every block. Block production takes them from here, and calls and
 * estimates, which run as if in the next block, read the same values.
 *
 * The clock composes as on Hardhat's network: a block is always later than its
 * parent (one second later when the clock has not moved past it), and every block mined at a
 * chosen time (evm_setNextBlockTimestamp, evm_mine with a timestamp, hardhat_mine's interval) or
 * pushed one second ahead sets the clock to its time, so time added afterwards
 * (evm_increaseTime) counts from that block, not from the wall clock behind it. The contract
 * chain itself accepts a block with its parent's timestamp; the simulator does not make one,
 * because the tests written for Hardhat expect time to move with every block (anvil makes them).
 */
import type { Common } from "@ethereumjs/common";
import { setLengthLeft, type Address } from "@ethereumjs/util";
import type { BlockRecord } from "./chain";
import type { ChainState } from "./chain-state";
import { ZERO32 } from "./common";
import { InvalidInputError } from "./errors";
import type { ResolvedEngineOptions } from "./options";

/** The header fields the engine chooses for a new block (the rest follow from its content). */
export interface HeaderData {
  parentHash: Uint8Array;
  number: bigint;
  timestamp: bigint;
  baseFeePerGas: bigint;
  gasLimit: bigint;
  coinbase: `0x${string}`;
  difficulty: bigint;
  parentBeaconBlockRoot?: Uint8Array;
  mixHash: Uint8Array;
}

/**
 * Every field of the next block's header a node following another must take from the block it
 * re-executes (see `BlockTime.pinNextHeader`).
 */
export interface PinnedHeader {
  timestamp: bigint;
  baseFeePerGas: bigint;
  gasLimit: bigint;
  coinbase: `0x${string}`;
  mixHash: Uint8Array;
}

/** The clock's state that evm_snapshot / evm_revert move back and forth. */
export interface ClockSnapshot {
  timeOffset: number;
  nextTimestamp: number | undefined;
  nextBaseFee: bigint | undefined;
}

export class BlockTime {
  /** Seconds added to the wall clock (evm_increaseTime, or a block mined at a chosen time). */
  private timeOffset = 0;
  private nextTimestamp: number | undefined;
  /** Seconds from each block to the next, instead of the clock (anvil_setBlockTimestampInterval). */
  private blockInterval: number | undefined;
  private nextBaseFee: bigint | undefined;
  private nextPrevRandao: Uint8Array | undefined;
  private pinned: PinnedHeader | undefined;

  /** `settings` is the engine's: this is the one place that changes its gas limit and coinbase. */
  constructor(
    private readonly common: Common,
    private readonly settings: ResolvedEngineOptions,
    private readonly state: ChainState,
  ) {}

  /** The base fee the next block will have. */
  nextBlockBaseFee(): bigint {
    if (this.nextBaseFee !== undefined) return this.nextBaseFee;
    const computed = this.state.head.block.header.calcNextBaseFee();
    return computed > this.settings.minBaseFeePerGas ? computed : this.settings.minBaseFeePerGas;
  }

  /** The timestamp the next block will have, if mined now. */
  nextBlockTimestamp(): bigint {
    return BigInt(this.nextTime(Number(this.state.head.block.header.timestamp), nowSeconds()));
  }

  /**
   * The next block's time on a parent at `parent`, `now` being the wall clock: the one set for
   * it, else the clock (wall clock plus offset), never the parent's time or earlier.
   */
  private nextTime(parent: number, now: number): number {
    if (this.nextTimestamp !== undefined) return this.nextTimestamp;
    const clock = this.blockInterval === undefined ? now + this.timeOffset : parent + this.blockInterval;
    return clock > parent ? clock : parent + 1;
  }

  /** Moves the clock forward; returns the total offset in seconds. */
  increaseTime(seconds: number): number {
    this.timeOffset += seconds;
    return this.timeOffset;
  }

  /** Sets the clock to `timestamp` (anvil_setTime); returns its offset from the wall clock. */
  setTime(timestamp: number): number {
    this.timeOffset = timestamp - nowSeconds();
    return this.timeOffset;
  }

  /**
   * Gives each next block the time of its parent plus `seconds` (anvil_setBlockTimestampInterval),
   * or with undefined goes back to the clock; returns whether an interval was set before.
   */
  setBlockInterval(seconds: number | undefined): boolean {
    const had = this.blockInterval !== undefined;
    this.blockInterval = seconds;
    return had;
  }

  /** The next block's time (Hardhat's network refuses one not later than the head's, with these words). */
  setNextBlockTimestamp(timestamp: number): void {
    const parent = Number(this.state.head.block.header.timestamp);
    if (timestamp < parent) throw lowerThanParent(timestamp, parent);
    if (timestamp === parent) {
      throw new InvalidInputError(`Timestamp ${timestamp} is equal to the previous block's timestamp: each block must be later than its parent`);
    }
    this.nextTimestamp = timestamp;
  }

  setNextBlockBaseFee(fee: bigint): void {
    this.nextBaseFee = fee;
  }

  setNextPrevRandao(value: Uint8Array): void {
    this.nextPrevRandao = setLengthLeft(value, 32);
  }

  setBlockGasLimit(gasLimit: bigint): void {
    if (gasLimit <= 0n) throw new InvalidInputError("the block gas limit must be positive");
    this.settings.blockGasLimit = gasLimit;
  }

  setCoinbase(address: Address): void {
    this.settings.coinbase = address.toString();
  }

  /**
   * The next block gets exactly these header fields, whatever the clock and settings say: a
   * follower re-executes the producer's block with its header (equal timestamps included, which
   * `setNextBlockTimestamp` refuses), and the settings stay as they were.
   */
  pinNextHeader(fields: PinnedHeader): void {
    this.pinned = { ...fields };
  }

  /**
   * The header of the block now being produced on `parent`, at `timestamp` if given (the clock
   * then follows it). What was set for the next block only is used up. Throws
   * InvalidInputError for a `timestamp` earlier than the parent's.
   */
  takeNextHeader(parent: BlockRecord, timestamp?: bigint): HeaderData {
    const pinned = this.pinned;
    if (pinned !== undefined) {
      this.pinned = undefined;
      return {
        parentHash: parent.block.hash(),
        number: parent.number + 1n,
        ...pinned,
        difficulty: 0n,
        ...(this.common.isActivatedEIP(4788) ? { parentBeaconBlockRoot: ZERO32 } : {}),
      };
    }
    const parentTime = Number(parent.block.header.timestamp);
    const now = nowSeconds();
    let time: number;
    if (timestamp !== undefined) {
      // As Hardhat's evm_mine: an earlier time is refused, the parent's own is one second later.
      time = Number(timestamp);
      if (time < parentTime) throw lowerThanParent(time, parentTime);
      if (time === parentTime) time += 1;
    } else time = this.nextTime(parentTime, now);
    // The clock follows every block (a block taken from the clock leaves it as it was).
    this.timeOffset = time - now;
    this.nextTimestamp = undefined;
    const baseFeePerGas = this.nextBlockBaseFee();
    this.nextBaseFee = undefined;
    const prevRandao = this.nextPrevRandao;
    this.nextPrevRandao = undefined;
    return {
      parentHash: parent.block.hash(),
      number: parent.number + 1n,
      timestamp: BigInt(time),
      baseFeePerGas,
      gasLimit: this.settings.blockGasLimit,
      coinbase: this.settings.coinbase as `0x${string}`,
      difficulty: 0n,
      ...(this.common.isActivatedEIP(4788) ? { parentBeaconBlockRoot: ZERO32 } : {}),
      mixHash: prevRandao ?? ZERO32,
    };
  }

  capture(): ClockSnapshot {
    return { timeOffset: this.timeOffset, nextTimestamp: this.nextTimestamp, nextBaseFee: this.nextBaseFee };
  }

  restore(snapshot: ClockSnapshot): void {
    this.timeOffset = snapshot.timeOffset;
    this.nextTimestamp = snapshot.nextTimestamp;
    this.nextBaseFee = snapshot.nextBaseFee;
  }

  /**
   * Back to the wall clock with nothing set for the next block (hardhat_reset). The gas limit
   * and coinbase stay as they were last set.
   */
  reset(): void {
    this.timeOffset = 0;
    this.nextTimestamp = undefined;
    this.nextBaseFee = undefined;
    this.nextPrevRandao = undefined;
    this.pinned = undefined;
    this.blockInterval = undefined;
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function lowerThanParent(timestamp: number, parent: number): InvalidInputError {
  return new InvalidInputError(`Timestamp ${timestamp} is lower than the previous block's timestamp ${parent}`);
}
