/**
 * Numbered migrations applied once each, in order, recorded in a table of the service's own
 * (`<service>_migrations`), the same on PGlite and on a PostgreSQL server. Each migration runs in
 * a transaction of its own under an advisory lock, so two services starting on one server do not
 * apply one twice.
 */
import type { SqlDatabase } from "./database";

export interface MigrationSet {
  /** The service's name: the table `<name>_migrations` records what was applied. */
  readonly name: string;
  /** The advisory lock key that serialises migrating (one per service). */
  readonly lockKey: number;
  /** SQL text per migration; statements are separated by `;` at the end of a line. */
  readonly migrations: readonly string[];
}

export async function migrate(db: SqlDatabase, set: MigrationSet): Promise<void> {
  if (!/^[a-z_]+$/.test(set.name)) throw new Error(`a migration set's name must be lowercase letters and underscores: ${set.name}`);
  const table = `${set.name}_migrations`;
  await db.query(`CREATE TABLE IF NOT EXISTS ${table} (version integer PRIMARY KEY, applied_at bigint NOT NULL)`);
  for (const [index, sql] of set.migrations.entries()) {
    const version = index + 1;
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [set.lockKey]);
      const done = await tx.query(`SELECT 1 FROM ${table} WHERE version = $1`, [version]);
      if (done.length > 0) return;
      for (const statement of sql.split(/;\s*\n/).map((s) => s.trim()).filter((s) => s !== "")) await tx.query(statement);
      await tx.query(`INSERT INTO ${table} (version, applied_at) VALUES ($1, $2)`, [version, Math.floor(Date.now() / 1000)]);
    });
  }
}
