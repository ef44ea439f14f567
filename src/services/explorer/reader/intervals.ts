/**
 * Calendar intervals in UTC for the aggregates, the same as PostgreSQL's `date_trunc` (weeks
 * start on Monday), so buckets computed by the database and here line up.
 */
import { ReaderInputError } from "./errors";
import type { IntervalSize } from "./parameters";

/** More intervals than a chart can show is a mistake in the request, not work to do. */
export const MAX_INTERVALS = 10_000;

const FIXED_MS: Partial<Record<IntervalSize, number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export function intervalStart(ms: number, size: IntervalSize): number {
  const fixed = FIXED_MS[size];
  if (fixed !== undefined) return Math.floor(ms / fixed) * fixed;
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (size === "year") return Date.UTC(year, 0, 1);
  if (size === "month") return Date.UTC(year, date.getUTCMonth(), 1);
  const day = Date.UTC(year, date.getUTCMonth(), date.getUTCDate());
  return day - ((date.getUTCDay() + 6) % 7) * 86_400_000;
}

export function nextIntervalStart(start: number, size: IntervalSize): number {
  const fixed = FIXED_MS[size];
  if (fixed !== undefined) return start + fixed;
  if (size === "week") return start + 7 * 86_400_000;
  const date = new Date(start);
  return size === "year" ? Date.UTC(date.getUTCFullYear() + 1, 0, 1) : Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** The starts of the intervals from the one holding `from` to the one holding `to`. */
export function intervalStarts(from: number, to: number, size: IntervalSize): number[] {
  const starts: number[] = [];
  for (let start = intervalStart(from, size); start <= to; start = nextIntervalStart(start, size)) {
    if (starts.length === MAX_INTERVALS) {
      throw new ReaderInputError(`the window holds more than ${MAX_INTERVALS} intervals of a ${size}; narrow startTime/endTime or choose a larger intervalSize`);
    }
    starts.push(start);
  }
  return starts;
}

/** SQL for the start (Unix ms, as text) of the interval holding the Unix-ms column; `unit` is a bound parameter. */
export function intervalStartSql(column: string, unit: string): string {
  return `floor(extract(epoch FROM date_trunc(${unit}::text, to_timestamp(${column} / 1000.0) AT TIME ZONE 'UTC')) * 1000)::bigint::text`;
}
