/**
 * A migration of the explorer (schema.ts; append-only like every migration): the ingester writes
 * what the database wrote for it at commit or by trigger, from the rows it has in hand.
 *
 * - Documents (ingest/documents.ts): written in the page's SQL transaction before its commit.
 *   The documents written at commit (schema-reads.ts) are now written only for the transactions
 *   added without one (a writer other than the ingester): one indexed probe per transaction
 *   instead of building each with `explorer_transaction_json`.
 * - Per-minute aggregates (ingest/minute-aggregates.ts): in a SQL transaction that sets
 *   `explorer.ingester_aggregates` to `on` (transaction-local), the three minute triggers of
 *   migrations 4 and 5 do not fire (their functions unchanged, the triggers made again with a
 *   `WHEN`); in any other they keep the aggregates as before.
 *
 * Statements are separated by `;` at the end of a line (sql/migrations.ts): inside the function
 * bodies every `;` is followed by a comment on its line.
 */
export const INGESTER_WRITES_MIGRATION = `-- Documents and per-minute aggregates written by the ingester (schema-ingest-writes.ts).
   CREATE OR REPLACE FUNCTION explorer_write_documents() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     since bigint := (SELECT documented_sequence FROM explorer_documents_state WHERE id = 1); -- the last documented
   BEGIN
     INSERT INTO transaction_documents (id, complete, doc)
     SELECT t.id, explorer_inputs_resolved(t.id), explorer_transaction_json(t.id)::text FROM transactions t
      WHERE t.sequence > since AND NOT EXISTS (SELECT 1 FROM transaction_documents d WHERE d.id = t.id)
     ON CONFLICT (id) DO NOTHING; -- only those the writer left without one
     UPDATE explorer_documents_state SET due = false,
       documented_sequence = greatest(documented_sequence, coalesce((SELECT max(sequence) FROM transactions), 0)) WHERE id = 1; -- done until the next
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   DROP TRIGGER explorer_minute_outputs_added ON outputs;
   CREATE TRIGGER explorer_minute_outputs_added AFTER INSERT ON outputs REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT WHEN (current_setting('explorer.ingester_aggregates', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION explorer_minute_outputs_added();
   DROP TRIGGER explorer_minute_transactions_added ON transactions;
   CREATE TRIGGER explorer_minute_transactions_added AFTER INSERT ON transactions REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT WHEN (current_setting('explorer.ingester_aggregates', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION explorer_minute_transactions_added();
   DROP TRIGGER explorer_minute_owners_added ON output_addresses;
   CREATE TRIGGER explorer_minute_owners_added AFTER INSERT ON output_addresses REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT WHEN (current_setting('explorer.ingester_aggregates', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION explorer_minute_owners_added()`;
