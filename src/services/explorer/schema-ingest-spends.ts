/**
 * A migration of the explorer (schema.ts; append-only like every migration): an output marked
 * spent is rewritten in place, not as a new row with an entry in each of its indexes.
 *
 * The ingester's spend is an UPDATE of `outputs.redeeming_transaction_id` and `redeemed_at`.
 * While `outputs_redeeming` indexed the first, every spend wrote a new row version with a new
 * entry in all five of the table's indexes (PostgreSQL's heap-only update needs an update that
 * changes no indexed column, and room for the new version on the row's page). No read looks an
 * output up by its redeemer (reader/*, the documents, the totals' triggers: they filter on it or
 * join from the output to the redeeming transaction), so the index goes, and the table's pages
 * are filled to 70 % (rows written from now on) so that the spent version fits beside the
 * unspent one: a spend then writes one row version and no index entry.
 *
 * Statements are separated by `;` at the end of a line (sql/migrations.ts).
 */
export const INGESTER_SPENDS_MIGRATION = `-- Spends written in place (schema-ingest-spends.ts).
   DROP INDEX outputs_redeeming;
   ALTER TABLE outputs SET (fillfactor = 70)`;
