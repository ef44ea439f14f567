/**
 * Why a trace is refused, in geth's words where geth has them. The API module (`api/debug.ts`)
 * maps them to JSON-RPC errors; the engine knows nothing of codes.
 */
import { EngineError, QueryLimitError } from "../errors";

/**
 * A trace that cannot be made: a transaction or block that is not on the chain ("transaction
 * not found", "block #5 not found"), the genesis block ("genesis is not traceable"), a tracer
 * that does not exist, a trace that ran past its time limit ("execution timeout").
 */
export class TraceRefusedError extends EngineError {
  override readonly name = "TraceRefusedError";
}

/** A trace that ran past its time limit (geth's `timeout` option): geth's "execution timeout". */
export class TraceTimeoutError extends TraceRefusedError {
  constructor() {
    super("execution timeout");
  }
}

/**
 * A trace larger than the node builds: more struct log entries, or more bytes of them, than
 * its limits (`limit`). It is refused rather than built, whatever the transaction's gas.
 */
export class TraceLimitError extends QueryLimitError {}
