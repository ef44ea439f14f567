/**
 * A migration of the explorer (schema.ts; append-only like every migration): the ingester's
 * per-row checks that no read needs are dropped.
 *
 * - The references of `outputs`, `transaction_inputs`, `input_credentials`,
 *   `address_transactions` to `transactions`, and of `output_addresses` to `outputs`: each row
 *   inserted looked its transaction (or output) up and took a key-share lock on it, which writes
 *   that row's header: four lookups and locks per exchange-chain container. The ingester writes a
 *   transaction and its rows in one SQL transaction, from the same decoded rows, the transaction
 *   first (ingest/store.ts), so what they checked holds by construction. No read relies on them.
 * - `UNIQUE (index_name, container_id)` of `explorer_containers`: an index on a random key (a
 *   cb58 ID) that no read uses; a page stored again is still kept from duplicating by the primary
 *   key (index_name, container_index).
 *
 * Measured at 100,000 containers on a PostgreSQL server (bench/run.ts explorer --postgres
 * --ingest-only, back to back with migration 8 alone): 0.223 ms of the server's CPU per
 * container instead of 0.276, 2,188 containers/s instead of 1,856 (load average about 6 on 2 cores).
 *
 * Statements are separated by `;` at the end of a line (sql/migrations.ts).
 */
export const INGESTER_CONSTRAINTS_MIGRATION = `-- Per-row checks no read needs, dropped (schema-ingest-constraints.ts).
   ALTER TABLE outputs DROP CONSTRAINT outputs_transaction_id_fkey;
   ALTER TABLE output_addresses DROP CONSTRAINT output_addresses_output_id_fkey;
   ALTER TABLE transaction_inputs DROP CONSTRAINT transaction_inputs_transaction_id_fkey;
   ALTER TABLE input_credentials DROP CONSTRAINT input_credentials_transaction_id_fkey;
   ALTER TABLE address_transactions DROP CONSTRAINT address_transactions_transaction_id_fkey;
   ALTER TABLE explorer_containers DROP CONSTRAINT explorer_containers_index_name_container_id_key`;
