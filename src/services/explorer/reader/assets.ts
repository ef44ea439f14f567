/**
 * Assets with their current supply, kept by the ingester (ingest/totals.ts): the asset's unspent outputs on every
 * chain (exported outputs in flight included), plus what the contract chain holds in account
 * balances — the outputs its imports consumed, less the outputs its exports created. For the
 * native asset that last part is an upper bound: the contract chain's gas and atomic fees are
 * paid from account balances the explorer does not see. A list is ordered by acceptance time, then ID (its keyset); its `query`
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
    (await db.query(`SELECT asset_id, supply::text AS supply FROM asset_totals WHERE asset_id = ANY(${params.bindList(rows.map((r) => text(r, "id")))})`, params.values)).map((r) => [
      text(r, "asset_id"),
      text(r, "supply"),
    ]),
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
 * The addresses holding the asset, largest balance first (ties by address): the running totals of
 * the unspent outputs each owns, over every chain. An output with several owners counts fully for each, as
 * in the addresses' own balances.
 */
export async function readAssetHolders(db: SqlQueries, assetId: string, limit: number): Promise<AssetHolder[]> {
  const rows = await db.query(
    `SELECT address, balance::text AS balance FROM address_asset_totals
     WHERE asset_id = $1 AND chain_id = '' AND balance > 0 ORDER BY address_asset_totals.balance DESC, address LIMIT $2`,
    [assetId, limit],
  );
  return rows.map((r) => ({ address: text(r, "address"), balance: text(r, "balance") }));
}
