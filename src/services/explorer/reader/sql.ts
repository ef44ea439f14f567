/**
 * Building the reader's SQL with bound parameters only: every value goes through `bind` (a `$n`
 * placeholder), lists through `bindList` (one JSON parameter unpacked by the server), so no
 * caller's text ever becomes SQL. The only words spliced into statements come from whitelists
 * in this folder (sort directions, interval units).
 */
import type { SqlRow, SqlValue } from "../../sql/database";

export class SqlParams {
  readonly values: SqlValue[] = [];

  /** A placeholder for one value. */
  bind(value: SqlValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** An SQL array of texts, for `x = ANY(…)`; one parameter whatever the list's length. */
  bindList(values: readonly string[]): string {
    return `ARRAY(SELECT jsonb_array_elements_text(${this.bind(JSON.stringify(values))}::jsonb))`;
  }
}

/** Unix milliseconds (a `bigint` column read as text or number) as RFC 3339 in UTC. */
export function isoTime(ms: SqlValue | undefined): string {
  return new Date(Number(ms ?? 0)).toISOString();
}

export function text(row: SqlRow, column: string): string {
  const value = row[column];
  return value === null || value === undefined ? "" : String(value);
}

export function nullableText(row: SqlRow, column: string): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : String(value);
}

/** A small integer column (counts, indexes, enum values): safe as a JS number. */
export function int(row: SqlRow, column: string): number {
  return Number(row[column] ?? 0);
}

/** Rows grouped by one column's text, keeping their order. */
export function groupBy(rows: readonly SqlRow[], column: string): Map<string, SqlRow[]> {
  const groups = new Map<string, SqlRow[]>();
  for (const row of rows) {
    const key = text(row, column);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [row]);
    else group.push(row);
  }
  return groups;
}
