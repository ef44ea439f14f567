import { expect } from "chai";

import { openPostgresDatabase } from "../../../src/services/sql/pg-database";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { type PostgresServer, startPostgresServer } from "../../helpers/postgres-server";

/** Client backends connected to the server now (this test's pool is its only client). */
async function connectedBackends(db: SqlDatabase): Promise<number> {
  const [row] = await db.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend'");
  return Number(row!.n);
}

describe("PostgreSQL database (pg, a real server)", function () {
  this.timeout(120_000);
  let server: PostgresServer;
  let db: SqlDatabase;

  before(async () => {
    server = await startPostgresServer();
    db = await openPostgresDatabase(server.url);
  });

  after(async () => {
    await db?.close();
    await server?.stop();
  });

  it("keeps its idle connections through a quiet spell longer than pg's default 10 s idle timeout", async () => {
    // Four statements at once open four connections.
    await Promise.all([0, 1, 2, 3].map(() => db.query("SELECT pg_sleep(0.2)")));
    expect(await connectedBackends(db)).to.be.at.least(4);
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect(await connectedBackends(db)).to.be.at.least(4);
  });
});
