/**
 * The vault's storage: every read and write of pending multisig transactions as SQL on the
 * {@link SqlDatabase} interface. Rules that concern several rows at once are decided by the
 * database, not by reading then writing from here: a signature is one UPDATE of its owner's
 * row (two owners signing together both count), "one pending per alias and chain" is checked
 * under a transaction-scoped lock on that pair, and an issue is claimed by one conditional
 * UPDATE (two wallets issuing together: one goes to the node). A transaction is one row for
 * the whole vault (its ID is sha256 of its bytes): while one alias has it pending, no other
 * alias can store it, nor replace it.
 */
import type { SqlDatabase, SqlQueries, SqlRow } from "../sql/database";

/** A multisig transaction as the vault keeps it (hex without 0x; times in Unix seconds). */
export interface StoredMultisigTx {
  id: string;
  unsignedTx: string;
  alias: string;
  chainId: string;
  threshold: number;
  outputOwners: string;
  metadata: string;
  parentTransaction: string;
  creator: string;
  expiresAt: number;
  createdAt: number;
  /** Undefined while pending. */
  transactionId: string | undefined;
  cancelledAt: number | undefined;
  /**
   * Set while a signed transaction is at the node, before its acceptance is recorded: the
   * expected ID, the bytes sent, the claim (a random token of the request that sent them, `""`
   * when none was recorded) and when it was claimed (undefined when not recorded).
   */
  issuing: IssueClaim | undefined;
  /** In the alias's owner order; `signature` undefined until that owner signed. */
  owners: { address: string; signature: string | undefined }[];
}

export type NewMultisigTx = Omit<StoredMultisigTx, "transactionId" | "cancelledAt" | "issuing" | "owners"> & {
  owners: string[];
  creatorSignature: string;
};

export interface IssueClaim {
  txId: string;
  signedTx: string;
  claim: string;
  at: number | undefined;
}

/** Why a create was refused by the storage. */
export type CreateRefusal =
  | { refused: "pending-exists"; id: string }
  | { refused: "already-issued"; transactionId: string }
  /** The same transaction is pending (or being issued) for another alias. */
  | { refused: "pending-elsewhere"; id: string };

const COLUMNS = `id, unsigned_tx, alias, chain_id, threshold::text AS threshold, output_owners, metadata, parent_transaction, creator,
  expires_at::text AS expires_at, created_at::text AS created_at, transaction_id, cancelled_at::text AS cancelled_at, issuing_tx_id, issuing_signed_tx,
  issuing_claim, issuing_at::text AS issuing_at`;
/** Pending: neither issued nor cancelled nor expired (at $N, the time given). */
const PENDING = (now: string) => `transaction_id IS NULL AND cancelled_at IS NULL AND expires_at > ${now}`;

export class VaultStore {
  constructor(private readonly db: SqlDatabase) {}

