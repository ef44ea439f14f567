/**
 * Migration 4 of the explorer (schema.ts; append-only like every migration): what the reads need
 * so that a page of records costs a few indexed rows instead of hundreds of lookups.
 *
 * - `explorer_transaction_json(id)`: a transaction's record (records.ts `TransactionRecord`, its
 *   keys in the same order) built by the database: inputs with their spent outputs and
 *   credentials, outputs with their owners, per-asset totals (summed as numerics), the memo in
 *   base64, times in RFC 3339. The reader answers from it alone when a document is missing.
 * - `transaction_documents`: that record written once per transaction at ingest, in the same SQL
 *   transaction as its rows. A record changes after that in one way only: an output it created is
 *   redeemed, so the reader takes `redeemingTransactionID` of the created outputs from `outputs`
 *   as they stand. A transaction one of whose inputs spends an output not indexed when its
 *   document was written (an import whose export's chain lags) is marked incomplete and read live.
 *
 * Rows added to a transaction after the SQL transaction that added it (a writer other than the
 * ingester) drop its document, so it is read live.
 *
 * Documents are written set-based, once per SQL transaction: a statement trigger on
 * `transactions` marks them due (one row of `explorer_documents_state`, whose update queues one
 * deferred trigger), and at commit, when every row of the ingested page is in place whatever the
 * order the ingester wrote its tables in, one statement writes the documents of the transactions
 * ingested since the last (by `sequence`, indexed here).
 *
 * - `explorer_minute_outputs`, `explorer_minute_transactions`, `explorer_minute_owners`: the
 *   aggregates per UTC minute (every interval size the API offers is whole minutes), moved by
 *   statement triggers as rows are added: per minute, creating chain and asset the volume, the
 *   outputs and the transactions that created them (a transaction's outputs are added by one
 *   statement); per minute and chain the transactions and their fees; per minute, chain and
 *   asset which addresses owned outputs created then (distinct counts cannot be summed). The
 *   reader sums whole minutes from them and reads the outputs of a window's partial first and
 *   last minutes from the rows (reader/aggregates.ts).
 *
 * Statements are separated by `;` at the end of a line (sql/migrations.ts): inside the function
 * bodies every `;` is followed by a comment on its line.
 */
