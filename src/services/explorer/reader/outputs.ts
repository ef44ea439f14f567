/**
 * Outputs (UTXOs) with their owners and the transaction that redeemed them. Their records are
 * built by the database and read as one JSON text per request. A list is ordered by acceptance time,
 * then ID (its keyset).
 */
import type { SqlQueries } from "../../sql/database";
import type { OutputRecord } from "../records";
import { afterCursor, pageOf } from "./cursor";
import type { OutputsParams, Page } from "./parameters";
import { SqlParams, text } from "./sql";

/**
 * An output's record (records.ts `OutputRecord`, its keys in order) as JSON, from the `outputs`
 * columns of `o`: what explorer_output_json (schema-reads.ts) answers, written out here because
 * the planner runs an expression inline where it calls a function per row.
 */
const OUTPUT_JSON = `json_build_object('id', o.id, 'transactionID', o.transaction_id, 'outputIndex', o.output_index, 'assetID', o.asset_id,
  'outputType', o.output_type, 'amount', o.amount::text, 'locktime', o.locktime, 'threshold', o.threshold,
  'addresses', coalesce((SELECT json_agg(oa.address ORDER BY oa.position) FROM output_addresses oa WHERE oa.output_id = o.id), '[]'),
  'timestamp', explorer_iso_time(o.accepted_at), 'redeemingTransactionID', coalesce(o.redeeming_transaction_id, ''),
  'chainID', o.chain_id, 'groupID', o.group_id, 'payload', o.payload, 'stake', o.stake)`;

/** The records, as one JSON array built by the database, of the outputs `from` answers as `o`, in `order`. */
async function outputRecordsOf(db: SqlQueries, from: string, order: string, params: SqlParams): Promise<OutputRecord[]> {
  const [answer] = await db.query(`SELECT json_agg(${OUTPUT_JSON} ORDER BY ${order})::text AS records FROM ${from}`, params.values);
  return answer === undefined || answer.records === null ? [] : (JSON.parse(text(answer, "records")) as OutputRecord[]);
}

/** The records of the outputs with these IDs (unknown IDs left out), in the given order. */
export async function outputRecordsByIds(db: SqlQueries, ids: readonly string[]): Promise<OutputRecord[]> {
  if (ids.length === 0) return [];
  const params = new SqlParams();
  return outputRecordsOf(db, `unnest(${params.bindList(ids)}) WITH ORDINALITY AS given(id, ord) JOIN outputs o ON o.id = given.id`, "given.ord", params);
}

export async function readOutput(db: SqlQueries, id: string): Promise<OutputRecord | undefined> {
  const [record] = await outputRecordsByIds(db, [id]);
  return record;
}

/** A page of outputs in one statement: the records of the page's rows (and one more, which only says whether another page follows). */
export async function listOutputs(db: SqlQueries, p: OutputsParams): Promise<Page<OutputRecord>> {
  const params = new SqlParams();
  const where = [`o.accepted_at >= ${params.bind(p.startTime)}`, `o.accepted_at <= ${params.bind(p.endTime)}`];
  if (p.chainIds.length > 0) where.push(`o.chain_id = ANY(${params.bindList(p.chainIds)})`);
  if (p.addresses.length > 0) where.push(`EXISTS (SELECT 1 FROM output_addresses oa WHERE oa.output_id = o.id AND oa.address = ANY(${params.bindList(p.addresses)}))`);
  if (p.spent !== undefined) where.push(p.spent ? "o.redeeming_transaction_id IS NOT NULL" : "o.redeeming_transaction_id IS NULL");
  if (p.query !== undefined) where.push(`starts_with(o.id, ${params.bind(p.query)})`);
  if (p.cursor !== undefined) where.push(afterCursor((v) => params.bind(v), p.cursor, [["o.accepted_at", "bigint"], ["o.id", "text"]]));
  const records = await outputRecordsOf(
    db,
    `(SELECT * FROM outputs o WHERE ${where.join(" AND ")} ORDER BY o.accepted_at, o.id LIMIT ${params.bind(p.limit + 1)}) o`,
    "o.accepted_at, o.id",
    params,
  );
  return pageOf(records, p.limit, (r) => [Date.parse(r.timestamp), r.id], async (shown) => shown);
}
