/**
 * The explorer's tables, the same on PGlite and on a PostgreSQL server. They follow the
 * reference explorers' split (transactions, outputs with their redeeming transaction, output
 * addresses, addresses, address-chain links, assets, platform blocks, contract-chain blocks and
 * transactions) with the reference's names where they are clear.
 *
 * Conventions, so both drivers read values back alike:
 * - IDs are cb58 text (chain, transaction, asset, output, block IDs); contract-chain hashes and
 *   addresses are 0x-prefixed lowercase hex; exchange/platform addresses are bech32 *without*
 *   the chain prefix (`local1…`), as the reference's output records show them.
 * - Amounts are `numeric(78,0)` (any uint256) and are read back with `::text`.
 * - Times are Unix milliseconds (`bigint`), from the index container's acceptance time.
 * - Raw bytes are lowercase hex text without 0x.
 *
 * Migrations are append-only: a change is a new entry at the end, never an edit of an old one.
 */
import type { SqlDatabase } from "../sql/database";
import { migrate } from "../sql/migrations";
import { INGESTER_CONSTRAINTS_MIGRATION } from "./schema-ingest-constraints";
import { INGESTER_DOCUMENTS_MIGRATION } from "./schema-ingest-documents";
import { INGESTER_SPENDS_MIGRATION } from "./schema-ingest-spends";
import { INGESTER_TOTALS_MIGRATION } from "./schema-ingest-totals";
import { INGESTER_WRITES_MIGRATION } from "./schema-ingest-writes";
import { OUTPUTS_SOLE_OWNER_MIGRATION } from "./schema-outputs-owner";
import { READS_MIGRATION } from "./schema-reads";
import { READS_AT_SCALE_MIGRATION } from "./schema-reads-scale";
import { TOTALS_MIGRATION } from "./schema-totals";
import { TOTALS_SET_BASED_MIGRATION } from "./schema-totals-sets";

