/**
 * Exchange- and platform-chain transactions (and the contract chain's atomic ones) as records:
 * their inputs (the spent outputs with the credentials that unlocked them), their outputs, and
 * per-asset totals of both, summed exactly by the database. Each record is the transaction's
 * document written at ingest (schema-reads.ts) with the created outputs' redeeming transactions
 * as they stand, so a page of records is a few indexed rows. A list is ordered by acceptance
 * time, then ingestion sequence (its keyset), either way.
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { TransactionRecord } from "../records";
import { afterCursor, pageOf } from "./cursor";
import type { Page, TransactionsParams } from "./parameters";
import { SqlParams, text } from "./sql";

/**
 * The records of the transactions `ids` names (a subquery answering `id` and `ord`, one row per
 * transaction) as one row: a JSON array, in `ord` order, of the documents (or of the records built
 * live where there is none or it is incomplete), and per transaction the created outputs'
 * redeeming transactions in output order (`,` between outputs, `;` between transactions). One
 * row of two texts instead of a row per transaction: PGlite's cost is per row and per value.
 */
function documentsOf(ids: string): string {
  return `SELECT '[' || string_agg(CASE WHEN d.complete THEN d.doc ELSE explorer_transaction_json(p.id)::text END, ',' ORDER BY p.ord) || ']' AS docs,
      string_agg(coalesce((SELECT string_agg(coalesce(o.redeeming_transaction_id, ''), ',' ORDER BY o.output_index) FROM outputs o WHERE o.transaction_id = p.id), ''), ';' ORDER BY p.ord) AS redeemed
    FROM (${ids}) p LEFT JOIN transaction_documents d ON d.id = p.id`;
}

/** The documents' row as records: the created outputs' redeeming transactions set as they stand. */
function recordsOf(row: SqlRow | undefined): TransactionRecord[] {
  if (row === undefined || row.docs === null) return [];
  const records = JSON.parse(text(row, "docs")) as TransactionRecord[];
  const redeemed = text(row, "redeemed").split(";");
  records.forEach((record, i) => {
    const ofRecord = (redeemed[i] ?? "").split(",");
    record.outputs.forEach((output, k) => {
      output.redeemingTransactionID = ofRecord[k] ?? "";
    });
  });
  return records;
}

/** The records of these transactions (unknown IDs left out), in the given order. */
export async function transactionRecordsByIds(db: SqlQueries, ids: readonly string[]): Promise<TransactionRecord[]> {
  if (ids.length === 0) return [];
  const params = new SqlParams();
  const [row] = await db.query(
    documentsOf(`SELECT t.id, given.ord FROM unnest(${params.bindList(ids)}) WITH ORDINALITY AS given(id, ord) JOIN transactions t ON t.id = given.id`),
    params.values,
  );
  return recordsOf(row);
}

export async function readTransaction(db: SqlQueries, id: string): Promise<TransactionRecord | undefined> {
  const [record] = await transactionRecordsByIds(db, [id]);
  return record;
}

/**
 * A page of transactions. With one address the page is read from that address's history
 * (`address_transactions`, indexed by address and order) instead of walking every transaction
 * for those that touched it; with one chain the chain is an equality, so the chain's index gives
 * the order.
 */
export async function listTransactions(db: SqlQueries, p: TransactionsParams): Promise<Page<TransactionRecord>> {
  const params = new SqlParams();
  const oneAddress = p.addresses.length === 1;
  // The order columns: the address history carries the transaction's time and sequence.
  const [time, sequence] = oneAddress ? ["at.accepted_at", "at.sequence"] : ["t.accepted_at", "t.sequence"];
  const where = [`${time} >= ${params.bind(p.startTime)}`, `${time} <= ${params.bind(p.endTime)}`];
  if (p.chainIds.length === 1) where.push(`t.chain_id = ${params.bind(p.chainIds[0]!)}`);
  else if (p.chainIds.length > 1) where.push(`t.chain_id = ANY(${params.bindList(p.chainIds)})`);
  if (oneAddress) where.push(`at.address = ${params.bind(p.addresses[0]!)}`);
  else if (p.addresses.length > 0) {
    where.push(`EXISTS (SELECT 1 FROM address_transactions at WHERE at.transaction_id = t.id AND at.address = ANY(${params.bindList(p.addresses)}))`);
  }
  if (p.assetId !== undefined) {
    const asset = params.bind(p.assetId);
    where.push(`(EXISTS (SELECT 1 FROM outputs o WHERE o.transaction_id = t.id AND o.asset_id = ${asset})
      OR EXISTS (SELECT 1 FROM transaction_inputs ti JOIN outputs o ON o.id = ti.output_id WHERE ti.transaction_id = t.id AND o.asset_id = ${asset}))`);
  }
  if (p.query !== undefined) where.push(`starts_with(t.id, ${params.bind(p.query)})`);
  // The direction is one of two fixed words, never the caller's text.
  const descending = p.sort === "timestamp-desc";
  if (p.cursor !== undefined) where.push(afterCursor((v) => params.bind(v), p.cursor, [[time, "bigint"], [sequence, "bigint"]], descending));
  const direction = descending ? "DESC" : "ASC";
  const from = oneAddress ? "address_transactions at JOIN transactions t ON t.id = at.transaction_id" : "transactions t";
  const rows = await db.query(
    `SELECT t.id, ${time}::text AS accepted_at, ${sequence}::text AS sequence FROM ${from} WHERE ${where.join(" AND ")}
     ORDER BY ${time} ${direction}, ${sequence} ${direction} LIMIT ${params.bind(p.limit + 1)}`,
    params.values,
  );
  return pageOf(rows, p.limit, (r) => [Number(r.accepted_at), Number(r.sequence)], (shown) => transactionRecordsByIds(db, shown.map((r) => text(r, "id"))));
}
