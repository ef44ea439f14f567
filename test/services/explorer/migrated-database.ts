import { migrateExplorer, type SqlDatabase } from "../../../src/services/explorer";
import { openPgliteDatabase } from "../../../src/services/sql/pglite-database";

/**
 * An explorer database in memory (PGlite), migrated before the enclosing suite's tests and closed
 * after them, for the tests that write rows themselves. `prepare` runs once it is migrated (rows
 * every test of the suite needs). Returns the database, to call inside the tests.
 */
export function migratedExplorerDatabase(prepare?: (db: SqlDatabase) => Promise<unknown>): () => SqlDatabase {
  let db: SqlDatabase | undefined;
  before(async () => {
    db = await openPgliteDatabase(undefined);
    await migrateExplorer(db);
    await prepare?.(db);
  });
  after(async () => db?.close());
  return () => {
    if (db === undefined) throw new Error("the explorer database is opened in the suite's before hook: call this inside a test");
    return db;
  };
}