/** Every migration, in order (exported so a test can stop at an older version). */
export const EXPLORER_MIGRATIONS: readonly string[] = [
  `-- Raw containers as the node's index API gave them, and how far each index was read.
   CREATE TABLE explorer_containers (
     index_name text NOT NULL,            -- 'X-tx', 'P-block', 'C-block' (the node's index routes)
     container_index bigint NOT NULL,     -- the node's index, from 0, no gaps
     container_id text NOT NULL,
     bytes text NOT NULL,
     accepted_at bigint NOT NULL,
     PRIMARY KEY (index_name, container_index),
     UNIQUE (index_name, container_id)
   );
   CREATE TABLE explorer_progress (
     index_name text PRIMARY KEY,
     next_index bigint NOT NULL,          -- the first container not stored yet
     updated_at bigint NOT NULL
   );
   -- The chains of the network, read from the node at start (info.getBlockchainID, ...).
   CREATE TABLE chains (
     id text PRIMARY KEY,
     alias text NOT NULL,                 -- 'X', 'P', 'C'
     vm text NOT NULL,                    -- 'avm', 'pvm', 'evm'
     network_id integer NOT NULL
   );
   -- Exchange- and platform-chain transactions, and the contract chain's atomic transactions.
   CREATE TABLE transactions (
     id text PRIMARY KEY,
     chain_id text NOT NULL,
     type text NOT NULL,                  -- the reference's names: base, create_asset, operation, import, export, pvm_import, pvm_export, ...
     memo text NOT NULL DEFAULT '',       -- hex
     tx_fee numeric(78,0) NOT NULL DEFAULT 0, -- in the native asset
     genesis boolean NOT NULL DEFAULT false,
     accepted_at bigint NOT NULL,
     block_id text,                       -- the platform block or contract-chain block hash holding it, if any
     source_chain_id text,                -- imports: where the inputs came from
     destination_chain_id text,           -- exports: where the exported outputs went
     bytes text NOT NULL,                 -- the signed transaction
     sequence bigserial NOT NULL          -- order of ingestion: ties on accepted_at keep node order
   );
   CREATE INDEX transactions_chain_time ON transactions (chain_id, accepted_at, sequence);
   CREATE INDEX transactions_time ON transactions (accepted_at, sequence);
   -- Every output a transaction created (also exported ones, with the destination chain).
   CREATE TABLE outputs (
     id text PRIMARY KEY,                 -- the UTXO ID, cb58 of utxoId(txID, outputIndex) (utxo/codec/sign.ts)
     transaction_id text NOT NULL REFERENCES transactions (id),
     output_index integer NOT NULL,
     chain_id text NOT NULL,              -- the chain whose UTXO set holds it (the destination for exports)
     created_on_chain_id text NOT NULL,   -- the chain of the creating transaction
     asset_id text NOT NULL,
     output_type bigint NOT NULL,         -- 6 secp mint, 7 secp transfer, 10 nft mint, 11 nft transfer, ...
     amount numeric(78,0) NOT NULL DEFAULT 0,
     locktime bigint NOT NULL DEFAULT 0,
     threshold integer NOT NULL DEFAULT 0,
     group_id integer NOT NULL DEFAULT 0,
     payload text,                        -- nft payload (hex)
     stake boolean NOT NULL DEFAULT false,-- platform stake outputs
     accepted_at bigint NOT NULL,
     redeeming_transaction_id text,       -- NULL while unspent
     redeemed_at bigint
   );
   CREATE INDEX outputs_transaction ON outputs (transaction_id, output_index);
   CREATE INDEX outputs_redeeming ON outputs (redeeming_transaction_id);
   CREATE INDEX outputs_asset ON outputs (asset_id);
   CREATE TABLE output_addresses (
     output_id text NOT NULL REFERENCES outputs (id),
     address text NOT NULL,               -- bech32 without the chain prefix
     position integer NOT NULL,
     PRIMARY KEY (output_id, address)
   );
   CREATE INDEX output_addresses_address ON output_addresses (address);
   -- A transaction's inputs in order (the output may be on another chain, or not indexed yet).
   CREATE TABLE transaction_inputs (
     transaction_id text NOT NULL REFERENCES transactions (id),
     position integer NOT NULL,
     output_id text NOT NULL,
     PRIMARY KEY (transaction_id, position)
   );
   CREATE INDEX transaction_inputs_output ON transaction_inputs (output_id);
   CREATE TABLE input_credentials (
     transaction_id text NOT NULL REFERENCES transactions (id),
     input_position integer NOT NULL,
     position integer NOT NULL,
     address text NOT NULL,               -- recovered signer, bech32 without the chain prefix
     public_key text NOT NULL,            -- compressed, hex
     signature text NOT NULL,             -- 65 bytes, hex
     PRIMARY KEY (transaction_id, input_position, position)
   );
   CREATE TABLE addresses (
     address text PRIMARY KEY,            -- bech32 without the chain prefix
     public_key text                      -- known once it signed something
   );
   CREATE TABLE address_chain (
     address text NOT NULL,
     chain_id text NOT NULL,
     first_seen_at bigint NOT NULL,
     PRIMARY KEY (address, chain_id)
   );
   -- Which transactions touched an address (as output owner or as signer of an input).
   CREATE TABLE address_transactions (
     address text NOT NULL,
     transaction_id text NOT NULL REFERENCES transactions (id),
     chain_id text NOT NULL,
     accepted_at bigint NOT NULL,
     PRIMARY KEY (address, transaction_id)
   );
   CREATE INDEX address_transactions_time ON address_transactions (address, accepted_at);
   CREATE TABLE assets (
     id text PRIMARY KEY,
     chain_id text NOT NULL,
     name text NOT NULL,
     symbol text NOT NULL,
     alias text NOT NULL DEFAULT '',
     denomination integer NOT NULL,
     variable_cap integer NOT NULL,       -- 1 when it has mint outputs (supply can grow)
     nft integer NOT NULL,                -- 1 when it has nft outputs
     accepted_at bigint NOT NULL,
     transaction_id text NOT NULL         -- the creating transaction (the genesis for the native asset)
   );
   CREATE TABLE p_blocks (
     id text PRIMARY KEY,
     height bigint NOT NULL UNIQUE,
     parent_id text NOT NULL,
     type text NOT NULL,                  -- 'standard', 'proposal', 'commit', 'abort', ...
     accepted_at bigint NOT NULL,
     bytes text NOT NULL
   );
   CREATE TABLE c_blocks (
     number bigint PRIMARY KEY,
     hash text NOT NULL UNIQUE,
     parent_hash text NOT NULL,
     sha3_uncles text NOT NULL,
     miner text NOT NULL,
     state_root text NOT NULL,
     transactions_root text NOT NULL,
     receipts_root text NOT NULL,
     logs_bloom text NOT NULL,
     difficulty numeric(78,0) NOT NULL,
     gas_limit numeric(78,0) NOT NULL,
     gas_used numeric(78,0) NOT NULL,
     timestamp bigint NOT NULL,           -- the header's time, Unix seconds
     extra_data text NOT NULL,
     mix_hash text NOT NULL,
     nonce text NOT NULL,
     ext_data_hash text NOT NULL,
     base_fee_per_gas numeric(78,0),
     ext_data_gas_used numeric(78,0),
     block_gas_cost numeric(78,0),
     transaction_count integer NOT NULL,
     accepted_at bigint NOT NULL
   );
   CREATE TABLE c_transactions (
     hash text PRIMARY KEY,
     block_number bigint NOT NULL REFERENCES c_blocks (number),
     transaction_index integer NOT NULL,
     type integer NOT NULL,
     nonce numeric(78,0) NOT NULL,
     gas_price numeric(78,0),
     max_fee_per_gas numeric(78,0),
     max_priority_fee_per_gas numeric(78,0),
     gas_limit numeric(78,0) NOT NULL,
     value numeric(78,0) NOT NULL,
     input text NOT NULL,                 -- 0x hex
     from_addr text NOT NULL,
     to_addr text,                        -- NULL for contract creation
     v text NOT NULL,
     r text NOT NULL,
     s text NOT NULL,
     created_at bigint NOT NULL,          -- the block's acceptance, Unix ms
     -- the receipt (eth_getTransactionReceipt)
     status integer NOT NULL,
     gas_used numeric(78,0) NOT NULL,
     cumulative_gas_used numeric(78,0) NOT NULL,
     effective_gas_price numeric(78,0) NOT NULL,
     contract_address text,
     logs_bloom text NOT NULL,
     UNIQUE (block_number, transaction_index)
   );
   CREATE INDEX c_transactions_from ON c_transactions (from_addr, block_number);
   CREATE INDEX c_transactions_to ON c_transactions (to_addr, block_number);
   CREATE TABLE c_logs (
     transaction_hash text NOT NULL REFERENCES c_transactions (hash),
     log_index integer NOT NULL,
     block_number bigint NOT NULL,
     address text NOT NULL,
     topics text NOT NULL,                -- JSON array of 0x hex strings
     data text NOT NULL,                  -- 0x hex
     PRIMARY KEY (block_number, log_index)
   );
   CREATE INDEX c_logs_transaction ON c_logs (transaction_hash);`,
  TOTALS_MIGRATION,
  TOTALS_SET_BASED_MIGRATION,
  READS_MIGRATION,
  READS_AT_SCALE_MIGRATION,
  INGESTER_WRITES_MIGRATION,
  INGESTER_TOTALS_MIGRATION,
  INGESTER_SPENDS_MIGRATION,
  INGESTER_CONSTRAINTS_MIGRATION,
  INGESTER_DOCUMENTS_MIGRATION,
  OUTPUTS_SOLE_OWNER_MIGRATION,
];

/** The tables whose size follows the chain's (all but the chains, the progress, the assets and their totals). */
export const CHAIN_SIZED_TABLES: readonly string[] = [
  "explorer_containers",
  "transactions",
  "outputs",
  "output_addresses",
  "transaction_inputs",
  "input_credentials",
  "addresses",
  "address_chain",
  "address_transactions",
  "address_asset_totals",
  "address_asset_transactions",
  "transaction_documents",
  "explorer_minute_outputs",
  "explorer_minute_transactions",
  "explorer_minute_owners",
  "p_blocks",
  "c_blocks",
  "c_transactions",
  "c_logs",
];

/** Applies the explorer's migrations not applied yet. */
export function migrateExplorer(db: SqlDatabase): Promise<void> {
  return migrate(db, { name: "explorer", lockKey: 7303, migrations: EXPLORER_MIGRATIONS });
}
