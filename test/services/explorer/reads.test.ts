/**
 * What migrations 4 and 5 (schema-reads.ts, schema-reads-scale.ts) keep for the reads: the transactions' documents must answer
 * the records the rows give (whatever SQL transactions the rows came in, and after outputs they
 * created are spent), and the per-minute aggregates must answer what the per-request sums over
 * the rows answered, for windows cut anywhere in a minute, per interval, per asset and per chain.
 */
import { expect } from "chai";
import { EXPLORER_MIGRATIONS, migrateExplorer } from "../../../src/services/explorer/schema";
import { createExplorerReader, type AggregatesParams, type ExplorerReader } from "../../../src/services/explorer/reader";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { migrate } from "../../../src/services/sql/migrations";
import { openPgliteDatabase } from "../../../src/services/sql/pglite-database";
import { summedAggregates, summedTxfeeAggregates } from "./aggregates-oracle";
import { FIXTURE_CONTEXT, FIXTURE_TRANSACTIONS, MINUTE, NATIVE, T0, TOKEN, insertTransaction, seedFixtureRows } from "./fixture-rows";

const ALL_TIME = { startTime: 0, endTime: T0 + 30 * 86_400_000 };
const LIST = { ...ALL_TIME, limit: 100, chainIds: [], addresses: [] };

/** The fixture written as the ingester writes: each transaction with all its rows in one SQL transaction. */
async function ingestedLikeTheIngester(): Promise<SqlDatabase> {
  const db = await openPgliteDatabase(undefined);
  await migrateExplorer(db);
  for (const [alias, id] of Object.entries(FIXTURE_CONTEXT.chains)) {
    await db.query("INSERT INTO chains (id, alias, vm, network_id) VALUES ($1, $2, $3, $4)", [id, alias, { X: "avm", P: "pvm", C: "evm" }[alias]!, FIXTURE_CONTEXT.networkId]);
  }
  for (const t of FIXTURE_TRANSACTIONS) await db.transaction((q) => insertTransaction(q, t));
  return db;
}

/** The fixture written one statement at a time (rows added after their transaction's SQL transaction). */
async function writtenRowByRow(): Promise<SqlDatabase> {
  const db = await openPgliteDatabase(undefined);
  await migrateExplorer(db);
  await seedFixtureRows(db);
  return db;
}

async function everyRecord(reader: ExplorerReader): Promise<unknown[]> {
  return [
    ...(await Promise.all(FIXTURE_TRANSACTIONS.map((t) => reader.transaction(t.id)))),
    (await reader.transactions({ ...LIST, sort: "timestamp-desc" })).items,
  ];
}

const WINDOWS: { name: string; params: AggregatesParams }[] = [
  { name: "all time", params: { ...ALL_TIME, chainIds: [] } },
  { name: "cut inside minutes", params: { startTime: T0 + MINUTE / 2, endTime: T0 + 86_400_000 + MINUTE + 17, chainIds: [] } },
  { name: "inside one minute", params: { startTime: T0 + MINUTE - 5, endTime: T0 + MINUTE + 5, chainIds: [] } },
  { name: "per minute, one asset", params: { startTime: T0 + 30_000, endTime: T0 + 4 * MINUTE, chainIds: [], assetId: TOKEN, intervalSize: "minute" } },
  { name: "per hour, the P chain", params: { ...ALL_TIME, startTime: T0, endTime: T0 + 2 * 86_400_000, chainIds: [FIXTURE_CONTEXT.chains.P], intervalSize: "hour" } },
  { name: "per day, the native asset on X", params: { ...ALL_TIME, chainIds: [FIXTURE_CONTEXT.chains.X], assetId: NATIVE, intervalSize: "day" } },
  { name: "per week, cut inside minutes", params: { startTime: T0 + 1_234, endTime: T0 + 3 * 86_400_000 - 999, chainIds: [], intervalSize: "week" } },
  { name: "per month", params: { ...ALL_TIME, chainIds: [], intervalSize: "month" } },
];

