/**
 * A migration of the explorer (schema.ts; append-only like every migration): an output's one
 * owner kept on its row.
 *
 * An aggregates window cut inside a minute counts the distinct owners of that piece's outputs
 * (reader/aggregates.ts). Read from `output_addresses`, that is one index probe per output, about
 * half the cost of a ten-minute window's whole statement on PGlite (376 probes in the explorer
 * benchmark's window at 100,000 containers). Nearly every output has one owner, so the ingester
 * writes it on the output's row, and the probe is left for the outputs it does not cover.
 *
 * `sole_owner` is the address when the output has exactly one owner. NULL means "read the owners
 * from `output_addresses`": an output with several owners or none, and every output stored before
 * this migration (no rows are rewritten, so the migration is instant on a table of millions).
 * `output_addresses` stays the record of every owner.
 *
 * Statements are separated by `;` at the end of a line (sql/migrations.ts).
 */
export const OUTPUTS_SOLE_OWNER_MIGRATION = `-- An output's one owner on its row, NULL to read its owners from output_addresses (schema-outputs-owner.ts).
   ALTER TABLE outputs ADD COLUMN sole_owner text`;
