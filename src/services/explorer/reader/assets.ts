/**
 * Assets with their current supply: the sum of the asset's unspent outputs on every chain
 * (exported outputs in flight included; what a contract chain's import consumed is gone from it),
 * summed by the database. A list is ordered by acceptance time, then ID (its keyset); its `query`
 * is a prefix of the ID, or (case-insensitively) of the name, symbol or alias.
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { AssetRecord } from "../records";
import { afterCursor, pageOf } from "./cursor";
import type { AssetsParams, Page } from "./parameters";
import { SqlParams, int, isoTime, text } from "./sql";

export const ASSET_COLUMNS = `a.id, a.chain_id, a.name, a.symbol, a.alias, a.denomination, a.variable_cap, a.nft, a.accepted_at::text AS accepted_at`;

export async function assetRecords(db: SqlQueries, rows: readonly SqlRow[]): Promise<AssetRecord[]> {
  if (rows.length === 0) return [];
  const params = new SqlParams();
  const supplies = new Map(
    (
      await db.query(
        `SELECT asset_id, sum(amount)::text AS supply FROM outputs WHERE asset_id = ANY(${params.bindList(rows.map((r) => text(r, "id")))})
         AND redeeming_transaction_id IS NULL GROUP BY asset_id`,
        params.values,
      )
    ).map((r) => [text(r, "asset_id"), text(r, "supply")]),
  );
  return rows.map((row) => ({
    id: text(row, "id"),
    chainID: text(row, "chain_id"),
    name: text(row, "name"),
    symbol: text(row, "symbol"),
    alias: text(row, "alias"),
    currentSupply: supplies.get(text(row, "id")) ?? "0",
    timestamp: isoTime(row.accepted_at),
    denomination: int(row, "denomination"),
    variableCap: int(row, "variable_cap"),
    nft: int(row, "nft"),
  }));
}

export async function readAsset(db: SqlQueries, id: string): Promise<AssetRecord | undefined> {
  const [record] = await assetRecords(db, await db.query(`SELECT ${ASSET_COLUMNS} FROM assets a WHERE a.id = $1`, [id]));
  return record;
}

export async function listAssets(db: SqlQueries, p: AssetsParams): Promise<Page<AssetRecord>> {
  const params = new SqlParams();
  const where = [`a.accepted_at >= ${params.bind(p.startTime)}`, `a.accepted_at <= ${params.bind(p.endTime)}`];
  if (p.chainIds.length > 0) where.push(`a.chain_id = ANY(${params.bindList(p.chainIds)})`);
  if (p.query !== undefined) {
    const prefix = params.bind(p.query);
    where.push(`(starts_with(a.id, ${prefix}) OR starts_with(lower(a.name), lower(${prefix})) OR starts_with(lower(a.symbol), lower(${prefix})) OR (a.alias <> '' AND starts_with(lower(a.alias), lower(${prefix}))))`);
  }
  if (p.cursor !== undefined) where.push(afterCursor((v) => params.bind(v), p.cursor, [["a.accepted_at", "bigint"], ["a.id", "text"]]));
  const rows = await db.query(
    `SELECT ${ASSET_COLUMNS} FROM assets a WHERE ${where.join(" AND ")} ORDER BY a.accepted_at, a.id LIMIT ${params.bind(p.limit + 1)}`,
    params.values,
  );
  return pageOf(rows, p.limit, (r) => [Number(r.accepted_at), text(r, "id")], (shown) => assetRecords(db, shown));
}

/** An address holding an asset, with its balance (decimal string). */
export interface AssetHolder {
  address: string;
  balance: string;
}

/**
 * The addresses holding the asset, largest balance first (ties by address): sums of the unspent
 * outputs each owns, over every chain. An output with several owners counts fully for each, as
 * in the addresses' own balances.
 */
export async function readAssetHolders(db: SqlQueries, assetId: string, limit: number): Promise<AssetHolder[]> {
  const rows = await db.query(
    `SELECT oa.address, sum(o.amount)::text AS balance, sum(o.amount) AS ordering FROM outputs o JOIN output_addresses oa ON oa.output_id = o.id
     WHERE o.asset_id = $1 AND o.redeeming_transaction_id IS NULL GROUP BY oa.address HAVING sum(o.amount) > 0
     ORDER BY ordering DESC, oa.address LIMIT $2`,
    [assetId, limit],
  );
  return rows.map((r) => ({ address: text(r, "address"), balance: text(r, "balance") }));
}
