/**
 * Shared set-up of the explorer reader/API tests: a database with the explorer's tables (PGlite
 * in memory, or a database on a real PostgreSQL server), the table fixtures written into it, and
 * the API served by a real HTTP server on 127.0.0.1, port 0, stopped by the test.
 */
import { expect } from "chai";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "pg";
import { createExplorerApi } from "../../../src/services/explorer/api";
import type { ExplorerContext } from "../../../src/services/explorer/context";
import { createExplorerReader, type ExplorerReader } from "../../../src/services/explorer/reader";
import { migrateExplorer } from "../../../src/services/explorer/schema";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { openPostgresDatabase } from "../../../src/services/sql/pg-database";
import { openPgliteDatabase } from "../../../src/services/sql/pglite-database";
import { startPostgresServer } from "../../helpers/postgres-server";
import { alive } from "../../helpers/processes";
import { FIXTURE_CONTEXT, seedFixtureRows } from "./fixture-rows";

/** Where the tests' databases come from: `fresh()` answers an empty database with the tables. */
export interface DatabaseKind {
  label: string;
  fresh(): Promise<SqlDatabase>;
  close(): Promise<void>;
}

export function pgliteKind(): DatabaseKind {
  return {
    label: "PGlite (embedded)",
    fresh: async () => {
      const db = await openPgliteDatabase(undefined);
      await migrateExplorer(db);
      return db;
    },
    close: async () => undefined,
  };
}

/** A PostgreSQL server started for the file; each fresh database a new one on it. */
export async function postgresKind(): Promise<DatabaseKind> {
  const server = await startPostgresServer();
  let count = 0;
  return {
    label: "a PostgreSQL server",
    fresh: async () => {
      const name = `explorer_${++count}`;
      const admin = new Client({ connectionString: server.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const db = await openPostgresDatabase(server.url.replace(/\/postgres$/, `/${name}`));
      await migrateExplorer(db);
      return db;
    },
    close: async () => {
      await untilDisconnected(server.url);
      await server.stop();
      expect(alive(server.pid), `postgres pid ${server.pid} still running`).to.equal(false);
    },
  };
}

/**
 * Waits until no session of the explorer's databases is left on the server: pg's Pool.end()
 * resolves before its clients' sockets are closed, and a server stopping meanwhile makes such a
 * client throw "terminating connection" with no listener left (an uncaught error in the test).
 */
async function untilDisconnected(url: string): Promise<void> {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const [row] = (await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname LIKE 'explorer\\_%'")).rows;
      if (row!.n === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the explorer's connections to the test PostgreSQL server did not close within 5 s");
  } finally {
    await admin.end();
  }
}

/** A database holding the table fixtures. */
export async function seededDatabase(kind: DatabaseKind): Promise<SqlDatabase> {
  const db = await kind.fresh();
  await seedFixtureRows(db);
  return db;
}

export interface Answer<T = any> {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: T;
}

export interface ServedApi {
  url: string;
  reader: ExplorerReader;
  get<T = any>(path: string, method?: string): Promise<Answer<T>>;
  close(): Promise<void>;
}

/** The API over `db`, served on 127.0.0.1:0; `now` pins the clock that bounds times. */
export async function serveApi(db: SqlDatabase, now: () => number, context: ExplorerContext = FIXTURE_CONTEXT): Promise<ServedApi> {
  const reader = createExplorerReader(db, context);
  const api = createExplorerApi({ reader, context, now });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://explorer");
    void api.handle(req, res, url.pathname, url.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    reader,
    get: async <T>(path: string, method = "GET"): Promise<Answer<T>> => {
      const response = await fetch(`${url}${path}`, { method });
      return { status: response.status, headers: Object.fromEntries(response.headers.entries()), body: (await response.json()) as T };
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** Expects the API's error shape with this status, and a message containing each fragment. */
export function expectRefusal(answer: Answer, status: number, ...fragments: string[]): void {
  expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
  expect(Object.keys(answer.body).sort()).to.deep.equal(["code", "message"]);
  expect(answer.body.code).to.equal(status);
  for (const fragment of fragments) expect(answer.body.message).to.include(fragment);
}
