/**
 * Reading the API's query parameters into the reader's typed parameters: every check the API
 * makes on input lives here, and each refusal (400) names the parameter and what it accepts.
 * Parameters an endpoint does not know are refused too (a misspelt `chainId` would otherwise be
 * silently ignored and answer everything).
 */
import { EncodingError, decodeCb58, formatBech32Address, isCb58, parseBech32Address, parseChainAddress } from "../../../encoding";
import type { ExplorerContext } from "../context";
import { INTERVAL_SIZES, SORT_ORDERS, type IntervalSize, type SortOrder, type TimeWindow } from "../reader/parameters";
import { badParameter } from "./errors";

/** The seed's default and maximum of `limit` on list endpoints. */
export const LIST_LIMIT_MAX = 5000;
/** The seed's maximum of each of `/cblocks`' two limits (default 0). */
export const CBLOCKS_LIMIT_MAX = 10_000;
/** 9999-12-31T23:59:59Z: the last second RFC 3339 can write. */
const MAX_UNIX_SECONDS = 253_402_300_799;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;
/** Longest `query` prefix: longer than any ID, address or hash. */
const MAX_QUERY_LENGTH = 200;

/** The query string of one request, limited to the names an endpoint accepts. */
export class QueryParameters {
  constructor(
    private readonly query: URLSearchParams,
    readonly endpoint: string,
    accepted: readonly string[],
  ) {
    for (const name of new Set(query.keys())) {
      if (!accepted.includes(name)) {
        throw badParameter(`unknown parameter ${JSON.stringify(name)} for ${endpoint}; it accepts ${accepted.length === 0 ? "no parameters" : accepted.join(", ")}`);
      }
    }
  }

  /** A parameter given at most once. */
  one(name: string): string | undefined {
    const values = this.query.getAll(name);
    if (values.length > 1) throw badParameter(`parameter ${name} is given ${values.length} times; ${this.endpoint} takes it once`);
    return values[0];
  }

  /** A repeatable parameter, in order. */
  all(name: string): string[] {
    return this.query.getAll(name);
  }
}

/** `limit`: an integer in 1..max, default max (list endpoints); 0..max, default 0 for cblocks. */
export function parseLimit(text: string | undefined, range: { min: number; max: number; default: number; name?: string }): number {
  const name = range.name ?? "limit";
  if (text === undefined) return range.default;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= range.min && value <= range.max)) {
    throw badParameter(`${name} must be an integer from ${range.min} to ${range.max}, got ${JSON.stringify(text.slice(0, 40))}`);
  }
  return value;
}

/** A datetime: Unix seconds (an integer) or an RFC 3339 string; answered in Unix ms. */
export function parseTime(text: string, name: string): number {
  const problem = `${name} must be Unix seconds (an integer) or an RFC 3339 time such as 2024-01-31T12:00:00Z, got ${JSON.stringify(text.slice(0, 60))}`;
  if (/^-?\d{1,15}$/.test(text)) {
    const seconds = Number(text);
    if (seconds < 0 || seconds > MAX_UNIX_SECONDS) throw badParameter(`${problem} (out of range)`);
    return seconds * 1000;
  }
  const m = RFC3339.exec(text);
  if (m === null) throw badParameter(problem);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(ms);
  // Date.UTC rolls 31 February over into March; a real date round-trips.
  if (month < 1 || month > 12 || date.getUTCDate() !== day || date.getUTCMonth() !== month - 1 || hour > 23 || minute > 59 || second > 59) {
    throw badParameter(`${problem} (no such date or time)`);
  }
  const fraction = m[7] === undefined ? 0 : Math.floor(Number(`0${m[7]}`) * 1000);
  const offset = m[9] === undefined ? 0 : (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) * 60_000;
  if (Number(m[10] ?? 0) > 23 || Number(m[11] ?? 0) > 59) throw badParameter(`${problem} (bad offset)`);
  const result = ms + fraction - offset;
  if (result < 0) throw badParameter(`${problem} (before 1970)`);
  return result;
}

/** startTime (default 0, at most now) and endTime (default now; later is read as now). */
export function parseWindow(params: QueryParameters, now: number): TimeWindow {
  const start = params.one("startTime");
  const end = params.one("endTime");
  const startTime = start === undefined ? 0 : parseTime(start, "startTime");
  const endTime = end === undefined ? now : Math.min(parseTime(end, "endTime"), now);
  if (startTime > now) throw badParameter(`startTime ${JSON.stringify(start)} is in the future; it can be at most now (${new Date(now).toISOString()})`);
  if (startTime > endTime) throw badParameter(`startTime (${new Date(startTime).toISOString()}) is after endTime (${new Date(endTime).toISOString()})`);
  return { startTime, endTime };
}

