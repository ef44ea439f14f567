/**
 * Outputs (UTXOs) with their owners and the transaction that redeemed them, alone or as the
 * outputs of transactions. A list is ordered by acceptance time, then ID (its keyset).
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { OutputRecord } from "../records";
import { afterCursor, pageOf } from "./cursor";
import type { OutputsParams, Page } from "./parameters";
import { SqlParams, groupBy, int, isoTime, nullableText, text } from "./sql";

export const OUTPUT_COLUMNS = `o.id, o.transaction_id, o.output_index, o.chain_id, o.asset_id, o.output_type::text AS output_type,
  o.amount::text AS amount, o.locktime::text AS locktime, o.threshold, o.group_id, o.payload, o.stake::text AS stake,
  o.accepted_at::text AS accepted_at, o.redeeming_transaction_id`;

/** The records of these output rows, with their addresses in order (one query for all). */
export async function outputRecords(db: SqlQueries, rows: readonly SqlRow[]): Promise<OutputRecord[]> {
  if (rows.length === 0) return [];
  const params = new SqlParams();
  const owners = await db.query(
    `SELECT output_id, address FROM output_addresses WHERE output_id = ANY(${params.bindList([...new Set(rows.map((r) => text(r, "id")))])}) ORDER BY output_id, position`,
    params.values,
  );
  const addressesOf = groupBy(owners, "output_id");
  return rows.map((row) => ({
    id: text(row, "id"),
    transactionID: text(row, "transaction_id"),
    outputIndex: int(row, "output_index"),
    assetID: text(row, "asset_id"),
    outputType: int(row, "output_type"),
    amount: text(row, "amount"),
    locktime: int(row, "locktime"),
    threshold: int(row, "threshold"),
    addresses: (addressesOf.get(text(row, "id")) ?? []).map((a) => text(a, "address")),
    timestamp: isoTime(row.accepted_at),
    redeemingTransactionID: text(row, "redeeming_transaction_id"),
    chainID: text(row, "chain_id"),
    groupID: int(row, "group_id"),
    payload: nullableText(row, "payload"),
    stake: row.stake === "true",
  }));
}

/** Output rows by ID (any order). */
export async function outputRowsByIds(db: SqlQueries, ids: readonly string[]): Promise<SqlRow[]> {
  if (ids.length === 0) return [];
  const params = new SqlParams();
  return db.query(`SELECT ${OUTPUT_COLUMNS} FROM outputs o WHERE o.id = ANY(${params.bindList(ids)})`, params.values);
}

/**
 * In one statement: the outputs with these IDs (the inputs' spent outputs) and the outputs these
 * transactions created, in output order.
 */
export async function spentAndCreatedOutputs(db: SqlQueries, outputIds: readonly string[], transactionIds: readonly string[]): Promise<{ byId: Map<string, OutputRecord>; ofTransaction: Map<string, OutputRecord[]> }> {
  const params = new SqlParams();
  const rows =
    outputIds.length + transactionIds.length === 0
      ? []
      : await db.query(
          // Each half led by its own index; an output may be in both.
          `SELECT true AS spent, ${OUTPUT_COLUMNS} FROM outputs o WHERE o.id = ANY(${params.bindList(outputIds)})
           UNION ALL
           (SELECT false, ${OUTPUT_COLUMNS} FROM outputs o WHERE o.transaction_id = ANY(${params.bindList(transactionIds)}) ORDER BY o.transaction_id, o.output_index)`,
          params.values,
        );
  // One owners query for both halves.
  const records = await outputRecords(db, rows);
  const byId = new Map(records.filter((_, i) => String(rows[i]!.spent) === "true").map((r) => [r.id, r]));
  const ofTransaction = new Map<string, OutputRecord[]>();
  for (const record of records.filter((_, i) => String(rows[i]!.spent) !== "true")) {
    const list = ofTransaction.get(record.transactionID);
    if (list === undefined) ofTransaction.set(record.transactionID, [record]);
    else list.push(record);
  }
  return { byId, ofTransaction };
}

export async function readOutput(db: SqlQueries, id: string): Promise<OutputRecord | undefined> {
  const [record] = await outputRecords(db, await outputRowsByIds(db, [id]));
  return record;
}

export async function listOutputs(db: SqlQueries, p: OutputsParams): Promise<Page<OutputRecord>> {
  const params = new SqlParams();
  const where = [`o.accepted_at >= ${params.bind(p.startTime)}`, `o.accepted_at <= ${params.bind(p.endTime)}`];
  if (p.chainIds.length > 0) where.push(`o.chain_id = ANY(${params.bindList(p.chainIds)})`);
  if (p.addresses.length > 0) where.push(`EXISTS (SELECT 1 FROM output_addresses oa WHERE oa.output_id = o.id AND oa.address = ANY(${params.bindList(p.addresses)}))`);
  if (p.spent !== undefined) where.push(p.spent ? "o.redeeming_transaction_id IS NOT NULL" : "o.redeeming_transaction_id IS NULL");
  if (p.query !== undefined) where.push(`starts_with(o.id, ${params.bind(p.query)})`);
  if (p.cursor !== undefined) where.push(afterCursor((v) => params.bind(v), p.cursor, [["o.accepted_at", "bigint"], ["o.id", "text"]]));
  const rows = await db.query(
    `SELECT ${OUTPUT_COLUMNS} FROM outputs o WHERE ${where.join(" AND ")} ORDER BY o.accepted_at, o.id LIMIT ${params.bind(p.limit + 1)}`,
    params.values,
  );
  return pageOf(rows, p.limit, (r) => [Number(r.accepted_at), text(r, "id")], (shown) => outputRecords(db, shown));
}
