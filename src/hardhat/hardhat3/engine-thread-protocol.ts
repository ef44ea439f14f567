/**
 * The messages between the plugin (Hardhat's thread) and the engine thread: the plugin opens a
 * chain per network connection, sends that chain's requests, and closes it; the thread answers
 * each request with its result or its JSON-RPC error, and forwards the engine's log lines. All of
 * it is structured-cloned (bigints and plain objects, no functions).
 */
import type { NativekitConfig } from "../config";

/** Plugin -> thread. */
export type ToEngineThread =
  /** Load the engine's modules and build a spare chain for this config now, before any connection asks. */
  | { kind: "prepare"; config: NativekitConfig }
  | { kind: "open"; chain: number; config: NativekitConfig }
  | { kind: "request"; chain: number; request: number; method: string; params: unknown }
  | { kind: "close"; chain: number };

/** A failure as it crosses the thread boundary: a JSON-RPC error keeps its code and data. */
export interface CarriedError {
  message: string;
  code?: number;
  data?: unknown;
  stack?: string;
}

/** Thread -> plugin. */
export type FromEngineThread =
  | { kind: "opened"; chain: number }
  | { kind: "open-failed"; chain: number; error: CarriedError }
  | { kind: "result"; request: number; result: unknown }
  | { kind: "error"; request: number; error: CarriedError }
  | { kind: "log"; line: string };

/** What an error carries across: code, message and data of a JSON-RPC error, message and stack of anything else. */
export function carriedError(error: unknown): CarriedError {
  if (!(error instanceof Error) && (typeof error !== "object" || error === null)) return { message: String(error) };
  const { code, message, data, stack } = error as { code?: unknown; message?: unknown; data?: unknown; stack?: unknown };
  const carried: CarriedError = { message: typeof message === "string" ? message : String(error) };
  if (typeof code === "number") carried.code = code;
  if (data !== undefined) carried.data = data;
  if (typeof stack === "string") carried.stack = stack;
  return carried;
}

/** The error a carried one stands for on this side: an Error with the same message, code, data and the thread's stack. */
export function restoredError(carried: CarriedError): Error & { code?: number; data?: unknown } {
  const error: Error & { code?: number; data?: unknown } = new Error(carried.message);
  if (carried.code !== undefined) error.code = carried.code;
  if (carried.data !== undefined) error.data = carried.data;
  if (carried.stack !== undefined) error.stack = `${error.stack ?? ""}\n    at the engine thread:\n${carried.stack}`;
  return error;
}

/** A config's identity, so a spare chain built for one config is handed only to a connection of the same. */
export function configKey(config: NativekitConfig): string {
  return JSON.stringify(config, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));
}
