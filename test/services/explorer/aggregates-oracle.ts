/**
 * The oracle of the interval aggregates: the reader's aggregates as they were computed per request
 * from the rows before the per-minute aggregates kept at ingest (schema-reads.ts), kept here so a
 * test can check that the kept ones answer the same. The owners are counted as the reader counts
 * them (records.ts `addressCount`): distinct per minute, chain and asset, summed.
 */
import type { SqlQueries } from "../../../src/services/sql/database";
import type { ExplorerContext } from "../../../src/services/explorer/context";
import type { AggregatesAnswer, TxfeeAggregatesAnswer } from "../../../src/services/explorer/records";
import { aggregatesAnswer, txfeeAggregatesAnswer } from "../../../src/services/explorer/reader/aggregates";
import { intervalStartSql } from "../../../src/services/explorer/reader/intervals";
import type { AggregatesParams, IntervalSize, TxfeeAggregatesParams } from "../../../src/services/explorer/reader/parameters";
import { SqlParams, text } from "../../../src/services/explorer/reader/sql";

/** The bucket column: the interval's start, or '0' for the whole window. */
function bucketSql(params: SqlParams, column: string, size: IntervalSize | undefined): string {
  return size === undefined ? `'0'` : intervalStartSql(column, params.bind(size));
}

export function summedAggregates(db: SqlQueries, context: ExplorerContext, p: AggregatesParams): Promise<AggregatesAnswer> {
  return aggregatesAnswer(p, (size) => aggregateRows(db, context, p, size));
}

/** The volume and counts per bucket, summed from the outputs and transactions in the window. */
async function aggregateRows(db: SqlQueries, context: ExplorerContext, p: AggregatesParams, size: IntervalSize | undefined): Promise<Map<string, Record<string, string | number | null>>> {
  const params = new SqlParams();
  const start = params.bind(p.startTime);
  const end = params.bind(p.endTime);
  const chains = p.chainIds.length > 0 ? params.bindList(p.chainIds) : undefined;
  const outputFilter = [`o.accepted_at >= ${start}`, `o.accepted_at <= ${end}`];
  if (chains !== undefined) outputFilter.push(`o.created_on_chain_id = ANY(${chains})`);
  if (p.assetId !== undefined) outputFilter.push(`o.asset_id = ${params.bind(p.assetId)}`);
  const volumeAsset = params.bind(p.assetId ?? context.nativeAssetId);
  const transactionFilter = [`t.accepted_at >= ${start}`, `t.accepted_at <= ${end}`];
  if (chains !== undefined) transactionFilter.push(`t.chain_id = ANY(${chains})`);
  if (p.assetId !== undefined) transactionFilter.push(`EXISTS (SELECT 1 FROM windowed w WHERE w.transaction_id = t.id)`);
  const rows = await db.query(
    `WITH windowed AS (
       SELECT o.id, o.transaction_id, o.asset_id, o.amount, o.accepted_at, o.created_on_chain_id, ${bucketSql(params, "o.accepted_at", size)} AS bucket
       FROM outputs o WHERE ${outputFilter.join(" AND ")}),
     volumes AS (
       SELECT bucket, coalesce(sum(amount) FILTER (WHERE asset_id = ${volumeAsset}), 0)::text AS volume, count(*) AS outputs, count(DISTINCT asset_id) AS assets
       FROM windowed GROUP BY bucket),
     owners AS (
       -- an owner once per minute, chain and asset (the reference's per-minute counts, summed)
       SELECT w.bucket, count(DISTINCT (w.accepted_at - w.accepted_at % 60000, w.created_on_chain_id, w.asset_id, oa.address)) AS addresses
       FROM windowed w JOIN output_addresses oa ON oa.output_id = w.id GROUP BY w.bucket),
     counted AS (
       SELECT ${bucketSql(params, "t.accepted_at", size)} AS bucket, count(*) AS transactions
       FROM transactions t WHERE ${transactionFilter.join(" AND ")} GROUP BY 1)
     SELECT b.bucket, coalesce(v.volume, '0') AS volume, coalesce(v.outputs, 0) AS outputs, coalesce(v.assets, 0) AS assets,
       coalesce(a.addresses, 0) AS addresses, coalesce(c.transactions, 0) AS transactions
     FROM (SELECT bucket FROM volumes UNION SELECT bucket FROM counted) b
     LEFT JOIN volumes v ON v.bucket = b.bucket LEFT JOIN owners a ON a.bucket = b.bucket LEFT JOIN counted c ON c.bucket = b.bucket`,
    params.values,
  );
  return new Map(rows.map((r) => [text(r, "bucket"), r]));
}

/** The fees per bucket, summed from the transactions in the window. */
export function summedTxfeeAggregates(db: SqlQueries, p: TxfeeAggregatesParams): Promise<TxfeeAggregatesAnswer> {
  return txfeeAggregatesAnswer(p, async (size: IntervalSize | undefined) => {
    const params = new SqlParams();
    const where = [`t.accepted_at >= ${params.bind(p.startTime)}`, `t.accepted_at <= ${params.bind(p.endTime)}`];
    if (p.chainIds.length > 0) where.push(`t.chain_id = ANY(${params.bindList(p.chainIds)})`);
    const rows = await db.query(
      `SELECT ${bucketSql(params, "t.accepted_at", size)} AS bucket, sum(t.tx_fee)::text AS txfee FROM transactions t WHERE ${where.join(" AND ")} GROUP BY 1`,
      params.values,
    );
    return new Map(rows.map((r) => [text(r, "bucket"), text(r, "txfee")]));
  });
}
