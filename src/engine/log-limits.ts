/**
 * The bounds of one logs query (eth_getLogs, eth_getFilterLogs). A query over the whole chain
 * with a loose filter makes the node walk every block and format every log while every other
 * client waits: a node serving others bounds both, as the reference node's operators do with
 * `api-max-blocks-per-request`. The engine has no bounds unless its options set them (Hardhat's
 * own network has none, and the in-process network keeps that).
 */
import { QueryLimitError } from "./errors";

export interface LogQueryLimits {
  /** Most blocks one query may span; undefined: no limit. */
  readonly maxBlocksPerLogsRequest: number | undefined;
  /** Most logs one query may return; undefined: no limit. */
  readonly maxLogsPerRequest: number | undefined;
}

/** Refuses a query whose range, `from` to `to` inclusive, spans more blocks than the limit. */
export function checkLogRange(from: bigint, to: bigint, limits: LogQueryLimits): void {
  const max = limits.maxBlocksPerLogsRequest;
  if (max === undefined || to < from) return;
  const span = to - from + 1n;
  if (span <= BigInt(max)) return;
  throw new QueryLimitError(
    `the logs query spans ${span} blocks (${from} to ${to}), more than this node's limit of ${max} blocks per request ` +
      `(api-max-blocks-per-request): ask for a narrower range, in several requests if needed`,
    max,
  );
}

/** Refuses a query that found more logs than the limit (the caller stops collecting at limit + 1). */
export function checkLogCount(count: number, limits: LogQueryLimits): void {
  const max = limits.maxLogsPerRequest;
  if (max === undefined || count <= max) return;
  throw new QueryLimitError(
    `the logs query matches more than this node's limit of ${max} logs per request (api-max-logs-per-request): ` +
      `ask for a narrower block range or a more specific address and topics`,
    max,
  );
}

/** Checks a limit given in the options: a positive integer, or absent. */
export function checkLimitOption(value: number | undefined, name: string): number | undefined {
  if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0)) throw new Error(`${name} must be a positive integer, got ${value}`);
  return value;
}
