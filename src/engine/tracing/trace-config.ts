/**
 * A trace request's options, as the debug_ methods take them (already parsed), and the tracer
 * they ask for: the struct logger when no tracer is named, else one of the built-in tracers.
 */
import { CallTracer } from "./call-tracer";
import { TraceRefusedError } from "./errors";
import { PrestateTracer } from "./prestate-tracer";
import { StructLogger, type StructLoggerLimits } from "./struct-logger";
import type { TxTracer } from "./tracer";

export interface TraceConfig {
  /** A built-in tracer's name; absent for the struct logger. */
  readonly tracer?: string;
  /** The named tracer's own options. */
  readonly tracerConfig?: {
    readonly onlyTopCall?: boolean;
    readonly withLog?: boolean;
    readonly diffMode?: boolean;
  };
  readonly disableStack?: boolean;
  readonly disableStorage?: boolean;
  readonly enableMemory?: boolean;
  readonly enableReturnData?: boolean;
  /** How long one transaction's trace may run, in milliseconds (geth's `timeout`, 5 s by default). */
  readonly timeoutMs?: number;
}

/** A new tracer for one transaction, as `config` asks; throws TraceRefusedError for a tracer this node does not have. */
export function makeTracer(config: TraceConfig, limits: StructLoggerLimits): TxTracer {
  const options = config.tracerConfig ?? {};
  switch (config.tracer) {
    case undefined:
    case "":
      return new StructLogger(
        {
          disableStack: config.disableStack === true,
          disableStorage: config.disableStorage === true,
          enableMemory: config.enableMemory === true,
          enableReturnData: config.enableReturnData === true,
        },
        limits,
      );
    case "callTracer":
      return new CallTracer({ onlyTopCall: options.onlyTopCall === true, withLog: options.withLog === true });
    case "prestateTracer":
      return new PrestateTracer({ diffMode: options.diffMode === true });
    default:
      // geth's words, whatever the name (geth tries any other name as JavaScript, and says this when it is not).
      throw new TraceRefusedError("tracer not found");
  }
}
