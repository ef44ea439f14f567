/**
 * The values the engine's operations take and give: requests already parsed, block selectors,
 * log filters, call outcomes, pooled transactions. They live apart from the engine so that its
 * parts and its JSON-RPC module (which parses requests into them) share them without importing
 * one another.
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import type { Address } from "@ethereumjs/util";
import type { FailureTrace } from "./failure-trace";

/** A transaction request as eth_sendTransaction / eth_call receive it, already parsed. */
export interface TransactionRequest {
  from?: Address;
  to?: Address;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value?: bigint;
  data?: Uint8Array;
  nonce?: bigint;
  accessList?: { address: string; storageKeys: string[] }[];
  type?: number;
}

export type BlockSelector = bigint | "latest" | "earliest" | "pending" | "safe" | "finalized" | { hash: string };

export interface LogFilter {
  fromBlock: bigint;
  toBlock: bigint;
  addresses: Uint8Array[];
  /** Per position: undefined = any, else any of the listed topics. */
  topics: (Uint8Array[] | undefined)[];
}

export interface CallOutcome {
  returnValue: Uint8Array;
  gasUsed: bigint;
  error: string | undefined;
  reverted: boolean;
  /** The path of failed frames, when the call failed in code. */
  trace?: FailureTrace;
}

/** A transaction on its way into a block (or waiting in the pool), with its sender resolved. */
export interface PooledTransaction {
  tx: TypedTransaction;
  from: Address;
  hash: string;
  /** `tx.serialize()`, when already computed (the transactions trie needs it again). */
  serialized?: Uint8Array;
}

/**
 * State kept outside the engine that must move with the contract chain's: a local network's
 * exchange chain and shared atomic memory. `capture` returns a function that puts the state
 * back to what it was at the capture, and that can be called any number of times.
 */
export interface SnapshotCompanion {
  capture(): () => void;
}
