/**
 * Exchange- and platform-chain transactions (and the contract chain's atomic ones) as records:
 * their inputs (the spent outputs with the credentials that unlocked them), their outputs, and
 * per-asset totals of both, summed exactly (bigint, never through JS numbers) from the outputs
 * read. A list is ordered by acceptance time, then ingestion sequence (its keyset), either way.
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { CredentialRecord, InputRecord, TransactionRecord } from "../records";
import { afterCursor, pageOf } from "./cursor";
import { spentAndCreatedOutputs } from "./outputs";
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
  const { byId: spent, ofTransaction: outputs } = await spentAndCreatedOutputs(db, inputs.map((i) => text(i, "output_id")), ids);
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
      inputTotals: totalsOf(txInputs.flatMap((input) => ("amount" in input.output ? [input.output] : []))),
      outputTotals: totalsOf(outputs.get(id) ?? []),
      reusedAddressTotals: null,
      timestamp: isoTime(row.accepted_at),
      txFee: Number(text(row, "tx_fee")),
      genesis: row.genesis === "true",
    };
  });
}

/** Per asset (in ID order), the sum of the outputs' amounts, exact (bigint), as decimal strings. */
function totalsOf(outputs: readonly { assetID: string; amount: string }[]): Record<string, string> {
  const sums = new Map<string, bigint>();
  for (const o of outputs) sums.set(o.assetID, (sums.get(o.assetID) ?? 0n) + BigInt(o.amount));
  return Object.fromEntries([...sums.keys()].sort().map((asset) => [asset, sums.get(asset)!.toString()]));
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
    `SELECT ${TRANSACTION_COLUMNS} FROM ${from} WHERE ${where.join(" AND ")}
     ORDER BY ${time} ${direction}, ${sequence} ${direction} LIMIT ${params.bind(p.limit + 1)}`,
    params.values,
  );
  return pageOf(rows, p.limit, (r) => [Number(r.accepted_at), Number(r.sequence)], (shown) => transactionRecords(db, shown));
}
