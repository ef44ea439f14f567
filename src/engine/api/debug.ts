/**
 * The debug_ namespace: traces of mined transactions, of whole blocks and of calls, with geth's
 * struct logger (no tracer named) or its built-in callTracer and prestateTracer (see
 * `../replay.ts` and `../tracing/`). Options are read here, as geth reads them: unknown fields
 * are ignored, a field of the wrong type is refused (-32602). Traces that cannot be made answer
 * -32000 with geth's words ("transaction not found", "genesis is not traceable", "block #7 not
 * found", "tracer not found", "execution timeout"); a struct log over the node's limits answers
 * -32005. In a block's trace, a transaction whose trace was stopped gets `{txHash, error}`.
 */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams, serverError, type RpcError } from "../../rpc/errors";
import type { BlockRecord } from "../chain";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import { UnknownBlockError } from "../errors";
import { TraceReplay } from "../replay";
import { TraceRefusedError } from "../tracing/errors";
import type { TraceConfig } from "../tracing/trace-config";
import * as p from "./params";

/** What the debug_ methods use: the engine, and its replays of past transactions and calls. */
interface DebugContext {
  readonly engine: Engine;
  readonly replay: TraceReplay;
}

export function debugApi(engine: Engine, options: RpcApiOptions<LockHeld>): RpcApi<LockHeld> {
  const mapError = (error: unknown): RpcError | undefined => (error instanceof TraceRefusedError ? serverError(error.message) : options.mapError?.(error));
  return RpcApi.scoped({ ...options, mapError }).positionalMethods<DebugContext>({ engine, replay: new TraceReplay(engine) }, {
    "debug_traceTransaction": [[1, 2], traceTransaction],
    "debug_traceCall": [[1, 3], traceCall],
    "debug_traceBlockByNumber": [[1, 2], traceBlockByNumber],
    "debug_traceBlockByHash": [[1, 2], traceBlockByHash],
  });
}

/** [transactionHash, config?]: the trace of a mined transaction. */
function traceTransaction({ replay }: DebugContext, [hash, config]: unknown[]): Promise<unknown> {
  return replay.traceTransaction(p.hash(hash, "transactionHash"), traceConfig(config));
}

/** [call, block = "latest", config?]: the trace of a call on a block's state. */
function traceCall({ replay }: DebugContext, [call, block, config]: unknown[]): Promise<unknown> {
  const parsed = traceConfig(config);
  for (const unsupported of ["stateOverrides", "blockOverrides"]) {
    if (isObject(config) && config[unsupported] !== undefined && config[unsupported] !== null) {
      throw invalidParams(`debug_traceCall: ${unsupported} are not supported by this node`);
    }
  }
  return replay.traceCall(p.transactionRequest(call), p.blockSelector(block ?? "latest"), parsed);
}

/** [block number or tag, config?]: `[{txHash, result}]`, one per transaction of the block. */
function traceBlockByNumber({ engine, replay }: DebugContext, [block, config]: unknown[]): Promise<unknown> {
  const selector = p.blockSelector(block);
  const record = knownBlock(() => engine.resolveBlock(selector), typeof selector === "bigint" ? `block #${selector} not found` : "block not found");
  return replay.traceBlock(record, traceConfig(config));
}

/** [block hash, config?]: as debug_traceBlockByNumber. */
function traceBlockByHash({ engine, replay }: DebugContext, [hash, config]: unknown[]): Promise<unknown> {
  const blockHash = p.hash(hash, "blockHash");
  const record = knownBlock(() => engine.resolveBlock({ hash: blockHash }), `block ${blockHash} not found`);
  return replay.traceBlock(record, traceConfig(config));
}

function knownBlock(resolve: () => BlockRecord, notFound: string): BlockRecord {
  try {
    return resolve();
  } catch (error) {
    if (error instanceof UnknownBlockError) throw new TraceRefusedError(notFound);
    throw error;
  }
}

/** geth's TraceConfig: the tracer, its own options, the struct logger's options and the time limit. */
function traceConfig(value: unknown): TraceConfig {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw invalidParams(`the trace options must be an object, got ${JSON.stringify(value)}`);
  const tracer = value.tracer;
  if (tracer !== undefined && tracer !== null && typeof tracer !== "string") throw invalidParams(`tracer must be a string, got ${JSON.stringify(tracer)}`);
  const tracerConfig = value.tracerConfig;
  if (tracerConfig !== undefined && tracerConfig !== null && !isObject(tracerConfig)) {
    throw invalidParams(`tracerConfig must be an object, got ${JSON.stringify(tracerConfig)}`);
  }
  const own = isObject(tracerConfig) ? tracerConfig : {};
  return {
    tracer: typeof tracer === "string" ? tracer : undefined,
    tracerConfig: { onlyTopCall: flag(own, "onlyTopCall"), withLog: flag(own, "withLog"), diffMode: flag(own, "diffMode") },
    disableStack: flag(value, "disableStack"),
    disableStorage: flag(value, "disableStorage"),
    enableMemory: flag(value, "enableMemory"),
    enableReturnData: flag(value, "enableReturnData"),
    timeoutMs: value.timeout === undefined || value.timeout === null ? undefined : goDurationMs(value.timeout),
  };
}

function flag(object: Record<string, unknown>, name: string): boolean {
  return p.optionalBoolean(object[name], name);
}

// "\u00b5s": microseconds as Go writes them, spelled in ASCII as the engine bundle must be
// (scripts/bundle-engine.js).
const DURATION_UNITS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, "\u00b5s": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration ("5s", "1m30s", "250ms") in milliseconds. */
function goDurationMs(value: unknown): number {
  const text = typeof value === "string" ? value : "";
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|\u00b5s|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((m) => m[0]).join("") !== text) {
    throw invalidParams(`timeout must be a duration such as "5s" or "500ms", got ${JSON.stringify(value)}`);
  }
  return parts.reduce((sum, m) => sum + Number(m[1]) * DURATION_UNITS[m[2]!]!, 0);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
