/**
 * Migration 5 of the explorer (schema.ts; append-only like every migration): what the reads need
 * at a million transactions, measured on a PostgreSQL server and on PGlite.
 *
 * - The owners of each minute, counted at ingest: `explorer_minute_outputs.owners` is the number
 *   of addresses that owned outputs created in that minute, on that chain, of that asset (the
 *   rows `explorer_minute_owners` holds for it). `/v2/aggregates` answers `addressCount` as the
 *   sum of these over the window's minutes, as the reference explorer (Ortelius) sums its
 *   per-minute, per-asset distinct owner counts: an address counts once per minute, chain and
 *   asset it received outputs in. An exact count of distinct addresses over a window would cost
 *   a hash of every (minute, address) row in it (45,000 rows for an hour of the benchmark's
 *   chain, 20 ms of the server's CPU per request); the sum costs the window's minutes.
 *   The owners trigger of migration 4 is replaced: its insert of the (minute, chain, asset,
 *   address) rows returns the new ones, counted into the minute's row in the same statement.
 *
 * - Documents stored as written, not compressed: a page of 100 records read 100 documents of
 *   2.5 KB each compressed to 1.2 KB, and decompressing them was a third of the statement on
 *   PGlite (5.1 ms against 3.4 ms uncompressed at 100,000 containers; 1.6 against 1.4 ms on a
 *   server). Up to the page's size (`toast_tuple_target`) a document stays in its row; a larger one
 *   goes out of line, uncompressed. Documents written before this migration stay compressed.
 *
 * Statements are separated by `;` at the end of a line (sql/migrations.ts): inside the function
 * bodies every `;` is followed by a comment on its line.
 */
export const READS_AT_SCALE_MIGRATION = `-- Owners per minute counted at ingest (schema-reads-scale.ts).
   ALTER TABLE explorer_minute_outputs ADD COLUMN owners bigint NOT NULL DEFAULT 0;
   UPDATE explorer_minute_outputs m SET owners = c.owners
     FROM (SELECT minute, chain_id, asset_id, count(*) AS owners FROM explorer_minute_owners GROUP BY 1, 2, 3) c
    WHERE m.minute = c.minute AND m.chain_id = c.chain_id AND m.asset_id = c.asset_id;
   CREATE OR REPLACE FUNCTION explorer_minute_owners_added() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     WITH inserted AS (
       INSERT INTO explorer_minute_owners (minute, chain_id, asset_id, address)
       SELECT DISTINCT o.accepted_at - o.accepted_at % 60000, o.created_on_chain_id, o.asset_id, a.address
         FROM added a JOIN outputs o ON o.id = a.output_id ORDER BY 1, 2, 3, 4
       ON CONFLICT DO NOTHING RETURNING minute, chain_id, asset_id)
     INSERT INTO explorer_minute_outputs AS m (minute, chain_id, asset_id, volume, outputs, transactions, owners)
     SELECT minute, chain_id, asset_id, 0, 0, 0, count(*) FROM inserted GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (minute, chain_id, asset_id) DO UPDATE SET owners = m.owners + EXCLUDED.owners; -- an owner counts once per minute, chain and asset
     RETURN NULL; -- an AFTER trigger's answer is ignored
   END $$;
   ALTER TABLE transaction_documents SET (toast_tuple_target = 8160);
   ALTER TABLE transaction_documents ALTER COLUMN doc SET STORAGE EXTERNAL;
   ANALYZE explorer_minute_outputs`;
