/**
 * A real PostgreSQL server through `pg` (`--database-url postgres://…`): a pool of connections,
 * each transaction on a connection of its own.
 */
import { Pool, type PoolClient } from "pg";
import type { SqlDatabase, SqlQueries, SqlRow } from "./database";

/** The most connections a service holds to the server. */
const POOL_CONNECTIONS = 10;

export async function openPostgresDatabase(url: string): Promise<SqlDatabase> {
  // Idle connections are kept (pg's default closes them after 10 s): after every quiet spell the
  // first burst of readers would otherwise wait for new backends (2-4 ms each to connect) whose
  // first statements run cold (5-8 ms for a list page against 2-3 ms on a warm connection).
  const pool = new Pool({ connectionString: url, max: POOL_CONNECTIONS, idleTimeoutMillis: 0 });
  // An idle connection the server closes (a restart, an administrator) is an 'error' event of
  // the pool; unheard, it would end the process. The pool drops that connection and opens a new
  // one for the next query, which fails, and is retried by the caller, while the server is away.
  pool.on("error", () => undefined);
  // Fail at start, with the server's reason, rather than at the first request.
  const probe = await pool.connect().catch(async (error: unknown) => {
    await pool.end();
    throw new Error(`cannot connect to PostgreSQL at ${withoutPassword(url)}: ${error instanceof Error ? error.message : String(error)}`);
  });
  probe.release();
  const run = (target: Pool | PoolClient): SqlQueries["query"] => async (text, params = []) =>
    (await target.query<SqlRow>(text, [...params])).rows;
  return {
    description: `PostgreSQL at ${withoutPassword(url)}`,
    autovacuums: true,
    query: run(pool),
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work({ query: run(client) });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** The URL as it may be printed: its password replaced by `***`. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unparseable URL)";
  }
}
