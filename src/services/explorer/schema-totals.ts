/**
 * Migration 2 of the explorer (schema.ts; append-only like every migration): running totals kept
 * by the database itself, so a list or lookup reads them by key instead of summing outputs per
 * request (the reference explorers' accumulate tables and current-balance rows).
 *
 * - `address_asset_totals`: per address, chain of the output ('' = over all chains) and asset,
 *   what the address received (every output it owns), sent (those redeemed), holds (the unspent
 *   ones), its unspent outputs and the transactions that created or redeemed its outputs.
 * - `address_asset_transactions`: which transactions were counted there, so a transaction that
 *   both created and redeemed outputs of one address counts once.
 * - `asset_totals`: an asset's supply, as reader/assets.ts defines it.
 *
 * Statement triggers move them in the same SQL transaction as the rows they sum, whoever writes
 * the rows: an owner row added to `output_addresses` counts its output (received, and held or
 * sent as it stands), an output whose redeeming transaction is set moves from held to sent, an
 * output added or redeemed moves its asset's supply. The tables are filled here from what was
 * ingested before. `address_transactions` gains the transaction's ingestion sequence, so an
 * address's history is read newest first from an index; a row written without it gets it from
 * its transaction.
 *
 * Statements are separated by `;` at the end of a line (sql/migrations.ts): inside the function
 * bodies every `;` is followed by a comment on its line.
 */
