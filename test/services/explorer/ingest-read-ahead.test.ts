/**
 * The ingester reads a page while it stores the one before. Transactions of that page are not
 * in the database yet when the next page's inputs are resolved, but they are stored first: the
 * node must not be asked for them (before, each was asked once with `getTx`: a round trip per
 * transaction of the page, whose answer a real node's explorer then decoded for nothing).
 */
import { expect } from "chai";
import { generateStandInChain, startStandInNode, type StandInNode } from "../../../bench/explorer-stand-in";
import { migrateExplorer } from "../../../src/services/explorer";
import { storeContext } from "../../../src/services/explorer/ingest/chains";
import { Ingester } from "../../../src/services/explorer/ingest/ingester";
import { createNodeSource } from "../../../src/services/explorer/ingest/node-source";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { openPostgresDatabase } from "../../../src/services/sql/pg-database";
import { type PostgresServer, startPostgresServer } from "../../helpers/postgres-server";

describe("explorer ingest: a page read while the one before it is stored", function () {
  this.timeout(120_000);
  let node: StandInNode | undefined;
  let db: SqlDatabase | undefined;
  let server: PostgresServer | undefined;
  afterEach(async () => {
    await node?.close();
    await db?.close();
    await server?.stop();
  });

  it("asks the node only for the genesis, not for the transactions of the page being stored (PostgreSQL server)", async () => {
    // 20 senders and pages of 20: every transaction after the first page spends the change of
    // a transaction of the page before it.
    const chain = generateStandInChain(200, 20);
    node = await startStandInNode(chain, 200);
    const asked: string[] = [];
    const source = createNodeSource(node.url, (input, init) => {
      const method = (JSON.parse(String(init.body)) as { method: string }).method;
      if (/getTx$/.test(method)) asked.push(method);
      return fetch(input, init);
    });
    // A server: the page's lookup runs on a connection of its own while the page before is stored
    // on another (PGlite's one connection would queue it behind that page's commit).
    server = await startPostgresServer();
    db = await openPostgresDatabase(server.url);
    await migrateExplorer(db);
    const context = await source.readContext();
    await storeContext(db, context);
    const ingester = new Ingester({ database: db, node: source, context, pageSize: 20, pollIntervalMs: 10 });
    await ingester.start();
    try {
      await ingester.waitUntilCaughtUp(60_000);
    } finally {
      await ingester.stop();
    }
    expect(asked).to.deep.equal(["xvm.getTx"]);
    const [row] = await db.query("SELECT count(*)::int AS n, count(*) FILTER (WHERE genesis)::int AS genesis FROM transactions");
    expect(row).to.deep.equal({ n: 201, genesis: 1 });
  });
});
