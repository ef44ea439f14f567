/**
 * Search across the explorer, ranked by a real score (the reference's is always 0):
 * score = matched length / length of the matched text, so an exact match scores 1 and a longer
 * prefix of the same text scores higher than a shorter one. Transactions, outputs and assets
 * match by ID prefix, assets also by name, symbol or alias prefix (any case), addresses by
 * prefix (an `X-`/`P-`/`C-` chain prefix is ignored); contract-chain blocks match only by exact
 * hash or number and contract-chain transactions only by exact hash, as the seed says.
 * Ties are broken by type, then ID, so the order is stable.
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { SearchAnswer, SearchResult, SearchResultType } from "../records";
import { addressRecordsOverAllChains } from "./addresses";
import { ASSET_COLUMNS, assetRecords } from "./assets";
import { findCBlock } from "./c-blocks";
import { readCTransaction } from "./c-transactions";
import { outputRecords, outputRowsByIds } from "./outputs";
import { SqlParams, text } from "./sql";
import { transactionRecords, transactionRowsByIds } from "./transactions";

const TYPE_ORDER: readonly SearchResultType[] = ["cBlock", "cTransaction", "transaction", "asset", "address", "output"];

interface Match {
  id: string;
  score: number;
}

/** IDs in `table.column` starting with the query, best scored first. */
async function prefixMatches(db: SqlQueries, from: string, column: string, query: string, limit: number): Promise<Match[]> {
  const params = new SqlParams();
  const q = params.bind(query);
  const rows = await db.query(
    `SELECT DISTINCT ${column} AS id, length(${q})::float8 / length(${column}) AS score FROM ${from}
     WHERE starts_with(${column}, ${q}) ORDER BY score DESC, id LIMIT ${params.bind(limit)}`,
    params.values,
  );
  return rows.map((r) => ({ id: text(r, "id"), score: Number(r.score) }));
}

async function assetMatches(db: SqlQueries, query: string, limit: number): Promise<Array<Match & { row: SqlRow }>> {
  const params = new SqlParams();
  const q = params.bind(query);
  const scoreOf = (column: string, lower: boolean) =>
    lower ? `CASE WHEN ${column} <> '' AND starts_with(lower(${column}), lower(${q})) THEN length(${q})::float8 / length(${column}) END` : `CASE WHEN starts_with(${column}, ${q}) THEN length(${q})::float8 / length(${column}) END`;
  const rows = await db.query(
    `SELECT * FROM (SELECT ${ASSET_COLUMNS}, greatest(${scoreOf("a.id", false)}, ${scoreOf("a.name", true)}, ${scoreOf("a.symbol", true)}, ${scoreOf("a.alias", true)}) AS score
     FROM assets a) scored WHERE score IS NOT NULL ORDER BY score DESC, id LIMIT ${params.bind(limit)}`,
    params.values,
  );
  return rows.map((row) => ({ id: text(row, "id"), score: Number(row.score), row }));
}

export async function search(db: SqlQueries, rawQuery: string, limit: number): Promise<SearchAnswer> {
  const query = rawQuery.trim();
  const results: SearchResult[] = [];
  if (/^0x[0-9a-fA-F]{64}$/.test(query)) {
    const hash = query.toLowerCase();
    const block = await findCBlock(db, { hash });
    if (block !== undefined) results.push({ type: "cBlock", data: block, score: 1 });
    const transaction = await readCTransaction(db, hash);
    if (transaction !== undefined) results.push({ type: "cTransaction", data: transaction, score: 1 });
  }
  if (/^\d{1,15}$/.test(query)) {
    const block = await findCBlock(db, { number: Number(query) });
    if (block !== undefined) results.push({ type: "cBlock", data: block, score: 1 });
  }

  const transactions = await prefixMatches(db, "transactions", "id", query, limit);
  const transactionRows = transactions.length === 0 ? [] : await transactionRowsByIds(db, transactions.map((m) => m.id));
  const transactionData = new Map((await transactionRecords(db, transactionRows)).map((r) => [r.id, r]));
  for (const m of transactions) results.push({ type: "transaction", data: transactionData.get(m.id), score: m.score });

  const assets = await assetMatches(db, query, limit);
  const assetData = await assetRecords(db, assets.map((m) => m.row));
  assets.forEach((m, i) => results.push({ type: "asset", data: assetData[i], score: m.score }));

  const address = query.replace(/^[XPC]-/, "");
  const addresses = await prefixMatches(db, "(SELECT address FROM addresses UNION SELECT address FROM address_chain) known", "address", address, limit);
  const addressData = await addressRecordsOverAllChains(db, addresses.map((m) => m.id));
  addresses.forEach((m, i) => results.push({ type: "address", data: addressData[i], score: m.score }));

  const outputs = await prefixMatches(db, "outputs", "id", query, limit);
  const outputData = new Map((await outputRecords(db, await outputRowsByIds(db, outputs.map((m) => m.id)))).map((o) => [o.id, o]));
  for (const m of outputs) results.push({ type: "output", data: outputData.get(m.id), score: m.score });

  const ranked = results
    .sort((a, b) => b.score - a.score || TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type) || idOf(a).localeCompare(idOf(b)))
    .slice(0, limit);
  return { count: ranked.length, results: ranked };
}

function idOf(result: SearchResult): string {
  const data = result.data as { id?: string; hash?: string; address?: string };
  return data.id ?? data.hash ?? data.address ?? "";
}