  /**
   * Stores a new pending transaction with the creator's signature, unless the alias already has
   * a pending one on that chain, this very transaction was issued already, or it is pending or
   * being issued for another alias. A cancelled or expired earlier copy of the same transaction
   * (same ID), not being issued, is replaced.
   */
  async create(tx: NewMultisigTx, now: number): Promise<StoredMultisigTx | CreateRefusal> {
    return this.db.transaction(async (q) => {
      // Serialises creates for one (alias, chain) pair, across connections and processes.
      await q.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`${tx.alias}|${tx.chainId}`]);
      const pending = await q.query(`SELECT id FROM multisig_tx WHERE alias = $1 AND chain_id = $2 AND ${PENDING("$3")}`, [tx.alias, tx.chainId, now]);
      if (pending.length > 0) return { refused: "pending-exists", id: text(pending[0]!.id) };
      // And creates of this very transaction (its ID) under any alias: one of two gets it, the other is refused.
      await q.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`tx|${tx.id}`]);
      const same = await q.query(`SELECT transaction_id, issuing_tx_id, (${PENDING("$2")})::text AS pending FROM multisig_tx WHERE id = $1`, [tx.id, now]);
      if (same.length > 0) {
        const row = same[0]!;
        if (row.transaction_id !== null) return { refused: "already-issued", transactionId: text(row.transaction_id) };
        if (row.issuing_tx_id !== null || row.pending === "true") return { refused: "pending-elsewhere", id: tx.id };
        await q.query("DELETE FROM multisig_tx WHERE id = $1", [tx.id]);
      }
      await q.query(
        `INSERT INTO multisig_tx (id, unsigned_tx, alias, chain_id, threshold, output_owners, metadata, parent_transaction, creator, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [tx.id, tx.unsignedTx, tx.alias, tx.chainId, tx.threshold, tx.outputOwners, tx.metadata, tx.parentTransaction, tx.creator, tx.expiresAt, tx.createdAt],
      );
      for (const [position, address] of tx.owners.entries()) {
        const signed = address === tx.creator;
        await q.query("INSERT INTO multisig_tx_owners (multisig_tx_id, position, address, signature, signed_at) VALUES ($1, $2, $3, $4, $5)", [
          tx.id,
          position,
          address,
          signed ? tx.creatorSignature : null,
          signed ? now : null,
        ]);
      }
      return (await read(q, "id = $1", [tx.id]))[0]!;
    });
  }

  /** The transaction with this ID, in whatever state (undefined when never stored). */
  async get(id: string): Promise<StoredMultisigTx | undefined> {
    return (await read(this.db, "id = $1", [id]))[0];
  }

  /** The alias's pending transactions, oldest first. */
  async listPending(alias: string, now: number): Promise<StoredMultisigTx[]> {
    return read(this.db, `alias = $1 AND ${PENDING("$2")}`, [alias, now]);
  }

  /** The transaction with this ID if it is pending (neither issued, cancelled nor expired at `now`). */
  async getPending(id: string, now: number): Promise<StoredMultisigTx | undefined> {
    return (await read(this.db, `id = $1 AND ${PENDING("$2")}`, [id, now]))[0];
  }

  /**
   * Records `address`'s signature in one statement, only if that owner has not signed and the
   * transaction is still pending. Answers whether it was recorded.
   */
  async addSignature(id: string, address: string, signature: string, now: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE multisig_tx_owners SET signature = $3, signed_at = $4
       WHERE multisig_tx_id = $1 AND address = $2 AND signature IS NULL
         AND EXISTS (SELECT 1 FROM multisig_tx WHERE id = $1 AND ${PENDING("$4")})
       RETURNING address`,
      [id, address, signature, now],
    );
    return rows.length > 0;
  }

  /**
   * Claims the transaction for issuing `signedTx` (expected ID `txId`) under `claim`, a token of
   * the claiming request; false when it is no longer pending or already claimed. One statement:
   * of two requests (or processes) claiming together, one gets it.
   */
  async beginIssue(id: string, txId: string, signedTx: string, claim: string, now: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE multisig_tx SET issuing_tx_id = $2, issuing_signed_tx = $3, issuing_claim = $4, issuing_at = $5
       WHERE id = $1 AND issuing_tx_id IS NULL AND ${PENDING("$5")} RETURNING id`,
      [id, txId, signedTx, claim, now],
    );
    return rows.length > 0;
  }

  /** The node accepted it: the transaction is issued under `txId`. False when it was recorded issued already. */
  async recordIssued(id: string, txId: string): Promise<boolean> {
    const rows = await this.db.query(
      "UPDATE multisig_tx SET transaction_id = $2, issuing_tx_id = NULL, issuing_signed_tx = NULL, issuing_claim = NULL, issuing_at = NULL WHERE id = $1 AND transaction_id IS NULL RETURNING id",
      [id, txId],
    );
    return rows.length > 0;
  }

  /**
   * The node refused it (or never got it): pending again, if the claim is still `claim` (as
   * {@link IssueClaim.claim}): a claim made since by another request is left alone.
   */
  async abandonIssue(id: string, claim: string): Promise<void> {
    await this.db.query(
      "UPDATE multisig_tx SET issuing_tx_id = NULL, issuing_signed_tx = NULL, issuing_claim = NULL, issuing_at = NULL WHERE id = $1 AND transaction_id IS NULL AND COALESCE(issuing_claim, '') = $2",
      [id, claim],
    );
  }

  /** Transactions left being issued (a crash between the node's answer and the vault's write). */
  async listIssuing(): Promise<StoredMultisigTx[]> {
    return read(this.db, "issuing_tx_id IS NOT NULL AND transaction_id IS NULL", []);
  }

  /** Cancels a pending transaction not being issued; false when it is not (or no longer) pending. */
  async cancel(id: string, now: number): Promise<boolean> {
    const rows = await this.db.query(`UPDATE multisig_tx SET cancelled_at = $2 WHERE id = $1 AND issuing_tx_id IS NULL AND ${PENDING("$2")} RETURNING id`, [id, now]);
    return rows.length > 0;
  }
}

async function read(q: SqlQueries, where: string, params: (string | number)[]): Promise<StoredMultisigTx[]> {
  const rows = await q.query(`SELECT ${COLUMNS} FROM multisig_tx WHERE ${where} ORDER BY created_at, id`, params);
  if (rows.length === 0) return [];
  const owners = await q.query(
    "SELECT multisig_tx_id, address, signature FROM multisig_tx_owners WHERE multisig_tx_id = ANY($1::text[]) ORDER BY multisig_tx_id, position",
    [`{${rows.map((r) => text(r.id)).join(",")}}`],
  );
  return rows.map((row) => toStored(row, owners.filter((o) => o.multisig_tx_id === row.id)));
}

function toStored(row: SqlRow, owners: SqlRow[]): StoredMultisigTx {
  return {
    id: text(row.id),
    unsignedTx: text(row.unsigned_tx),
    alias: text(row.alias),
    chainId: text(row.chain_id),
    threshold: Number(row.threshold),
    outputOwners: text(row.output_owners),
    metadata: text(row.metadata),
    parentTransaction: text(row.parent_transaction),
    creator: text(row.creator),
    expiresAt: Number(row.expires_at),
    createdAt: Number(row.created_at),
    transactionId: row.transaction_id === null ? undefined : text(row.transaction_id),
    cancelledAt: row.cancelled_at === null ? undefined : Number(row.cancelled_at),
    issuing:
      row.issuing_tx_id === null
        ? undefined
        : { txId: text(row.issuing_tx_id), signedTx: text(row.issuing_signed_tx), claim: text(row.issuing_claim), at: row.issuing_at === null ? undefined : Number(row.issuing_at) },
    owners: owners.map((o) => ({ address: text(o.address), signature: o.signature === null ? undefined : text(o.signature) })),
  };
}

function text(value: string | number | null | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}
