/**
 * The embedded PostgreSQL (PGlite, Postgres compiled to WebAssembly): persisted in a directory,
 * or in memory. It has one connection; PGlite queues queries and transactions on it, so a
 * transaction is never interleaved with another statement.
 */
import { PGlite } from "@electric-sql/pglite";
import type { SqlDatabase, SqlQueries, SqlRow, SqlValue } from "./database";

export async function openPgliteDatabase(dataDir: string | undefined): Promise<SqlDatabase> {
  const db = await PGlite.create(dataDir === undefined ? {} : { dataDir });
  const run = (target: Pick<PGlite, "query">): SqlQueries["query"] => async (text, params = []) =>
    (await target.query<SqlRow>(text, params as SqlValue[])).rows;
  return {
    description: dataDir === undefined ? "embedded PostgreSQL (PGlite) in memory" : `embedded PostgreSQL (PGlite) in ${dataDir}`,
    query: run(db),
    transaction: (work) => db.transaction((tx) => work({ query: run(tx) })),
    close: () => db.close(),
  };
}
