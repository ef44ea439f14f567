/**
 * The messages between the plugin (Hardhat's thread) and the engine thread: the plugin opens a
 * chain per network connection, sends that chain's requests, and closes it; the thread answers
 * each request with its result or its JSON-RPC error, and forwards the engine's log lines. All of
 * it is structured-cloned (bigints and plain objects, no functions).
 */
import type { FailureTrace } from "../../engine/failure-trace";
import type { NativekitConfig } from "../config";
import type { Observed, ObservationRequest } from "./chain-observers";

/** Plugin -> thread. */
export type ToEngineThread =
  /** Load the engine's modules and build a spare chain for this config now, before any connection asks. */
  | { kind: "prepare"; config: NativekitConfig }
  /** `observe`: what the chain observes for --coverage or --gas-stats (nothing when absent). */
  | { kind: "open"; chain: number; config: NativekitConfig; observe?: ObservationRequest }
  | { kind: "request"; chain: number; request: number; method: string; params: unknown }
  | { kind: "close"; chain: number };

/** A failure as it crosses the thread boundary: a JSON-RPC error keeps its code and data. */
export interface CarriedError {
  message: string;
  code?: number;
  data?: unknown;
  stack?: string;
  /** A failed execution's frames and mined transaction, for its Solidity stack trace. */
  trace?: FailureTrace;
  transactionHash?: string;
}

/** Thread -> plugin. An answer carries what its chain observed while it ran, if it observes and saw anything. */
export type FromEngineThread =
  | { kind: "opened"; chain: number }
  | { kind: "open-failed"; chain: number; error: CarriedError }
  | { kind: "result"; request: number; result: unknown; observed?: Observed }
  | { kind: "error"; request: number; error: CarriedError; observed?: Observed }
  | { kind: "log"; line: string };

/** What an error carries across: code, message and data of a JSON-RPC error, message and stack of anything else. */
export function carriedError(error: unknown): CarriedError {
  if (!(error instanceof Error) && (typeof error !== "object" || error === null)) return { message: String(error) };
  const { code, message, data, stack, trace, transactionHash } = error as { code?: unknown; message?: unknown; data?: unknown; stack?: unknown; trace?: unknown; transactionHash?: unknown };
  const carried: CarriedError = { message: typeof message === "string" ? message : String(error) };
  if (typeof code === "number") carried.code = code;
  if (data !== undefined) carried.data = data;
  if (typeof stack === "string") carried.stack = stack;
  if (typeof trace === "object" && trace !== null) carried.trace = trace as FailureTrace;
  if (typeof transactionHash === "string") carried.transactionHash = transactionHash;
  return carried;
}

/** The error a carried one stands for on this side: an Error with the same message, code, data and the thread's stack. */
export function restoredError(carried: CarriedError): Error & { code?: number; data?: unknown; trace?: FailureTrace; transactionHash?: string } {
  const error: Error & { code?: number; data?: unknown; trace?: FailureTrace; transactionHash?: string } = new Error(carried.message);
  if (carried.code !== undefined) error.code = carried.code;
  if (carried.data !== undefined) error.data = carried.data;
  if (carried.trace !== undefined) error.trace = carried.trace;
  if (carried.transactionHash !== undefined) error.transactionHash = carried.transactionHash;
  if (carried.stack !== undefined) error.stack = `${error.stack ?? ""}\n    at the engine thread:\n${carried.stack}`;
  return error;
}

/** A config's identity, so a spare chain built for one config is handed only to a connection of the same. */
export function configKey(config: NativekitConfig): string {
  return JSON.stringify(config, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));
}
