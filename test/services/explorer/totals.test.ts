/**
 * The running totals of migration 2 (schema-totals.ts): they must equal the sums the reader used
 * to compute per request from the outputs, whether the rows came before the migration (filled by
 * it) or after (moved by its triggers), and the reads the pages and endpoints make must have an
 * index to answer them (EXPLAIN with sequential scans forbidden shows none on a growing table).
 */
import { expect } from "chai";
import { explainReads } from "../../../bench/explorer-plans";
import { EXPLORER_MIGRATIONS, migrateExplorer } from "../../../src/services/explorer/schema";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { migrate } from "../../../src/services/sql/migrations";
import { openPgliteDatabase } from "../../../src/services/sql/pglite-database";
import { pgliteKind, seededDatabase } from "./api-helpers";
import { ALICE, FIXTURE_CONTEXT, FIXTURE_TRANSACTIONS, NATIVE, seedFixtureRows } from "./fixture-rows";
import { keptSupplies, keptTotals, suppliesFromOutputs, summedFromOutputs } from "./totals-oracle";

describe("explorer running totals (PGlite, table fixtures)", function () {
  this.timeout(120_000);
  let db: SqlDatabase | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it("rows written after the migration move the totals to the sums of their outputs", async () => {
    db = await seededDatabase(pgliteKind());
    const kept = await keptTotals(db);
    expect(kept.length).to.be.greaterThan(10);
    expect(kept).to.deep.equal(await summedFromOutputs(db));
    expect(await keptSupplies(db)).to.deep.equal(await suppliesFromOutputs(db));
  });

  it("the migration fills the totals and the history order of rows ingested before it", async () => {
    db = await openPgliteDatabase(undefined);
    await migrate(db, { name: "explorer", lockKey: 7303, migrations: EXPLORER_MIGRATIONS.slice(0, 1) });
    await seedFixtureRows(db);
    expect((await db.query("SELECT to_regclass('address_asset_totals') AS t"))[0]!.t).to.equal(null);
    await migrateExplorer(db);
    expect(await keptTotals(db)).to.deep.equal(await summedFromOutputs(db));
    expect(await keptSupplies(db)).to.deep.equal(await suppliesFromOutputs(db));
    const unordered = await db.query("SELECT count(*)::int AS n FROM address_transactions at JOIN transactions t ON t.id = at.transaction_id WHERE at.sequence <> t.sequence");
    expect(unordered[0]!.n).to.equal(0);
  });

  it("each read of the endpoints and pages has an index: no sequential scan of a growing table", async () => {
    db = await seededDatabase(pgliteKind());
    const spent = FIXTURE_TRANSACTIONS.find((t) => t.inputs.length > 0 && t.outputs.length > 0)!;
    const findings = await explainReads(db, FIXTURE_CONTEXT, { transactionId: spent.id, outputId: spent.outputs[0]!.id, address: ALICE.address, assetId: NATIVE }, { forbidSeqScan: true });
    expect(findings.length).to.be.greaterThan(20);
    expect(findings.filter((f) => f.seqScans.length > 0).map((f) => `${f.read}: ${f.seqScans.join(", ")}: ${f.statement}`)).to.deep.equal([]);
  });
});
