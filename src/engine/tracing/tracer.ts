/**
 * What a tracer is: an observer of one transaction's execution, fed by the EVM's public events
 * (`step` before each instruction, `beforeMessage`/`afterMessage` around each call frame,
 * precompile calls included), and asked at the end for its result (the JSON value the debug_
 * methods answer with). A tracer never changes the execution; `replay.ts` runs the transaction
 * and wires the events to it.
 */
import type { EVMResult, InterpreterStep, Message } from "@ethereumjs/evm";
import type { Address } from "@ethereumjs/util";
import type { NativeStateManager } from "../state-manager";

/** The transaction being traced, as the tracer needs it before it runs. */
export interface TracedTransaction {
  readonly from: Address;
  /** Absent for a contract creation. */
  readonly to: Address | undefined;
  readonly gasLimit: bigint;
  readonly value: bigint;
  readonly data: Uint8Array;
  /** The block's fee recipient (geth's prestate includes it). */
  readonly coinbase: Address;
}

/** How the transaction ended. */
export interface TracedOutcome {
  /** Gas the transaction used in all (intrinsic gas included), as its receipt says. */
  readonly gasUsed: bigint;
  readonly returnValue: Uint8Array;
  /** The EVM's failure code of the top frame ("revert", "out of gas", ...), if it failed. */
  readonly error: string | undefined;
  readonly createdAddress: Address | undefined;
}

export interface TxTracer {
  /** Before the transaction runs: `state` is the state it starts from. */
  start?(tx: TracedTransaction, state: NativeStateManager): Promise<void>;
  /** Before each instruction; synchronous (it may throw to stop the execution). */
  step?(step: InterpreterStep): void;
  /** Before each instruction, for tracers that read the state first (slower: one promise per step). */
  stepAsync?(step: InterpreterStep): Promise<void>;
  /** A call frame begins (the transaction's own, a call, a creation, a precompile call). */
  enter?(message: Message, state: NativeStateManager): void | Promise<void>;
  /** The innermost open call frame ended. */
  exit?(result: EVMResult): void;
  /** The transaction ended; `state` is the state after it. Returns the trace's JSON value. */
  finish(outcome: TracedOutcome, state: NativeStateManager): unknown;
}