export const TOTALS_MIGRATION = `-- Running totals (schema-totals.ts).
   CREATE TABLE address_asset_totals (
     address text NOT NULL,
     chain_id text NOT NULL,              -- '' : over all chains
     asset_id text NOT NULL,
     received numeric(78,0) NOT NULL DEFAULT 0,
     sent numeric(78,0) NOT NULL DEFAULT 0,
     balance numeric(78,0) NOT NULL DEFAULT 0,
     utxos bigint NOT NULL DEFAULT 0,
     transactions bigint NOT NULL DEFAULT 0,
     PRIMARY KEY (address, chain_id, asset_id)
   );
   -- An asset's holders, largest balance first.
   CREATE INDEX address_asset_totals_holders ON address_asset_totals (asset_id, balance DESC, address) WHERE chain_id = '' AND balance > 0;
   CREATE TABLE address_asset_transactions (
     address text NOT NULL,
     asset_id text NOT NULL,
     transaction_id text NOT NULL,
     chain_id text NOT NULL,
     PRIMARY KEY (address, asset_id, transaction_id, chain_id)
   );
   CREATE TABLE asset_totals (
     asset_id text PRIMARY KEY,
     supply numeric(78,0) NOT NULL DEFAULT 0
   );
   ALTER TABLE address_transactions ADD COLUMN sequence bigint;
   UPDATE address_transactions at SET sequence = t.sequence FROM transactions t WHERE t.id = at.transaction_id;
   ALTER TABLE address_transactions ALTER COLUMN sequence SET NOT NULL;
   CREATE INDEX address_transactions_order ON address_transactions (address, accepted_at, sequence);
   DROP INDEX address_transactions_time;
   CREATE INDEX outputs_time ON outputs (accepted_at, id);
   INSERT INTO address_asset_transactions (address, asset_id, transaction_id, chain_id)
     SELECT DISTINCT oa.address, o.asset_id, tx.id, o.chain_id
       FROM output_addresses oa JOIN outputs o ON o.id = oa.output_id
       CROSS JOIN LATERAL (VALUES (o.transaction_id), (o.redeeming_transaction_id)) AS tx(id)
      WHERE tx.id IS NOT NULL;
   INSERT INTO address_asset_totals (address, chain_id, asset_id, received, sent, balance, utxos, transactions)
     SELECT oa.address, scope.chain_id, o.asset_id, sum(o.amount),
            coalesce(sum(o.amount) FILTER (WHERE o.redeeming_transaction_id IS NOT NULL), 0),
            coalesce(sum(o.amount) FILTER (WHERE o.redeeming_transaction_id IS NULL), 0),
            count(*) FILTER (WHERE o.redeeming_transaction_id IS NULL), 0
       FROM output_addresses oa JOIN outputs o ON o.id = oa.output_id
       CROSS JOIN LATERAL (VALUES (o.chain_id), ('')) AS scope(chain_id)
      GROUP BY 1, 2, 3;
   UPDATE address_asset_totals totals SET transactions = counted.n
     FROM (SELECT address, chain_id, asset_id, count(*) AS n FROM address_asset_transactions GROUP BY 1, 2, 3
           UNION ALL SELECT address, '', asset_id, count(DISTINCT transaction_id) FROM address_asset_transactions GROUP BY 1, 3) counted
    WHERE totals.address = counted.address AND totals.chain_id = counted.chain_id AND totals.asset_id = counted.asset_id;
   CREATE FUNCTION explorer_supply_of(amount numeric, spent boolean, creator_chain text, spender_chain text) RETURNS numeric LANGUAGE sql STABLE AS
     'SELECT CASE WHEN spent THEN 0 ELSE amount END
             + CASE WHEN spender_chain = (SELECT id FROM chains WHERE alias = ''C'') THEN amount ELSE 0 END
             - CASE WHEN creator_chain = (SELECT id FROM chains WHERE alias = ''C'') THEN amount ELSE 0 END';
   INSERT INTO asset_totals (asset_id, supply)
     SELECT o.asset_id, sum(explorer_supply_of(o.amount, o.redeeming_transaction_id IS NOT NULL, creator.chain_id, spender.chain_id))
       FROM outputs o
       JOIN transactions creator ON creator.id = o.transaction_id
       LEFT JOIN transactions spender ON spender.id = o.redeeming_transaction_id
      GROUP BY o.asset_id;
   -- Counts the transactions of (address, asset, transaction, chain) rows not counted yet.
   CREATE FUNCTION explorer_count_transactions(candidates jsonb) RETURNS void LANGUAGE plpgsql AS $$
   BEGIN
     WITH inserted AS (
       INSERT INTO address_asset_transactions (address, asset_id, transaction_id, chain_id)
       SELECT c.address, c.asset_id, c.transaction_id, c.chain_id
         FROM jsonb_to_recordset(candidates) AS c(address text, asset_id text, transaction_id text, chain_id text)
       ON CONFLICT DO NOTHING RETURNING address, asset_id, transaction_id, chain_id),
     counted AS (
       SELECT address, chain_id, asset_id, count(*) AS n FROM inserted GROUP BY 1, 2, 3
       UNION ALL
       -- the statement's snapshot holds the ledger as it was: a transaction new on every chain counts once over all
       SELECT i.address, '', i.asset_id, count(DISTINCT i.transaction_id) FROM inserted i
        WHERE NOT EXISTS (SELECT 1 FROM address_asset_transactions l WHERE l.address = i.address AND l.asset_id = i.asset_id AND l.transaction_id = i.transaction_id)
        GROUP BY 1, 3)
     UPDATE address_asset_totals t SET transactions = t.transactions + c.n
       FROM counted c WHERE t.address = c.address AND t.chain_id = c.chain_id AND t.asset_id = c.asset_id; -- the totals rows exist: the money was added first
   END $$;
   CREATE FUNCTION explorer_owners_added() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO address_asset_totals AS t (address, chain_id, asset_id, received, sent, balance, utxos)
     SELECT a.address, scope.chain_id, o.asset_id, sum(o.amount),
            coalesce(sum(o.amount) FILTER (WHERE o.redeeming_transaction_id IS NOT NULL), 0),
            coalesce(sum(o.amount) FILTER (WHERE o.redeeming_transaction_id IS NULL), 0),
            count(*) FILTER (WHERE o.redeeming_transaction_id IS NULL)
       FROM added a JOIN outputs o ON o.id = a.output_id
       CROSS JOIN LATERAL (VALUES (o.chain_id), ('')) AS scope(chain_id)
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (address, chain_id, asset_id) DO UPDATE SET received = t.received + EXCLUDED.received, sent = t.sent + EXCLUDED.sent,
       balance = t.balance + EXCLUDED.balance, utxos = t.utxos + EXCLUDED.utxos; -- received, and held or sent as the output stands
     PERFORM explorer_count_transactions(coalesce((
       SELECT jsonb_agg(DISTINCT jsonb_build_object('address', a.address, 'asset_id', o.asset_id, 'transaction_id', tx.id, 'chain_id', o.chain_id))
         FROM added a JOIN outputs o ON o.id = a.output_id
         CROSS JOIN LATERAL (VALUES (o.transaction_id), (o.redeeming_transaction_id)) AS tx(id)
        WHERE tx.id IS NOT NULL), '[]'::jsonb)); -- the transactions that created or redeemed them
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE TRIGGER explorer_owners_added AFTER INSERT ON output_addresses REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_owners_added();
   CREATE FUNCTION explorer_outputs_added() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO asset_totals AS t (asset_id, supply)
     SELECT o.asset_id, sum(explorer_supply_of(o.amount, o.redeeming_transaction_id IS NOT NULL, creator.chain_id, spender.chain_id))
       FROM added o JOIN transactions creator ON creator.id = o.transaction_id
       LEFT JOIN transactions spender ON spender.id = o.redeeming_transaction_id
      GROUP BY 1 ORDER BY 1
     ON CONFLICT (asset_id) DO UPDATE SET supply = t.supply + EXCLUDED.supply; -- each new output as it stands
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE TRIGGER explorer_outputs_added AFTER INSERT ON outputs REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_outputs_added();
   -- The outputs of an update whose redeeming transaction was set by it (null before).
   CREATE FUNCTION explorer_outputs_redeemed() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NOT EXISTS (SELECT 1 FROM after_rows n JOIN before_rows b ON b.id = n.id WHERE b.redeeming_transaction_id IS NULL AND n.redeeming_transaction_id IS NOT NULL) THEN
       RETURN NULL; -- another update of outputs
     END IF; -- else some were redeemed
     INSERT INTO asset_totals AS t (asset_id, supply)
     SELECT r.asset_id, sum(explorer_supply_of(r.amount, true, creator.chain_id, spender.chain_id) - explorer_supply_of(r.amount, false, creator.chain_id, NULL))
       FROM after_rows r JOIN before_rows b ON b.id = r.id AND b.redeeming_transaction_id IS NULL AND r.redeeming_transaction_id IS NOT NULL
       JOIN transactions creator ON creator.id = r.transaction_id
       LEFT JOIN transactions spender ON spender.id = r.redeeming_transaction_id
      GROUP BY 1 ORDER BY 1
     ON CONFLICT (asset_id) DO UPDATE SET supply = t.supply + EXCLUDED.supply; -- from unspent to spent, by whom
     INSERT INTO address_asset_totals AS t (address, chain_id, asset_id, received, sent, balance, utxos)
     SELECT oa.address, scope.chain_id, r.asset_id, 0, sum(r.amount), -sum(r.amount), -count(*)
       FROM after_rows r JOIN before_rows b ON b.id = r.id AND b.redeeming_transaction_id IS NULL AND r.redeeming_transaction_id IS NOT NULL
       JOIN output_addresses oa ON oa.output_id = r.id
       CROSS JOIN LATERAL (VALUES (r.chain_id), ('')) AS scope(chain_id)
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (address, chain_id, asset_id) DO UPDATE SET sent = t.sent + EXCLUDED.sent,
       balance = t.balance + EXCLUDED.balance, utxos = t.utxos + EXCLUDED.utxos; -- held becomes sent for every owner
     PERFORM explorer_count_transactions(coalesce((
       SELECT jsonb_agg(DISTINCT jsonb_build_object('address', oa.address, 'asset_id', r.asset_id, 'transaction_id', r.redeeming_transaction_id, 'chain_id', r.chain_id))
         FROM after_rows r JOIN before_rows b ON b.id = r.id AND b.redeeming_transaction_id IS NULL AND r.redeeming_transaction_id IS NOT NULL
         JOIN output_addresses oa ON oa.output_id = r.id), '[]'::jsonb)); -- the redeeming transaction touches every owner
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE TRIGGER explorer_outputs_redeemed AFTER UPDATE ON outputs REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_outputs_redeemed();
   CREATE FUNCTION explorer_address_transaction_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     NEW.sequence := (SELECT sequence FROM transactions WHERE id = NEW.transaction_id); -- the transaction's ingestion order
     RETURN NEW; -- the row, completed
   END $$;
   CREATE TRIGGER explorer_address_transaction_sequence BEFORE INSERT ON address_transactions
     FOR EACH ROW WHEN (NEW.sequence IS NULL) EXECUTE FUNCTION explorer_address_transaction_sequence();`;
