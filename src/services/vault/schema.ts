/**
 * The vault's tables, as numbered migrations applied once each (recorded in
 * `vault_migrations`), the same on PGlite and on a PostgreSQL server. The shape follows the
 * reference's (`multisig_tx`, `multisig_tx_owners`); bytes are kept as lowercase hex text and
 * times as Unix seconds, so both drivers read them back alike.
 */
import type { SqlDatabase } from "../sql/database";
import { migrate } from "../sql/migrations";

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE multisig_tx (
     id text PRIMARY KEY,                 -- sha256(unsigned tx) in hex, as the reference
     unsigned_tx text NOT NULL,
     alias text NOT NULL,
     chain_id text NOT NULL,              -- the blockchain ID inside the unsigned tx (cb58)
     threshold integer NOT NULL,          -- from the node at creation
     output_owners text NOT NULL,
     metadata text NOT NULL,
     parent_transaction text NOT NULL,
     creator text NOT NULL,
     expires_at bigint NOT NULL,
     created_at bigint NOT NULL,
     transaction_id text,                 -- NULL while pending, the node's tx ID once issued
     cancelled_at bigint,
     issuing_tx_id text,                  -- set while a signed tx is at the node: repaired at start
     issuing_signed_tx text
   );
   CREATE INDEX multisig_tx_alias_chain ON multisig_tx (alias, chain_id);
   CREATE TABLE multisig_tx_owners (
     multisig_tx_id text NOT NULL REFERENCES multisig_tx (id) ON DELETE CASCADE,
     position integer NOT NULL,           -- the owner's place in the alias
     address text NOT NULL,
     signature text,                      -- NULL until this owner signed
     signed_at bigint,
     PRIMARY KEY (multisig_tx_id, address)
   );`,
  // Who claimed an issue and when: a claim another request or process holds now is left alone;
  // only one its own process left unfinished, or an old one (a crash), is settled with the node.
  `ALTER TABLE multisig_tx ADD COLUMN issuing_claim text;
   ALTER TABLE multisig_tx ADD COLUMN issuing_at bigint;`,
];

/** Applies the vault's migrations not applied yet. */
export function migrateVault(db: SqlDatabase): Promise<void> {
  return migrate(db, { name: "vault", lockKey: 7302, migrations: MIGRATIONS });
}
