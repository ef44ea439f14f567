/**
 * The running totals of migration 2 (schema-totals.ts): they must equal the sums the reader used
 * to compute per request from the outputs, whether the rows came before the migration (filled by
 * it) or after (moved by its triggers), and the reads the pages and endpoints make must have an
 * index to answer them (EXPLAIN with sequential scans forbidden shows none on a growing table).
 */
import { expect } from "chai";
import { explainReads } from "../../../bench/explorer-plans";
import { EXPLORER_MIGRATIONS, migrateExplorer } from "../../../src/services/explorer/schema";
import type { SqlDatabase, SqlQueries } from "../../../src/services/sql/database";
import { migrate } from "../../../src/services/sql/migrations";
import { openPgliteDatabase } from "../../../src/services/sql/pglite-database";
import { pgliteKind, seededDatabase } from "./api-helpers";
import { ALICE, FIXTURE_CONTEXT, FIXTURE_TRANSACTIONS, NATIVE, seedFixtureRows } from "./fixture-rows";

/** The per-address sums as the reader computed them per request before the totals (the oracle). */
async function summedFromOutputs(db: SqlQueries): Promise<string[]> {
  const rows = await db.query(
    `SELECT oa.address, scope.chain_id, o.asset_id,
       coalesce(sum(o.amount) FILTER (WHERE tx.created), 0)::text AS received,
       coalesce(sum(o.amount) FILTER (WHERE tx.created AND o.redeeming_transaction_id IS NOT NULL), 0)::text AS sent,
       coalesce(sum(o.amount) FILTER (WHERE tx.created AND o.redeeming_transaction_id IS NULL), 0)::text AS balance,
       (count(*) FILTER (WHERE tx.created AND o.redeeming_transaction_id IS NULL))::text AS utxos,
       (count(DISTINCT tx.id))::text AS transactions
     FROM output_addresses oa JOIN outputs o ON o.id = oa.output_id
     CROSS JOIN LATERAL (VALUES (o.chain_id), ('')) AS scope(chain_id)
     CROSS JOIN LATERAL (VALUES (true, o.transaction_id), (false, o.redeeming_transaction_id)) AS tx(created, id)
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  return rows.map((r) => Object.values(r).join(" "));
}

async function keptTotals(db: SqlQueries): Promise<string[]> {
  const rows = await db.query(
    `SELECT address, chain_id, asset_id, received::text, sent::text, balance::text, utxos::text, transactions::text
     FROM address_asset_totals ORDER BY 1, 2, 3`,
  );
  return rows.map((r) => Object.values(r).join(" "));
}

/** Each asset's supply as reader/assets.ts defined it before the totals. */
async function suppliesFromOutputs(db: SqlQueries): Promise<string[]> {
  const rows = await db.query(
    `WITH c AS (SELECT id FROM chains WHERE alias = 'C')
     SELECT o.asset_id, (sum(CASE WHEN o.redeeming_transaction_id IS NULL THEN o.amount ELSE 0 END)
            + sum(CASE WHEN spender.chain_id = (SELECT id FROM c) THEN o.amount ELSE 0 END)
            - sum(CASE WHEN creator.chain_id = (SELECT id FROM c) THEN o.amount ELSE 0 END))::text AS supply
       FROM outputs o JOIN transactions creator ON creator.id = o.transaction_id
       LEFT JOIN transactions spender ON spender.id = o.redeeming_transaction_id
      GROUP BY o.asset_id ORDER BY 1`,
  );
  return rows.map((r) => `${r.asset_id} ${r.supply}`);
}

async function keptSupplies(db: SqlQueries): Promise<string[]> {
  return (await db.query("SELECT asset_id, supply::text AS supply FROM asset_totals ORDER BY 1")).map((r) => `${r.asset_id} ${r.supply}`);
}

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
