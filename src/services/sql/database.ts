/**
 * The one query interface the vault's storage is written against, so the same SQL runs on the
 * embedded PGlite (default) and on a real PostgreSQL server (`--database-url`). Parameters are
 * always bound ($1, $2, …), never spliced into the text. Values are text, numbers or null:
 * columns are read back as text (`::text`) where the two drivers would type them differently.
 */
export type SqlValue = string | number | null;
export type SqlRow = Record<string, string | number | null>;

export interface SqlQueries {
  /** Runs one statement and answers its rows (empty for statements without RETURNING). */
  query(text: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
}

export interface SqlDatabase extends SqlQueries {
  /**
   * Runs `work` inside one SQL transaction (READ COMMITTED), committed when it resolves and
   * rolled back when it throws. Statements in it see one another's writes.
   */
  transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T>;
  /** Where the data lives, for people (a directory, "memory", or the server without password). */
  readonly description: string;
  /**
   * True when the database vacuums its tables itself (a PostgreSQL server's autovacuum); PGlite
   * runs none, so its writers vacuum what they write (absent: false).
   */
  readonly autovacuums?: boolean;
  close(): Promise<void>;
}
