import { expect } from "chai";
import { StatementPipeline } from "../../../src/services/explorer/ingest/pipeline";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { openPgliteDatabase } from "../../../src/services/sql/pglite-database";
import { openPostgresDatabase } from "../../../src/services/sql/pg-database";
import { alive } from "../../helpers/processes";
import { startPostgresServer, type PostgresServer } from "../../helpers/postgres-server";

/**
 * A page's statements are sent without waiting for those whose answer it does not need
 * (ingest/pipeline.ts): on both drivers they run in the order sent, each seeing the writes sent
 * before it; a page fails with its first failing statement, and nothing of it is committed.
 */
function pipelineBehaviour(open: () => Promise<SqlDatabase>): void {
  let db: SqlDatabase;
  before(async () => {
    db = await open();
    await db.query("CREATE TABLE pipeline_rows (n integer PRIMARY KEY)");
  });
  after(async () => db?.close());
  beforeEach(async () => db.query("DELETE FROM pipeline_rows"));
  /** The error a transaction running `work` on a pipeline fails with (undefined when it commits). */
  const failureOf = (work: (pipeline: StatementPipeline) => Promise<unknown>) =>
    db.transaction((tx) => work(new StatementPipeline(tx))).then(
      () => undefined,
      (error: Error) => error,
    );

  it("runs the statements in the order sent: a statement awaited sees every write sent before it", async () => {
    const seen = await db.transaction(async (tx) => {
      const pipeline = new StatementPipeline(tx);
      for (let n = 1; n <= 50; n++) pipeline.send("INSERT INTO pipeline_rows (n) VALUES ($1)", [n]);
      const rows = await pipeline.query("SELECT count(*)::int AS count, max(n) AS last FROM pipeline_rows");
      await pipeline.drain();
      return rows[0];
    });
    expect(seen).to.deep.equal({ count: 50, last: 50 });
  });

  it("fails an awaited statement with the first failure of those sent before it, not the aborted transaction's", async () => {
    const failure = await failureOf(async (pipeline) => {
      pipeline.send("INSERT INTO pipeline_rows (n) VALUES (1)");
      pipeline.send("INSERT INTO pipeline_rows (n) VALUES (1)");
      pipeline.send("INSERT INTO pipeline_rows (n) VALUES (2)");
      await pipeline.query("SELECT 1");
    });
    expect(failure?.message).to.match(/duplicate key/);
  });

  it("commits nothing of a page whose last statement sent fails: drain meets it before the commit", async () => {
    const failure = await failureOf(async (pipeline) => {
      pipeline.send("INSERT INTO pipeline_rows (n) VALUES (1)");
      pipeline.send("INSERT INTO pipeline_rows (n) VALUES (1 / 0)");
      await pipeline.drain();
    });
    expect(failure?.message).to.match(/division by zero/);
    expect(await db.query("SELECT count(*)::int AS count FROM pipeline_rows")).to.deep.equal([{ count: 0 }]);
  });
}

describe("explorer ingest: a page's statements sent without awaiting each (PGlite)", function () {
  this.timeout(60_000);
  pipelineBehaviour(() => openPgliteDatabase(undefined));
});

describe("explorer ingest: a page's statements sent without awaiting each (PostgreSQL server)", function () {
  this.timeout(120_000);
  let postgres: PostgresServer | undefined;
  after(async () => {
    const pid = postgres?.pid;
    await postgres?.stop();
    if (pid !== undefined) expect(alive(pid)).to.equal(false);
  });
  pipelineBehaviour(async () => {
    postgres = await startPostgresServer();
    return openPostgresDatabase(postgres.url);
  });
});
