/**
 * The embedded PostgreSQL (PGlite, Postgres compiled to WebAssembly): persisted in a directory,
 * or in memory. It has one connection; PGlite queues queries and transactions on it, so a
 * transaction is never interleaved with another statement.
 */
import { PGlite } from "@electric-sql/pglite";
import type { SqlDatabase, SqlQueries, SqlRow, SqlValue } from "./database";

/**
 * An initialised, empty data directory (PGlite's dump of a database just created) that
 * in-memory databases can start from instead of each running initdb, which is most of the
 * time PGlite takes to open one. Every database opened from it has storage of its own.
 */
export interface PgliteTemplate {
  readonly dataDir: Blob;
}

/** Runs initdb once, in memory, and keeps the result as a {@link PgliteTemplate}. */
export async function createPgliteTemplate(): Promise<PgliteTemplate> {
  const db = await PGlite.create({});
  try {
    return { dataDir: await db.dumpDataDir("none") };
  } finally {
    await db.close();
  }
}

export interface PgliteDatabaseOptions {
  /** Start an in-memory database from this template instead of running initdb (ignored with a `dataDir`). */
  template?: PgliteTemplate;
}

export async function openPgliteDatabase(dataDir: string | undefined, options: PgliteDatabaseOptions = {}): Promise<SqlDatabase> {
  const db = await PGlite.create(dataDir !== undefined ? { dataDir } : options.template !== undefined ? { loadDataDir: options.template.dataDir } : {});
  const run = (target: Pick<PGlite, "query">): SqlQueries["query"] => async (text, params = []) =>
    (await target.query<SqlRow>(text, params as SqlValue[])).rows;
  return {
    description: dataDir === undefined ? "embedded PostgreSQL (PGlite) in memory" : `embedded PostgreSQL (PGlite) in ${dataDir}`,
    query: run(db),
    transaction: (work) => db.transaction((tx) => work({ query: run(tx) })),
    close: () => db.close(),
  };
}
