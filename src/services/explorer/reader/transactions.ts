/**
 * Exchange- and platform-chain transactions (and the contract chain's atomic ones) as records:
 * their inputs (the spent outputs with the credentials that unlocked them), their outputs, and
 * per-asset totals summed by the database (numeric, never through JS numbers). A list is ordered
 * by acceptance time, then ingestion sequence (its keyset), either way.
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { CredentialRecord, InputRecord, TransactionRecord } from "../records";
import { afterCursor, pageOf } from "./cursor";
import { outputRecords, outputRowsByIds, outputsOfTransactions } from "./outputs";
import type { Page, TransactionsParams } from "./parameters";
import { SqlParams, groupBy, int, isoTime, text } from "./sql";

const TRANSACTION_COLUMNS = `t.id, t.chain_id, t.type, t.memo, t.tx_fee::text AS tx_fee, t.genesis::text AS genesis,
  t.accepted_at::text AS accepted_at, t.sequence::text AS sequence`;

/** The full records of these transaction rows, in the rows' order. */
export async function transactionRecords(db: SqlQueries, rows: readonly SqlRow[]): Promise<TransactionRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => text(r, "id"));
  const inputsParams = new SqlParams();
  const inputs = await db.query(
    `SELECT transaction_id, position, output_id FROM transaction_inputs WHERE transaction_id = ANY(${inputsParams.bindList(ids)}) ORDER BY transaction_id, position`,
    inputsParams.values,
  );
  const credentialsParams = new SqlParams();
  const credentials = await db.query(
    `SELECT transaction_id, input_position, address, public_key, signature FROM input_credentials
     WHERE transaction_id = ANY(${credentialsParams.bindList(ids)}) ORDER BY transaction_id, input_position, position`,
    credentialsParams.values,
  );
  const spent = new Map((await outputRecords(db, await outputRowsByIds(db, inputs.map((i) => text(i, "output_id"))))).map((o) => [o.id, o]));
  const outputs = await outputsOfTransactions(db, ids);
  const inputTotals = await totals(db, ids, "JOIN transaction_inputs ti ON ti.output_id = o.id", "ti.transaction_id");
  const outputTotals = await totals(db, ids, "", "o.transaction_id");
  const inputsOf = groupBy(inputs, "transaction_id");
  const credentialsOf = groupBy(credentials, "transaction_id");

  return rows.map((row) => {
    const id = text(row, "id");
    const signers = credentialsOf.get(id) ?? [];
    const txInputs: InputRecord[] = (inputsOf.get(id) ?? []).map((input) => ({
      output: spent.get(text(input, "output_id")) ?? { id: text(input, "output_id") },
      credentials: signers
        .filter((c) => int(c, "input_position") === int(input, "position"))
        .map((c): CredentialRecord => ({ address: text(c, "address"), public_key: text(c, "public_key"), signature: text(c, "signature") })),
    }));
    return {
      id,
      chainID: text(row, "chain_id"),
      type: text(row, "type"),
      inputs: txInputs,
      outputs: outputs.get(id) ?? [],
      memo: Buffer.from(text(row, "memo"), "hex").toString("base64"),
      inputTotals: inputTotals.get(id) ?? {},
      outputTotals: outputTotals.get(id) ?? {},
      reusedAddressTotals: null,
      timestamp: isoTime(row.accepted_at),
      txFee: Number(text(row, "tx_fee")),
      genesis: row.genesis === "true",
    };
  });
}

/** Per transaction, per asset: the sum of the amounts of the outputs joined in (SQL numeric). */
async function totals(db: SqlQueries, ids: readonly string[], join: string, transactionColumn: string): Promise<Map<string, Record<string, string>>> {
  const params = new SqlParams();
  const rows = await db.query(
    `SELECT ${transactionColumn} AS transaction_id, o.asset_id, sum(o.amount)::text AS total FROM outputs o ${join}
     WHERE ${transactionColumn} = ANY(${params.bindList(ids)}) GROUP BY 1, 2 ORDER BY 1, 2`,
    params.values,
  );
  const byTransaction = new Map<string, Record<string, string>>();
  for (const row of rows) {
    const id = text(row, "transaction_id");
    const assets = byTransaction.get(id) ?? {};
    assets[text(row, "asset_id")] = text(row, "total");
    byTransaction.set(id, assets);
  }
  return byTransaction;
}

/** Transaction rows by ID (any order). */
export async function transactionRowsByIds(db: SqlQueries, ids: readonly string[]): Promise<SqlRow[]> {
  if (ids.length === 0) return [];
  const params = new SqlParams();
  return db.query(`SELECT ${TRANSACTION_COLUMNS} FROM transactions t WHERE t.id = ANY(${params.bindList(ids)})`, params.values);
}

export async function readTransaction(db: SqlQueries, id: string): Promise<TransactionRecord | undefined> {
  const [record] = await transactionRecords(db, await transactionRowsByIds(db, [id]));
  return record;
}

export async function listTransactions(db: SqlQueries, p: TransactionsParams): Promise<Page<TransactionRecord>> {
  const params = new SqlParams();
  const where = [`t.accepted_at >= ${params.bind(p.startTime)}`, `t.accepted_at <= ${params.bind(p.endTime)}`];
  if (p.chainIds.length > 0) where.push(`t.chain_id = ANY(${params.bindList(p.chainIds)})`);
  if (p.addresses.length > 0) {
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
  if (p.cursor !== undefined) where.push(afterCursor((v) => params.bind(v), p.cursor, [["t.accepted_at", "bigint"], ["t.sequence", "bigint"]], descending));
  const direction = descending ? "DESC" : "ASC";
  const rows = await db.query(
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions t WHERE ${where.join(" AND ")}
     ORDER BY t.accepted_at ${direction}, t.sequence ${direction} LIMIT ${params.bind(p.limit + 1)}`,
    params.values,
  );
  return pageOf(rows, p.limit, (r) => [Number(r.accepted_at), Number(r.sequence)], (shown) => transactionRecords(db, shown));
}
