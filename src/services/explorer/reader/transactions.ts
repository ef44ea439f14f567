/**
 * Exchange- and platform-chain transactions (and the contract chain's atomic ones) as records:
 * their inputs (the spent outputs with the credentials that unlocked them), their outputs, and
 * per-asset totals of both, summed exactly by the database. Each record is the transaction's
 * document written at ingest (schema-reads.ts) with the created outputs' redeeming transactions
 * as they stand, so a page of records is a few indexed rows. A list is ordered by acceptance
 * time, then ingestion sequence (its keyset), either way.
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import { type JsonText, jsonArrayText } from "../json-text";
import type { TransactionRecord } from "../records";
import { afterCursor, encodeCursor } from "./cursor";
import type { Page, TransactionsParams } from "./parameters";
import { SqlParams, text } from "./sql";

/** Between two documents in the statement's answer: a control character JSON text never holds raw. */
const DOCUMENT_SEPARATOR = "\x1e";

/**
 * The records of the transactions `ids` names (a subquery answering `id` and `ord`, one row per
 * transaction) as one row: the documents (or the records built live where there is none or it is
 * incomplete) in `ord` order, separated by U+001E, and per transaction the created outputs'
 * redeeming transactions in output order (`,` between outputs, `;` between transactions). One
 * row of two texts instead of a row per transaction: PGlite's cost is per row and per value.
 */
function documentsOf(ids: string, moreColumns = ""): string {
  return `SELECT string_agg(CASE WHEN d.complete THEN d.doc ELSE explorer_transaction_json(p.id)::text END, E'\\x1e' ORDER BY p.ord) AS docs,
      string_agg(coalesce((SELECT string_agg(coalesce(o.redeeming_transaction_id, ''), ',' ORDER BY o.output_index) FROM outputs o WHERE o.transaction_id = p.id), ''), ';' ORDER BY p.ord) AS redeemed${moreColumns}
    FROM (${ids}) p LEFT JOIN transaction_documents d ON d.id = p.id`;
}

/**
 * A record's JSON text with its created outputs' `redeemingTransactionID` set as they stand, in
 * the text: every value the database writes in a record is an ID, a number, hex, base64 or a
 * time, never a quote, so the outputs' array and each of their redeeming IDs are found by their
 * keys. The inputs' spent outputs come before the created ones and keep theirs.
 */
function withRedeemers(doc: string, redeemers: readonly string[]): string {
  const outputs = /"outputs"\s*:\s*\[/g;
  if (outputs.exec(doc) === null) return doc;
  const redeeming = /("redeemingTransactionID"\s*:\s*)"[^"]*"/g;
  redeeming.lastIndex = outputs.lastIndex;
  const parts: string[] = [];
  let from = 0;
  for (const redeemer of redeemers) {
    const found = redeeming.exec(doc);
    if (found === null) break;
    parts.push(doc.slice(from, found.index), found[1]!, JSON.stringify(redeemer));
    from = redeeming.lastIndex;
  }
  parts.push(doc.slice(from));
  return parts.join("");
}

/**
 * The documents' row as the JSON array text of the records, the created outputs' redeeming
 * transactions as they stand. A transaction none of whose outputs is redeemed has its document as
 * written: an output's redeemer is set once and never cleared, so one written in a document is
 * still set, and a page of such transactions (the newest, as a rule) is its documents as they are.
 * The documents are slices of the row's text, sent in parts (JsonText): the answer is never one
 * string again.
 */
function recordsTextOf(row: SqlRow | undefined): JsonText {
  if (row === undefined || row.docs === null) return jsonArrayText([]);
  const docs = text(row, "docs").split(DOCUMENT_SEPARATOR);
  const redeemedText = text(row, "redeemed");
  if (!/[^,;]/.test(redeemedText)) return jsonArrayText(docs);
  const redeemed = redeemedText.split(";");
  return jsonArrayText(docs.map((doc, i) => (/[^,]/.test(redeemed[i] ?? "") ? withRedeemers(doc, redeemed[i]!.split(",")) : doc)));
}

async function recordsTextByIds(db: SqlQueries, ids: readonly string[]): Promise<JsonText> {
  if (ids.length === 0) return jsonArrayText([]);
  const params = new SqlParams();
  const [row] = await db.query(
    documentsOf(`SELECT t.id, given.ord FROM unnest(${params.bindList(ids)}) WITH ORDINALITY AS given(id, ord) JOIN transactions t ON t.id = given.id`),
    params.values,
  );
  return recordsTextOf(row);
}