export const READS_MIGRATION = `-- Records as documents (schema-reads.ts).
   CREATE FUNCTION explorer_iso_time(ms bigint) RETURNS text LANGUAGE sql IMMUTABLE AS
     $$ SELECT to_char(timestamp 'epoch' + ms * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;
   CREATE FUNCTION explorer_output_json(o outputs) RETURNS json LANGUAGE sql STABLE AS
     $$ SELECT json_build_object('id', o.id, 'transactionID', o.transaction_id, 'outputIndex', o.output_index, 'assetID', o.asset_id,
          'outputType', o.output_type, 'amount', o.amount::text, 'locktime', o.locktime, 'threshold', o.threshold,
          'addresses', coalesce((SELECT json_agg(oa.address ORDER BY oa.position) FROM output_addresses oa WHERE oa.output_id = o.id), '[]'),
          'timestamp', explorer_iso_time(o.accepted_at), 'redeemingTransactionID', coalesce(o.redeeming_transaction_id, ''),
          'chainID', o.chain_id, 'groupID', o.group_id, 'payload', o.payload, 'stake', o.stake) $$;
   CREATE FUNCTION explorer_transaction_json(tx_id text) RETURNS json LANGUAGE sql STABLE AS
     $$ SELECT json_build_object('id', t.id, 'chainID', t.chain_id, 'type', t.type,
          'inputs', coalesce((SELECT json_agg(json_build_object(
              'output', coalesce((SELECT explorer_output_json(o) FROM outputs o WHERE o.id = ti.output_id), json_build_object('id', ti.output_id)),
              'credentials', coalesce((SELECT json_agg(json_build_object('address', c.address, 'public_key', c.public_key, 'signature', c.signature) ORDER BY c.position)
                                         FROM input_credentials c WHERE c.transaction_id = t.id AND c.input_position = ti.position), '[]')) ORDER BY ti.position)
            FROM transaction_inputs ti WHERE ti.transaction_id = t.id), '[]'),
          'outputs', coalesce((SELECT json_agg(explorer_output_json(o) ORDER BY o.output_index) FROM outputs o WHERE o.transaction_id = t.id), '[]'),
          'memo', replace(encode(decode(t.memo, 'hex'), 'base64'), E'\\n', ''),
          'inputTotals', coalesce((SELECT json_object_agg(s.asset_id, s.total ORDER BY s.asset_id COLLATE "C") FROM (
              SELECT o.asset_id, sum(o.amount)::text AS total FROM transaction_inputs ti JOIN outputs o ON o.id = ti.output_id
               WHERE ti.transaction_id = t.id GROUP BY o.asset_id) s), '{}'),
          'outputTotals', coalesce((SELECT json_object_agg(s.asset_id, s.total ORDER BY s.asset_id COLLATE "C") FROM (
              SELECT o.asset_id, sum(o.amount)::text AS total FROM outputs o WHERE o.transaction_id = t.id GROUP BY o.asset_id) s), '{}'),
          'reusedAddressTotals', NULL, 'timestamp', explorer_iso_time(t.accepted_at), 'txFee', t.tx_fee, 'genesis', t.genesis)
        FROM transactions t WHERE t.id = tx_id $$;
   -- Whether every input's spent output is indexed (else the record is read live).
   CREATE FUNCTION explorer_inputs_resolved(tx_id text) RETURNS boolean LANGUAGE sql STABLE AS
     $$ SELECT NOT EXISTS (SELECT 1 FROM transaction_inputs ti WHERE ti.transaction_id = tx_id AND NOT EXISTS (SELECT 1 FROM outputs o WHERE o.id = ti.output_id)) $$;
   CREATE TABLE transaction_documents (
     id text PRIMARY KEY,                 -- the transaction
     complete boolean NOT NULL,           -- false: an input's output was not indexed yet; read live
     doc text NOT NULL                    -- its record as JSON text
   );
   CREATE INDEX transactions_sequence ON transactions (sequence);
   CREATE TABLE explorer_documents_state (
     id integer PRIMARY KEY CHECK (id = 1),
     documented_sequence bigint NOT NULL, -- transactions up to this sequence have their documents
     due boolean NOT NULL                 -- transactions were added in the running SQL transaction
   );
   INSERT INTO explorer_documents_state (id, documented_sequence, due) VALUES (1, coalesce((SELECT max(sequence) FROM transactions), 0), false);
   INSERT INTO transaction_documents (id, complete, doc) SELECT t.id, explorer_inputs_resolved(t.id), explorer_transaction_json(t.id)::text FROM transactions t;
   CREATE FUNCTION explorer_documents_due() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE explorer_documents_state SET due = true WHERE id = 1 AND NOT due; -- queues the deferred writing once per SQL transaction
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE TRIGGER explorer_documents_due AFTER INSERT ON transactions FOR EACH STATEMENT EXECUTE FUNCTION explorer_documents_due();
   CREATE FUNCTION explorer_write_documents() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     since bigint := (SELECT documented_sequence FROM explorer_documents_state WHERE id = 1); -- the last documented
   BEGIN
     INSERT INTO transaction_documents (id, complete, doc)
     SELECT t.id, explorer_inputs_resolved(t.id), explorer_transaction_json(t.id)::text FROM transactions t WHERE t.sequence > since
     ON CONFLICT (id) DO NOTHING; -- every row of the SQL transaction is in place now
     UPDATE explorer_documents_state SET due = false,
       documented_sequence = greatest(documented_sequence, coalesce((SELECT max(sequence) FROM transactions), 0)) WHERE id = 1; -- done until the next
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE CONSTRAINT TRIGGER explorer_write_documents AFTER UPDATE ON explorer_documents_state DEFERRABLE INITIALLY DEFERRED
     FOR EACH ROW WHEN (NEW.due AND NOT OLD.due) EXECUTE FUNCTION explorer_write_documents();
   -- Rows added to a transaction documented before (not the ingester's way: it adds a transaction's
   -- rows in the SQL transaction that adds it) drop its document and its spenders': they are read live.
   CREATE FUNCTION explorer_documents_outdated() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF (SELECT due FROM explorer_documents_state WHERE id = 1) THEN
       RETURN NULL; -- rows of the transactions this SQL transaction adds, documented at its commit
     END IF; -- else rows of transactions that may be documented
     IF TG_TABLE_NAME = 'output_addresses' THEN
       DELETE FROM transaction_documents WHERE id = ANY(ARRAY(
         SELECT o.transaction_id FROM changed c JOIN outputs o ON o.id = c.output_id
         UNION SELECT ti.transaction_id FROM changed c JOIN transaction_inputs ti ON ti.output_id = c.output_id)); -- creators and spenders
     ELSIF TG_TABLE_NAME = 'outputs' THEN
       DELETE FROM transaction_documents WHERE id = ANY(ARRAY(
         SELECT c.transaction_id FROM changed c UNION SELECT c.redeeming_transaction_id FROM changed c WHERE c.redeeming_transaction_id IS NOT NULL
         UNION SELECT ti.transaction_id FROM changed c JOIN transaction_inputs ti ON ti.output_id = c.id)); -- creators and spenders
     ELSE
       DELETE FROM transaction_documents WHERE id = ANY(ARRAY(SELECT c.transaction_id FROM changed c)); -- inputs and credentials
     END IF; -- the reader builds what has no document
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE TRIGGER explorer_documents_outputs_added AFTER INSERT ON outputs REFERENCING NEW TABLE AS changed
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_documents_outdated();
   CREATE TRIGGER explorer_documents_outputs_changed AFTER UPDATE ON outputs REFERENCING NEW TABLE AS changed
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_documents_outdated();
   CREATE TRIGGER explorer_documents_owners_added AFTER INSERT ON output_addresses REFERENCING NEW TABLE AS changed
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_documents_outdated();
   CREATE TRIGGER explorer_documents_inputs_added AFTER INSERT ON transaction_inputs REFERENCING NEW TABLE AS changed
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_documents_outdated();
   CREATE TRIGGER explorer_documents_credentials_added AFTER INSERT ON input_credentials REFERENCING NEW TABLE AS changed
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_documents_outdated();
   CREATE TABLE explorer_minute_outputs (
     minute bigint NOT NULL,              -- Unix ms of the minute's start
     chain_id text NOT NULL,              -- the creating transaction's chain
     asset_id text NOT NULL,
     volume numeric(78,0) NOT NULL,
     outputs bigint NOT NULL,
     transactions bigint NOT NULL,        -- transactions that created outputs of the asset
     PRIMARY KEY (minute, chain_id, asset_id)
   );
   CREATE TABLE explorer_minute_transactions (
     minute bigint NOT NULL,
     chain_id text NOT NULL,
     transactions bigint NOT NULL,
     txfee numeric(78,0) NOT NULL,
     PRIMARY KEY (minute, chain_id)
   );
   CREATE TABLE explorer_minute_owners (
     minute bigint NOT NULL,
     chain_id text NOT NULL,
     asset_id text NOT NULL,
     address text NOT NULL,
     PRIMARY KEY (minute, chain_id, asset_id, address)
   );
   INSERT INTO explorer_minute_outputs (minute, chain_id, asset_id, volume, outputs, transactions)
     SELECT o.accepted_at - o.accepted_at % 60000, o.created_on_chain_id, o.asset_id, sum(o.amount), count(*), count(DISTINCT o.transaction_id)
       FROM outputs o GROUP BY 1, 2, 3;
   INSERT INTO explorer_minute_transactions (minute, chain_id, transactions, txfee)
     SELECT t.accepted_at - t.accepted_at % 60000, t.chain_id, count(*), sum(t.tx_fee) FROM transactions t GROUP BY 1, 2;
   INSERT INTO explorer_minute_owners (minute, chain_id, asset_id, address)
     SELECT DISTINCT o.accepted_at - o.accepted_at % 60000, o.created_on_chain_id, o.asset_id, oa.address
       FROM output_addresses oa JOIN outputs o ON o.id = oa.output_id;
   CREATE FUNCTION explorer_minute_outputs_added() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO explorer_minute_outputs AS m (minute, chain_id, asset_id, volume, outputs, transactions)
     SELECT g.minute, g.chain_id, g.asset_id, sum(g.volume), sum(g.outputs),
            count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM outputs o WHERE o.transaction_id = g.transaction_id AND o.asset_id = g.asset_id AND o.output_index <> ALL(g.indexes)))
       FROM (SELECT a.accepted_at - a.accepted_at % 60000 AS minute, a.created_on_chain_id AS chain_id, a.asset_id, a.transaction_id,
                    sum(a.amount) AS volume, count(*) AS outputs, array_agg(a.output_index) AS indexes
               FROM added a GROUP BY 1, 2, 3, 4) g
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (minute, chain_id, asset_id) DO UPDATE SET volume = m.volume + EXCLUDED.volume,
       outputs = m.outputs + EXCLUDED.outputs, transactions = m.transactions + EXCLUDED.transactions; -- a transaction counts with its first outputs of the asset
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE TRIGGER explorer_minute_outputs_added AFTER INSERT ON outputs REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_minute_outputs_added();
   CREATE FUNCTION explorer_minute_transactions_added() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO explorer_minute_transactions AS m (minute, chain_id, transactions, txfee)
     SELECT a.accepted_at - a.accepted_at % 60000, a.chain_id, count(*), sum(a.tx_fee) FROM added a GROUP BY 1, 2 ORDER BY 1, 2
     ON CONFLICT (minute, chain_id) DO UPDATE SET transactions = m.transactions + EXCLUDED.transactions, txfee = m.txfee + EXCLUDED.txfee; -- added to the minute
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE TRIGGER explorer_minute_transactions_added AFTER INSERT ON transactions REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_minute_transactions_added();
   CREATE FUNCTION explorer_minute_owners_added() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO explorer_minute_owners (minute, chain_id, asset_id, address)
     SELECT DISTINCT o.accepted_at - o.accepted_at % 60000, o.created_on_chain_id, o.asset_id, a.address
       FROM added a JOIN outputs o ON o.id = a.output_id ORDER BY 1, 2, 3, 4
     ON CONFLICT DO NOTHING; -- an owner counts once per minute, chain and asset
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   CREATE TRIGGER explorer_minute_owners_added AFTER INSERT ON output_addresses REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT EXECUTE FUNCTION explorer_minute_owners_added();
   ANALYZE transaction_documents, explorer_minute_outputs, explorer_minute_transactions, explorer_minute_owners`;