export function parseSort(text: string | undefined): SortOrder {
  if (text === undefined) return "timestamp-asc";
  const sort = SORT_ORDERS.find((s) => s === text);
  if (sort === undefined) throw badParameter(`sort must be ${SORT_ORDERS.join(" or ")}, got ${JSON.stringify(text.slice(0, 40))}`);
  return sort;
}

export function parseIntervalSize(text: string | undefined): IntervalSize | undefined {
  if (text === undefined) return undefined;
  const size = INTERVAL_SIZES.find((s) => s === text);
  if (size === undefined) throw badParameter(`intervalSize must be one of ${INTERVAL_SIZES.join(", ")}, got ${JSON.stringify(text.slice(0, 40))}`);
  return size;
}

export function parseSpent(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (text === "true" || text === "false") return text === "true";
  throw badParameter(`spent must be true or false, got ${JSON.stringify(text.slice(0, 40))}`);
}

/** `query`: a non-empty prefix. */
export function parseQueryPrefix(text: string | undefined, required = false): string | undefined {
  if (text === undefined) {
    if (required) throw badParameter("query is required: the start of an ID, address, asset name or symbol, or a contract-chain hash or block number");
    return undefined;
  }
  if (text === "" || text.length > MAX_QUERY_LENGTH) throw badParameter(`query must be 1 to ${MAX_QUERY_LENGTH} characters, got ${text.length}`);
  return text;
}

export function parseCursor(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (text === "" || text.length > 1024) throw badParameter(`cursor must be the "next" of a previous answer, got ${text.length} characters`);
  return text;
}

/** A cb58 ID of 32 bytes (transaction, asset, output, chain). */
export function parseId(text: string, name: string): string {
  if (!isCb58(text, 32)) throw badParameter(`${name} must be a cb58 ID of 32 bytes, got ${JSON.stringify(text.slice(0, 80))}`);
  return text;
}

/** Chain IDs of this network, or their aliases X, P, C. */
export function parseChainIds(values: readonly string[], context: ExplorerContext): string[] {
  const known = Object.entries(context.chains);
  return values.map((value) => {
    const chain = known.find(([alias, id]) => value === id || value === alias);
    if (chain === undefined) {
      throw badParameter(`chainID ${JSON.stringify(value.slice(0, 80))} is not a chain of this network; it has ${known.map(([alias, id]) => `${alias} ${id}`).join(", ")}`);
    }
    return chain[1];
  });
}

/** An exchange/platform address: X-/P-/C- bech32, bech32 without prefix, or a cb58 short ID; answered as bech32 without prefix. */
export function parseAddress(text: string, context: ExplorerContext, name = "address"): string {
  try {
    if (/^[XPC]-/.test(text)) return formatBech32Address(parseChainAddress(text, { hrp: context.hrp }).shortId, context.hrp);
    if (text.startsWith(`${context.hrp}1`)) return formatBech32Address(parseBech32Address(text, context.hrp).shortId, context.hrp);
    if (isCb58(text, 20)) return formatBech32Address(decodeCb58(text), context.hrp);
  } catch (error) {
    if (!(error instanceof EncodingError)) throw error;
    throw badParameter(`${name} ${JSON.stringify(text.slice(0, 100))} is not an address of this network: ${error.message}`);
  }
  throw badParameter(`${name} ${JSON.stringify(text.slice(0, 100))} is not an address of this network: expected X-${context.hrp}1…, P-${context.hrp}1…, ${context.hrp}1… or a cb58 short ID`);
}

/** A contract-chain address, answered lowercase. */
export function parseCAddress(text: string, name: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw badParameter(`${name} must be a contract-chain address (0x and 40 hex digits), got ${JSON.stringify(text.slice(0, 80))}`);
  return text.toLowerCase();
}

/** A contract-chain hash, answered lowercase. */
export function parseCHash(text: string, name: string): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(text)) throw badParameter(`${name} must be a contract-chain hash (0x and 64 hex digits), got ${JSON.stringify(text.slice(0, 80))}`);
  return text.toLowerCase();
}

/** A block number or index: a non-negative decimal integer. */
export function parseNumber(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text)) throw badParameter(`${name} must be a non-negative integer, got ${JSON.stringify(text.slice(0, 40))}`);
  return Number(text);
}
