/**
 * Migration 3 of the explorer (schema.ts; migration 2, schema-totals.ts, keeps its text as
 * applied): the same running totals, moved by the same triggers, in fewer and cheaper
 * statements (the functions replaced, the triggers left pointing at them). Measured
 * at 20,000 containers on a PostgreSQL server, migration 2's trigger functions took half of the
 * ingest's SQL time: a supply function called once per output (a SQL function with a
 * sub-select is not inlined), and the transactions counted through a JSON document built and
 * read back per statement. Here each trigger is one set-based statement:
 *
 * - outputs added: the contract chain's ID is read once, the supply computed inline;
 * - owners added: the transactions counted (the ledger rows inserted by a CTE) and the money
 *   moved in ONE upsert of `address_asset_totals`;
 * - outputs redeemed: the supply, the ledger and the totals in one statement. An output going
 *   from unspent to spent changes the supply by `-amount`, plus `amount` when the contract chain
 *   spent it (its creator's share cancels out), so no join to the creating transaction.
 *
 * Counting stays as migration 2 defined it: a (address, asset, transaction, chain) row is counted
 * once on its chain, and once over all chains ('') when the ledger held it on no chain before
 * the statement (a CTE's inserts are not seen by the rest of its statement).
 *
 * Statements are separated by `;` at the end of a line (sql/migrations.ts): inside the function
 * bodies every `;` is followed by a comment on its line.
 */
