/**
 * The running totals (address_asset_totals, its ledger, asset_totals) recounted from the rows,
 * as the reader summed them per request before the totals were kept: the oracle of the tests
 * of the totals, whoever wrote them (the triggers of schema-totals*.ts for any writer, the
 * ingester's ingest/running-totals.ts for its pages).
 */
import { arrayLiteral } from "../../../src/services/explorer/ingest/bulk-insert";
import type { SqlQueries } from "../../../src/services/sql/database";

const lines = (rows: Record<string, unknown>[]): string[] => rows.map((r) => Object.values(r).join(" "));

/** The per-address sums as the reader computed them per request before the totals. */
export async function summedFromOutputs(db: SqlQueries): Promise<string[]> {
  return lines(
    await db.query(
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
    ),
  );
}

export async function keptTotals(db: SqlQueries): Promise<string[]> {
  return lines(
    await db.query(
      `SELECT address, chain_id, asset_id, received::text, sent::text, balance::text, utxos::text, transactions::text
       FROM address_asset_totals ORDER BY 1, 2, 3`,
    ),
  );
}

/** The (address, asset, transaction, chain) rows counted: each owner with its outputs' creators and redeemers. */
export async function ledgerFromOutputs(db: SqlQueries): Promise<string[]> {
  return lines(
    await db.query(
      `SELECT DISTINCT oa.address, o.asset_id, tx.id, o.chain_id
         FROM output_addresses oa JOIN outputs o ON o.id = oa.output_id
         CROSS JOIN LATERAL (VALUES (o.transaction_id), (o.redeeming_transaction_id)) AS tx(id)
        WHERE tx.id IS NOT NULL ORDER BY 1, 2, 3, 4`,
    ),
  );
}

export async function keptLedger(db: SqlQueries): Promise<string[]> {
  return lines(await db.query("SELECT address, asset_id, transaction_id, chain_id FROM address_asset_transactions ORDER BY 1, 2, 3, 4"));
}

/** Each asset's supply as reader/assets.ts defined it before the totals. */
export async function suppliesFromOutputs(db: SqlQueries): Promise<string[]> {
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

export async function keptSupplies(db: SqlQueries): Promise<string[]> {
  return (await db.query("SELECT asset_id, supply::text AS supply FROM asset_totals ORDER BY 1")).map((r) => `${r.asset_id} ${r.supply}`);
}

/**
 * The recounted ledger rows of the transactions the kept ledger names. The ingester writes no
 * row of a transaction it added and closed in one page (ingest/running-totals.ts), but every row
 * of one it writes: so the kept ledger is, per transaction it names, exactly that transaction's
 * recounted rows (the triggers keep every row).
 */
export async function ledgerOfKeptTransactions(db: SqlQueries): Promise<string[]> {
  const named = new Set((await db.query("SELECT DISTINCT transaction_id FROM address_asset_transactions")).map((r) => String(r.transaction_id)));
  return (await ledgerFromOutputs(db)).filter((line) => named.has(line.split(" ")[2]!));
}

/** Every kept total against its recount from the rows (equal: `[kept, kept, kept]` twice). */
export async function totalsAndRecount(db: SqlQueries): Promise<{ kept: string[][]; recounted: string[][] }> {
  return {
    kept: [await keptTotals(db), await keptLedger(db), await keptSupplies(db)],
    recounted: [await summedFromOutputs(db), await ledgerOfKeptTransactions(db), await suppliesFromOutputs(db)],
  };
}

/** Copies the rows the totals sum from `from` to `to` as another writer would: the triggers keep `to`'s totals. */
export async function copyAsAnotherWriter(from: SqlQueries, to: SqlQueries): Promise<void> {
  const copy = async (select: string, insert: string) => {
    const rows = await from.query(select);
    const columns = rows.length === 0 ? [] : Object.keys(rows[0]!);
    await to.query(insert, columns.map((c) => arrayLiteral(rows.map((r) => r[c] ?? null))));
  };
  await copy("SELECT id, alias, vm, network_id FROM chains", "INSERT INTO chains (id, alias, vm, network_id) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])");
  await copy(
    "SELECT id, chain_id, type, accepted_at::text AS accepted_at, bytes FROM transactions ORDER BY sequence",
    "INSERT INTO transactions (id, chain_id, type, accepted_at, bytes) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[])",
  );
  await copy(
    "SELECT id, transaction_id, output_index, chain_id, created_on_chain_id, asset_id, output_type::text AS output_type, amount::text AS amount, accepted_at::text AS accepted_at FROM outputs",
    `INSERT INTO outputs (id, transaction_id, output_index, chain_id, created_on_chain_id, asset_id, output_type, amount, accepted_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::numeric[], $9::bigint[])`,
  );
  await copy("SELECT output_id, address, position FROM output_addresses", "INSERT INTO output_addresses (output_id, address, position) SELECT * FROM unnest($1::text[], $2::text[], $3::int[])");
  await copy(
    "SELECT id, redeeming_transaction_id FROM outputs WHERE redeeming_transaction_id IS NOT NULL",
    "UPDATE outputs o SET redeeming_transaction_id = u.redeemer FROM unnest($1::text[], $2::text[]) AS u(id, redeemer) WHERE o.id = u.id",
  );
}
