/**
 * A migration of the explorer (schema.ts; append-only like every migration): the running totals
 * of migrations 2 and 3 (schema-totals.ts, schema-totals-sets.ts) written by the ingester from
 * the rows it has in hand (ingest/running-totals.ts), as migration 6 (schema-ingest-writes.ts)
 * did for the per-minute aggregates.
 *
 * In a SQL transaction that sets `explorer.ingester_totals` to `on` (transaction-local), the
 * three running-total triggers (owners added, outputs added, outputs redeemed) do not fire
 * (their functions unchanged, the triggers made again with a `WHEN`); in any other they keep
 * the totals, the ledger and the supplies as before.
 *
 * Statements are separated by `;` at the end of a line (sql/migrations.ts).
 */
export const INGESTER_TOTALS_MIGRATION = `-- Running totals written by the ingester (schema-ingest-totals.ts).
   DROP TRIGGER explorer_owners_added ON output_addresses;
   CREATE TRIGGER explorer_owners_added AFTER INSERT ON output_addresses REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT WHEN (current_setting('explorer.ingester_totals', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION explorer_owners_added();
   DROP TRIGGER explorer_outputs_added ON outputs;
   CREATE TRIGGER explorer_outputs_added AFTER INSERT ON outputs REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT WHEN (current_setting('explorer.ingester_totals', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION explorer_outputs_added();
   DROP TRIGGER explorer_outputs_redeemed ON outputs;
   CREATE TRIGGER explorer_outputs_redeemed AFTER UPDATE ON outputs REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
     FOR EACH STATEMENT WHEN (current_setting('explorer.ingester_totals', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION explorer_outputs_redeemed()`;