export const TOTALS_SET_BASED_MIGRATION = `-- Running totals in set-based trigger statements (schema-totals-sets.ts).
   CREATE OR REPLACE FUNCTION explorer_outputs_added() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     contract_chain text := (SELECT id FROM chains WHERE alias = 'C'); -- read once per statement
   BEGIN
     INSERT INTO asset_totals AS t (asset_id, supply)
     SELECT o.asset_id, sum(CASE WHEN o.redeeming_transaction_id IS NULL THEN o.amount ELSE 0 END
                            + CASE WHEN spender.chain_id = contract_chain THEN o.amount ELSE 0 END
                            - CASE WHEN creator.chain_id = contract_chain THEN o.amount ELSE 0 END)
       FROM added o JOIN transactions creator ON creator.id = o.transaction_id
       LEFT JOIN transactions spender ON spender.id = o.redeeming_transaction_id
      GROUP BY 1 ORDER BY 1
     ON CONFLICT (asset_id) DO UPDATE SET supply = t.supply + EXCLUDED.supply; -- each new output as it stands
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE OR REPLACE FUNCTION explorer_owners_added() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     WITH owned AS (
       SELECT a.address, o.chain_id, o.asset_id, o.amount, o.transaction_id, o.redeeming_transaction_id
         FROM added a JOIN outputs o ON o.id = a.output_id),
     counted AS (
       INSERT INTO address_asset_transactions (address, asset_id, transaction_id, chain_id)
       SELECT DISTINCT w.address, w.asset_id, tx.id, w.chain_id
         FROM owned w CROSS JOIN LATERAL (VALUES (w.transaction_id), (w.redeeming_transaction_id)) AS tx(id)
        WHERE tx.id IS NOT NULL
       ON CONFLICT DO NOTHING RETURNING address, asset_id, transaction_id, chain_id),
     changes (address, chain_id, asset_id, received, sent, balance, utxos, transactions) AS (
       SELECT w.address, scope.chain_id, w.asset_id, w.amount,
              CASE WHEN w.redeeming_transaction_id IS NULL THEN 0 ELSE w.amount END,
              CASE WHEN w.redeeming_transaction_id IS NULL THEN w.amount ELSE 0 END,
              CASE WHEN w.redeeming_transaction_id IS NULL THEN 1 ELSE 0 END, 0::bigint
         FROM owned w CROSS JOIN LATERAL (VALUES (w.chain_id), ('')) AS scope(chain_id)
       UNION ALL
       SELECT address, chain_id, asset_id, 0, 0, 0, 0, count(*) FROM counted GROUP BY 1, 2, 3
       UNION ALL
       SELECT c.address, '', c.asset_id, 0, 0, 0, 0, count(DISTINCT c.transaction_id) FROM counted c
        WHERE NOT EXISTS (SELECT 1 FROM address_asset_transactions l WHERE l.address = c.address AND l.asset_id = c.asset_id AND l.transaction_id = c.transaction_id)
        GROUP BY 1, 3)
     INSERT INTO address_asset_totals AS t (address, chain_id, asset_id, received, sent, balance, utxos, transactions)
     SELECT address, chain_id, asset_id, sum(received), sum(sent), sum(balance), sum(utxos), sum(transactions)
       FROM changes GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (address, chain_id, asset_id) DO UPDATE SET received = t.received + EXCLUDED.received, sent = t.sent + EXCLUDED.sent,
       balance = t.balance + EXCLUDED.balance, utxos = t.utxos + EXCLUDED.utxos, transactions = t.transactions + EXCLUDED.transactions; -- received, held or sent as the output stands, and the transactions new to the address
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE OR REPLACE FUNCTION explorer_outputs_redeemed() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     contract_chain text := (SELECT id FROM chains WHERE alias = 'C'); -- read once per statement
   BEGIN
     WITH redeemed AS (
       SELECT r.id, r.chain_id, r.asset_id, r.amount, r.redeeming_transaction_id
         FROM after_rows r JOIN before_rows b ON b.id = r.id
        WHERE b.redeeming_transaction_id IS NULL AND r.redeeming_transaction_id IS NOT NULL),
     supply AS (
       INSERT INTO asset_totals AS t (asset_id, supply)
       SELECT d.asset_id, sum(CASE WHEN spender.chain_id = contract_chain THEN 0 ELSE -d.amount END)
         FROM redeemed d LEFT JOIN transactions spender ON spender.id = d.redeeming_transaction_id
        GROUP BY 1 ORDER BY 1
       ON CONFLICT (asset_id) DO UPDATE SET supply = t.supply + EXCLUDED.supply RETURNING 1),
     owned AS (
       SELECT oa.address, d.chain_id, d.asset_id, d.amount, d.redeeming_transaction_id
         FROM redeemed d JOIN output_addresses oa ON oa.output_id = d.id),
     counted AS (
       INSERT INTO address_asset_transactions (address, asset_id, transaction_id, chain_id)
       SELECT DISTINCT address, asset_id, redeeming_transaction_id, chain_id FROM owned
       ON CONFLICT DO NOTHING RETURNING address, asset_id, transaction_id, chain_id),
     changes (address, chain_id, asset_id, sent, utxos, transactions) AS (
       SELECT w.address, scope.chain_id, w.asset_id, w.amount, 1::bigint, 0::bigint
         FROM owned w CROSS JOIN LATERAL (VALUES (w.chain_id), ('')) AS scope(chain_id)
       UNION ALL
       SELECT address, chain_id, asset_id, 0, 0, count(*) FROM counted GROUP BY 1, 2, 3
       UNION ALL
       SELECT c.address, '', c.asset_id, 0, 0, count(DISTINCT c.transaction_id) FROM counted c
        WHERE NOT EXISTS (SELECT 1 FROM address_asset_transactions l WHERE l.address = c.address AND l.asset_id = c.asset_id AND l.transaction_id = c.transaction_id)
        GROUP BY 1, 3)
     INSERT INTO address_asset_totals AS t (address, chain_id, asset_id, received, sent, balance, utxos, transactions)
     SELECT address, chain_id, asset_id, 0, sum(sent), -sum(sent), -sum(utxos), sum(transactions)
       FROM changes GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (address, chain_id, asset_id) DO UPDATE SET sent = t.sent + EXCLUDED.sent, balance = t.balance + EXCLUDED.balance,
       utxos = t.utxos + EXCLUDED.utxos, transactions = t.transactions + EXCLUDED.transactions; -- held becomes sent for every owner; the redeeming transaction touches each
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;`;