describe("explorer reads kept at ingest (PGlite, table fixtures)", function () {
  this.timeout(120_000);
  const opened: SqlDatabase[] = [];
  const open = async (db: Promise<SqlDatabase>) => {
    opened.push(await db);
    return opened[opened.length - 1]!;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });

  it("every transaction written as the ingester writes has a complete document", async () => {
    const db = await open(ingestedLikeTheIngester());
    const rows = await db.query("SELECT count(*)::int AS n, count(*) FILTER (WHERE complete)::int AS complete FROM transaction_documents");
    expect(rows[0]).to.deep.equal({ n: FIXTURE_TRANSACTIONS.length, complete: FIXTURE_TRANSACTIONS.length });
  });

  it("documents written after migration 5 are stored uncompressed", async () => {
    const db = await open(ingestedLikeTheIngester());
    const [row] = await db.query(
      "SELECT count(*) FILTER (WHERE octet_length(doc) > 2032)::int AS large, count(*) FILTER (WHERE pg_column_compression(doc) IS NOT NULL)::int AS compressed FROM transaction_documents",
    );
    // Documents past the size where PostgreSQL compresses (2 KB) exist, and none is compressed.
    expect(row!.large).to.be.greaterThan(0);
    expect(row!.compressed).to.equal(0);
  });

  it("records read from documents equal the records built from the rows, spent outputs included", async () => {
    const documented = createExplorerReader(await open(ingestedLikeTheIngester()), FIXTURE_CONTEXT);
    const live = await open(writtenRowByRow());
    // Rows added after their transaction's SQL transaction dropped its document: read from the rows.
    expect((await live.query("SELECT count(*)::int AS n FROM transaction_documents d JOIN outputs o ON o.transaction_id = d.id"))[0]!.n).to.equal(0);
    const records = await everyRecord(documented);
    expect(JSON.stringify(records)).to.include(`"redeemingTransactionID":"${FIXTURE_TRANSACTIONS[1]!.id}"`);
    expect(records).to.deep.equal(await everyRecord(createExplorerReader(live, FIXTURE_CONTEXT)));
  });

  for (const { name, params } of WINDOWS) {
    it(`/aggregates ${name}: the kept per-minute aggregates answer the per-request sums`, async () => {
      const db = await open(writtenRowByRow());
      const reader = createExplorerReader(db, FIXTURE_CONTEXT);
      const kept = await reader.aggregates(params);
      expect(kept.aggregates.transactionCount + kept.aggregates.outputCount).to.be.greaterThan(0);
      expect(kept).to.deep.equal(await summedAggregates(db, FIXTURE_CONTEXT, params));
      expect(await reader.txfeeAggregates(params)).to.deep.equal(await summedTxfeeAggregates(db, params));
    });
  }

  it("migrations 4 and 5 fill the documents and the per-minute aggregates of rows written before them", async () => {
    const db = await open(openPgliteDatabase(undefined));
    await migrate(db, { name: "explorer", lockKey: 7303, migrations: EXPLORER_MIGRATIONS.slice(0, 3) });
    await seedFixtureRows(db);
    await migrateExplorer(db);
    expect((await db.query("SELECT count(*)::int AS n FROM transaction_documents"))[0]!.n).to.equal(FIXTURE_TRANSACTIONS.length);
    const reader = createExplorerReader(db, FIXTURE_CONTEXT);
    for (const { params } of WINDOWS) expect(await reader.aggregates(params)).to.deep.equal(await summedAggregates(db, FIXTURE_CONTEXT, params));
    expect(await everyRecord(reader)).to.deep.equal(await everyRecord(createExplorerReader(await open(writtenRowByRow()), FIXTURE_CONTEXT)));
  });

  it("migration 5 counts the owners of minutes kept by migration 4 before it", async () => {
    const db = await open(openPgliteDatabase(undefined));
    await migrate(db, { name: "explorer", lockKey: 7303, migrations: EXPLORER_MIGRATIONS.slice(0, 4) });
    await seedFixtureRows(db);
    await migrateExplorer(db);
    const reader = createExplorerReader(db, FIXTURE_CONTEXT);
    for (const { params } of WINDOWS) expect(await reader.aggregates(params)).to.deep.equal(await summedAggregates(db, FIXTURE_CONTEXT, params));
  });
});
