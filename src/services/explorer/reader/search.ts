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
import { outputRecordsByIds } from "./outputs";
import { SqlParams, text } from "./sql";
import { transactionRecordsByIds } from "./transactions";

const TYPE_ORDER: readonly SearchResultType[] = ["cBlock", "cTransaction", "transaction", "asset", "address", "output"];

interface Match {
  id: string;
  score: number;
}

/**
 * The SQL of `column` starting with the bound prefix `q`, led by a range of the column's index:
 * every ID, address and query is letters and digits, so the IDs starting with the prefix lie
 * between it and the prefix followed by z's (the greatest of them), under the C collation the
 * explorer's databases use and under a language's collation alike; `starts_with` keeps the exact ones.
 */
function startsWith(column: string, q: string): string {
  return `${column} >= ${q} AND ${column} <= ${q} || repeat('z', 64) AND starts_with(${column}, ${q})`;
}

/** IDs in the `tables`' `column` starting with the query, best scored first. */
async function prefixMatches(db: SqlQueries, tables: readonly string[], column: string, query: string, limit: number): Promise<Match[]> {
  const params = new SqlParams();
  const q = params.bind(query);
  const limitParam = params.bind(limit);
  // The shortest matches score highest: each table's are read in length order, at most `limit`.
  const candidates = tables.map((table) => `(SELECT ${column} AS id FROM ${table} WHERE ${startsWith(column, q)} ORDER BY length(${column}), ${column} LIMIT ${limitParam})`);
  const rows = await db.query(
    `SELECT DISTINCT id, length(${q})::float8 / length(id) AS score FROM (${candidates.join(" UNION ALL ")}) matched
     ORDER BY score DESC, id LIMIT ${limitParam}`,
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

  const transactions = await prefixMatches(db, ["transactions"], "id", query, limit);
  const transactionData = new Map((await transactionRecordsByIds(db, transactions.map((m) => m.id))).map((r) => [r.id, r]));
  for (const m of transactions) results.push({ type: "transaction", data: transactionData.get(m.id), score: m.score });

  const assets = await assetMatches(db, query, limit);
  const assetData = await assetRecords(db, assets.map((m) => m.row));
  assets.forEach((m, i) => results.push({ type: "asset", data: assetData[i], score: m.score }));

  const address = query.replace(/^[XPC]-/, "");
  const addresses = await prefixMatches(db, ["addresses", "address_chain"], "address", address, limit);
  const addressData = await addressRecordsOverAllChains(db, addresses.map((m) => m.id));
  addresses.forEach((m, i) => results.push({ type: "address", data: addressData[i], score: m.score }));

  const outputs = await prefixMatches(db, ["outputs"], "id", query, limit);
  const outputData = new Map((await outputRecordsByIds(db, outputs.map((m) => m.id))).map((o) => [o.id, o]));
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
