import type { Account, Address } from "@ethereumjs/util";
import type { BlockRecord } from "./chain";

/**
 * What the contract chain's atomic (cross-chain) transactions need from the engine, and all
 * they may touch: the `cchain` folder reaches the engine only through this interface.
 */
export interface AtomicChainHost {
  /** Runs `work` alone on the chain: no other operation interleaves with it. */
  serialize<T>(work: () => Promise<T>): Promise<T>;
  /** The base fee (wei per gas) the next block will have. */
  nextBlockBaseFee(): bigint;
  /** The head block's timestamp, in Unix seconds. */
  headTimestamp(): bigint;
  /** The current state, to read balances and nonces (an export's inputs). */
  readonly currentState: AtomicStateReader;
  /**
   * Accepts an atomic operation in a block of its own: its state transfer is applied first
   * (all or nothing; a throw leaves the state as it was), then the block is mined.
   */
  mineAtomic(operation: AtomicOperation): Promise<BlockRecord>;
  /** The block at a height of the chain, if there is one. */
  blockAt(height: bigint): BlockRecord | undefined;
  /** Whether the upgrade that deprecated the precompiles is simulated (it also restricts atomic transfers to the native coin). */
  readonly deprecatedPrecompiles: boolean;
}

/** Reads of the contract chain's state an atomic transaction needs. */
export interface AtomicStateReader {
  getAccount(address: Address): Promise<Account | undefined>;
  /** Multi-coin balance of an asset (64 lowercase hex digits). */
  getAssetBalance(address: Address, assetIdHex64: string): bigint;
}

/** The writes an atomic transaction's state transfer makes (credit on import, debit on export). */
export interface AtomicStateWriter extends AtomicStateReader {
  putAccount(address: Address, account: Account): Promise<void>;
  setAssetBalance(address: Address, assetIdHex64: string, amount: bigint): Promise<void>;
}

/**
 * A cross-chain (atomic) transaction as the engine sees it: its ID, its gas, and the state
 * transfer it makes, which may reject it by throwing.
 */
export interface AtomicOperation {
  id: string;
  /** The signed transaction as the chain's codec writes it (served in the block's extra data). */
  bytes: Uint8Array;
  gasUsed: bigint;
  apply(state: AtomicStateWriter): Promise<void>;
}
