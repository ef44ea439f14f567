/**
 * Keyset cursors: a list's `next` names the last item it returned by its sort key (for example
 * the acceptance time and ingestion sequence of a transaction), and the following page starts
 * strictly after that key. Unlike an offset, rows inserted meanwhile neither repeat an item nor
 * skip one. The cursor is opaque to clients: base64url of a JSON array of the key's parts.
 */

import { ReaderInputError } from "./errors";

/** A cursor that does not decode to the key the list expects (a client's edit, another list's). */
export class CursorError extends ReaderInputError {}

export type CursorKey = (string | number)[];

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

/** The key's parts, checked against the expected kinds ("n" a safe integer, "s" a string). */
export function decodeCursor(cursor: string, kinds: string): CursorKey {
  let parts: unknown;
  try {
    parts = /^[A-Za-z0-9_-]+$/.test(cursor) ? JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) : undefined;
  } catch {
    parts = undefined;
  }
  const fits =
    Array.isArray(parts) &&
    parts.length === kinds.length &&
    parts.every((part, i) => (kinds[i] === "n" ? Number.isSafeInteger(part) : typeof part === "string"));
  if (!fits) throw new CursorError(`cursor ${JSON.stringify(cursor.slice(0, 80))} is not a cursor of this list; use the "next" of a previous answer`);
  return parts as CursorKey;
}

/**
 * The condition "strictly after the cursor's key" on a list's sort columns (SQL row comparison),
 * `<` for a list in descending order. `columns` pairs each column with its SQL type.
 */
export function afterCursor(bind: (value: string | number) => string, cursor: string, columns: readonly (readonly [column: string, type: "bigint" | "integer" | "text"])[], descending = false): string {
  const key = decodeCursor(cursor, columns.map(([, type]) => (type === "text" ? "s" : "n")).join(""));
  return `(${columns.map(([column]) => column).join(", ")}) ${descending ? "<" : ">"} (${key.map((part, i) => `${bind(part)}::${columns[i]![1]}`).join(", ")})`;
}

/** The page and, when more items may follow, the cursor after its last item. */
export function pageOf<Row, Item>(rows: Row[], limit: number, key: (row: Row) => CursorKey, toItems: (rows: Row[]) => Promise<Item[]>): Promise<{ items: Item[]; next?: string }> {
  // Lists fetch limit + 1 rows: the extra one only says whether another page exists.
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return toItems(shown).then((items) => (more && shown.length > 0 ? { items, next: encodeCursor(key(shown[shown.length - 1]!)) } : { items }));
}