/** The records of these transactions (unknown IDs left out), in the given order. */
export async function transactionRecordsByIds(db: SqlQueries, ids: readonly string[]): Promise<TransactionRecord[]> {
  return JSON.parse((await recordsTextByIds(db, ids)).text) as TransactionRecord[];
}

export async function readTransaction(db: SqlQueries, id: string): Promise<TransactionRecord | undefined> {
  const [record] = await transactionRecordsByIds(db, [id]);
  return record;
}

/**
 * A page of transactions. With one address the page is read from that address's history
 * (`address_transactions`, indexed by address and order, holding each transaction's ID and
 * order) instead of walking every transaction for those that touched it; with one chain the
 * chain is an equality, so the chain's index gives the order.
 */
export async function listTransactions(db: SqlQueries, p: TransactionsParams): Promise<Page<TransactionRecord>> {
  const page = await listTransactionsText(db, p);
  return { ...page, items: JSON.parse(page.items.text) as TransactionRecord[] };
}

/** A page of transactions as the JSON array text of their records (what the API answers, unparsed). */
export async function listTransactionsText(db: SqlQueries, p: TransactionsParams): Promise<{ items: JsonText; next?: string }> {
  const params = new SqlParams();
  const oneAddress = p.addresses.length === 1;
  // The columns read: an address's history row carries its transaction's ID, chain, time and sequence.
  const [id, chain, time, sequence] = oneAddress ? ["at.transaction_id", "at.chain_id", "at.accepted_at", "at.sequence"] : ["t.id", "t.chain_id", "t.accepted_at", "t.sequence"];
  const where = [`${time} >= ${params.bind(p.startTime)}`, `${time} <= ${params.bind(p.endTime)}`];
  if (p.chainIds.length === 1) where.push(`${chain} = ${params.bind(p.chainIds[0]!)}`);
  else if (p.chainIds.length > 1) where.push(`${chain} = ANY(${params.bindList(p.chainIds)})`);
  if (oneAddress) where.push(`at.address = ${params.bind(p.addresses[0]!)}`);
  else if (p.addresses.length > 0) {
    where.push(`EXISTS (SELECT 1 FROM address_transactions at WHERE at.transaction_id = ${id} AND at.address = ANY(${params.bindList(p.addresses)}))`);
  }
  if (p.assetId !== undefined) {
    const asset = params.bind(p.assetId);
    where.push(`(EXISTS (SELECT 1 FROM outputs o WHERE o.transaction_id = ${id} AND o.asset_id = ${asset})
      OR EXISTS (SELECT 1 FROM transaction_inputs ti JOIN outputs o ON o.id = ti.output_id WHERE ti.transaction_id = ${id} AND o.asset_id = ${asset}))`);
  }
  if (p.query !== undefined) where.push(`starts_with(${id}, ${params.bind(p.query)})`);
  // The direction is one of two fixed words, never the caller's text.
  const descending = p.sort === "timestamp-desc";
  if (p.cursor !== undefined) where.push(afterCursor((v) => params.bind(v), p.cursor, [[time, "bigint"], [sequence, "bigint"]], descending));
  const direction = descending ? "DESC" : "ASC";
  const from = oneAddress ? "address_transactions at" : "transactions t";
  const order = `${time} ${direction}, ${sequence} ${direction}`;
  const limit = params.bind(p.limit);
  // One statement: the page's keys (one more than the page, which only says whether another
  // follows), its documents, and the key of its last shown transaction for the cursor.
  const [row] = await db.query(
    `WITH listed AS (
       SELECT ${id} AS id, ${time} AS accepted_at, ${sequence} AS sequence, row_number() OVER (ORDER BY ${order}) AS ord FROM ${from}
       WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ${params.bind(p.limit + 1)})
     ${documentsOf(
       `SELECT id, ord FROM listed WHERE ord <= ${limit}`,
       `, (SELECT count(*) FROM listed) AS listed, (SELECT accepted_at::text || ' ' || sequence::text FROM listed WHERE ord = ${limit}) AS last_key`,
     )}`,
    params.values,
  );
  const items = recordsTextOf(row);
  if (row === undefined || Number(row.listed ?? 0) <= p.limit) return { items };
  const [lastTime, lastSequence] = text(row, "last_key").split(" ").map(Number);
  return { items, next: encodeCursor([lastTime!, lastSequence!]) };
}
