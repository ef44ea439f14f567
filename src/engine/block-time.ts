/**
 * What the next block will be like before it exists: its timestamp (the wall clock plus the
 * offset evm_increaseTime adds, or one set for it), its base fee, its prevRandao, and the gas
 * limit and coinbase of every block. Block production takes them from here, and calls and
 * estimates, which run as if in the next block, read the same values.
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

/** The clock's state that evm_snapshot / evm_revert move back and forth. */
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

export interface ClockSnapshot {
  timeOffset: number;
  nextTimestamp: number | undefined;
  nextBaseFee: bigint | undefined;
}

export class BlockTime {
  /** Seconds added to the wall clock (evm_increaseTime, or a block mined at a chosen time). */
  private timeOffset = 0;
  private nextTimestamp: number | undefined;
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
    const parent = Number(this.state.head.block.header.timestamp);
    if (this.nextTimestamp !== undefined) return BigInt(this.nextTimestamp);
    const now = Math.floor(Date.now() / 1000) + this.timeOffset;
    // The contract chain allows blocks with their parent's timestamp, never an earlier one.
    return BigInt(now > parent ? now : parent);
  }

  /** Moves the clock forward; returns the total offset in seconds. */
  increaseTime(seconds: number): number {
    this.timeOffset += seconds;
    return this.timeOffset;
  }

  setNextBlockTimestamp(timestamp: number): void {
    const parent = Number(this.state.head.block.header.timestamp);
    if (timestamp <= parent) {
      throw new InvalidInputError(`timestamp ${timestamp} is lower than or equal to the previous block's timestamp ${parent}`);
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
   * The header of the block now being produced on `parent`, at `timestamp` if given (the clock
   * then follows it). What was set for the next block only is used up.
   */
  /**
   * The next block gets exactly these header fields, whatever the clock and settings say: a
   * follower re-executes the producer's block with its header (equal timestamps included, which
   * `setNextBlockTimestamp` refuses), and the settings stay as they were.
   */
  pinNextHeader(fields: PinnedHeader): void {
    this.pinned = { ...fields };
  }

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
    const time = timestamp ?? this.nextBlockTimestamp();
    if (timestamp !== undefined) this.timeOffset = Number(timestamp) - Math.floor(Date.now() / 1000);
    this.nextTimestamp = undefined;
    const baseFeePerGas = this.nextBlockBaseFee();
    this.nextBaseFee = undefined;
    const prevRandao = this.nextPrevRandao;
    this.nextPrevRandao = undefined;
    return {
      parentHash: parent.block.hash(),
      number: parent.number + 1n,
      timestamp: time,
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
  }
}
