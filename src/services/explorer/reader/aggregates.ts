/**
 * Aggregates computed by the database over a time window (the reference fills only a cached
 * transaction count): the volume of one asset (the native asset by default) as the sum of the
 * outputs created in the window, and counts of transactions, distinct owner addresses, outputs
 * and assets. With an asset given, the counts too are of that asset's outputs (and transactions
 * that created them). With an interval size, the same per calendar interval (UTC), zeros included,
 * from the first interval with activity (or startTime, whichever is later) to endTime.
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { ExplorerContext } from "../context";
import type { AggregateRecord, AggregatesAnswer, TxfeeAggregatesAnswer } from "../records";
import { intervalStartSql, intervalStarts, nextIntervalStart } from "./intervals";
import type { AggregatesParams, IntervalSize, TimeWindow, TxfeeAggregatesParams } from "./parameters";
import { SqlParams, int, isoTime, text } from "./sql";

/** The bucket column: the interval's start, or '0' for the whole window. */
function bucketSql(params: SqlParams, column: string, size: IntervalSize | undefined): string {
  return size === undefined ? `'0'` : intervalStartSql(column, params.bind(size));
}

export async function readAggregates(db: SqlQueries, context: ExplorerContext, p: AggregatesParams): Promise<AggregatesAnswer> {
  const rows = await aggregateRows(db, context, p, undefined);
  const total = aggregateOf(p, rows.get("0"));
  const answer: AggregatesAnswer = { startTime: isoTime(p.startTime), endTime: isoTime(p.endTime), aggregates: total };
  if (p.intervalSize !== undefined) {
    const size = p.intervalSize;
    const buckets = await aggregateRows(db, context, p, size);
    answer.intervals = startsOf(p, [...buckets.keys()], size).map((start) => aggregateOf({ startTime: start, endTime: nextIntervalStart(start, size) }, buckets.get(String(start))));
  }
  return answer;
}

function aggregateOf(window: TimeWindow, row: SqlRow | undefined): AggregateRecord {
  return {
    startTime: isoTime(window.startTime),
    endTime: isoTime(window.endTime),
    transactionVolume: row === undefined ? "0" : text(row, "volume"),
    transactionCount: row === undefined ? 0 : int(row, "transactions"),
    addressCount: row === undefined ? 0 : int(row, "addresses"),
    outputCount: row === undefined ? 0 : int(row, "outputs"),
    assetCount: row === undefined ? 0 : int(row, "assets"),
  };
}

/** Interval starts to answer: from the first with activity (or startTime) to endTime. */
function startsOf(window: TimeWindow, activeBuckets: string[], size: IntervalSize): number[] {
  if (activeBuckets.length === 0) return [];
  const firstActive = Math.min(...activeBuckets.map(Number));
  return intervalStarts(Math.max(window.startTime, firstActive), window.endTime, size);
}

async function aggregateRows(db: SqlQueries, context: ExplorerContext, p: AggregatesParams, size: IntervalSize | undefined): Promise<Map<string, SqlRow>> {
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
       SELECT o.id, o.transaction_id, o.asset_id, o.amount, ${bucketSql(params, "o.accepted_at", size)} AS bucket
       FROM outputs o WHERE ${outputFilter.join(" AND ")}),
     volumes AS (
       SELECT bucket, coalesce(sum(amount) FILTER (WHERE asset_id = ${volumeAsset}), 0)::text AS volume, count(*) AS outputs, count(DISTINCT asset_id) AS assets
       FROM windowed GROUP BY bucket),
     owners AS (
       SELECT w.bucket, count(DISTINCT oa.address) AS addresses FROM windowed w JOIN output_addresses oa ON oa.output_id = w.id GROUP BY w.bucket),
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

/** The sum of the transactions' fees (native asset) in the window, and per interval when asked. */
export async function readTxfeeAggregates(db: SqlQueries, p: TxfeeAggregatesParams): Promise<TxfeeAggregatesAnswer> {
  const fees = async (size: IntervalSize | undefined): Promise<Map<string, string>> => {
    const params = new SqlParams();
    const where = [`t.accepted_at >= ${params.bind(p.startTime)}`, `t.accepted_at <= ${params.bind(p.endTime)}`];
    if (p.chainIds.length > 0) where.push(`t.chain_id = ANY(${params.bindList(p.chainIds)})`);
    const rows = await db.query(
      `SELECT ${bucketSql(params, "t.accepted_at", size)} AS bucket, sum(t.tx_fee)::text AS txfee FROM transactions t WHERE ${where.join(" AND ")} GROUP BY 1`,
      params.values,
    );
    return new Map(rows.map((r) => [text(r, "bucket"), text(r, "txfee")]));
  };
  const window = { startTime: isoTime(p.startTime), endTime: isoTime(p.endTime) };
  const answer: TxfeeAggregatesAnswer = { ...window, aggregates: { ...window, txfee: (await fees(undefined)).get("0") ?? "0" } };
  if (p.intervalSize !== undefined) {
    const size = p.intervalSize;
    const buckets = await fees(size);
    answer.intervals = startsOf(p, [...buckets.keys()], size).map((start) => ({
      startTime: isoTime(start),
      endTime: isoTime(nextIntervalStart(start, size)),
      txfee: buckets.get(String(start)) ?? "0",
    }));
  }
  return answer;
}
