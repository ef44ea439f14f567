/**
 * Aggregates over a time window (the reference fills only a cached transaction count): the
 * volume of one asset (the native asset by default) as the sum of the outputs created in the
 * window, and counts of transactions, distinct owner addresses, outputs
 * and assets. With an asset given, the counts too are of that asset's outputs (and transactions
 * that created them). With an interval size, the same per calendar interval (UTC), zeros included,
 * from the first interval with activity (or startTime, whichever is later) to endTime. The
 * window's whole minutes are read from the per-minute aggregates kept at ingest, its partial
 * first and last minutes from the rows.
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { ExplorerContext } from "../context";
import type { AggregateRecord, AggregatesAnswer, TxfeeAggregatesAnswer } from "../records";
import { intervalStarts, nextIntervalStart } from "./intervals";
import type { AggregatesParams, IntervalSize, TimeWindow, TxfeeAggregatesParams } from "./parameters";
import { SqlParams, int, isoTime, text } from "./sql";

const FIXED_INTERVAL_MS: Partial<Record<IntervalSize, number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/**
 * The bucket of a Unix-ms column as a bigint (cheaper to group than text): the start of its
 * interval as intervals.ts computes it, 0 for the whole window; in integer arithmetic where it has a
 * fixed length (minutes, hours, days; weeks start on Monday, and 1970-01-01 was a Thursday), by
 * the calendar otherwise.
 */
function integerBucketSql(params: SqlParams, column: string, size: IntervalSize | undefined): string {
  const fixed = size === undefined ? undefined : FIXED_INTERVAL_MS[size];
  if (size === undefined) return "0::bigint";
  if (fixed !== undefined) return `(${column} - ${column} % ${fixed})`;
  if (size === "week") return `(${column} - ${column} % 86400000 - ((${column} / 86400000 + 3) % 7) * 86400000)`;
  return `floor(extract(epoch FROM date_trunc(${params.bind(size)}::text, to_timestamp(${column} / 1000.0) AT TIME ZONE 'UTC')) * 1000)::bigint`;
}

/** Per bucket ("0" for the whole window, else the interval's start in Unix ms) the row of volume and counts. */
export type AggregateBuckets = (size: IntervalSize | undefined) => Promise<Map<string, SqlRow>>;

/** The answer from the bucket rows: the whole window, and every interval from the first active one when asked. */
export async function aggregatesAnswer(p: AggregatesParams, bucketsOf: AggregateBuckets): Promise<AggregatesAnswer> {
  const total = aggregateOf(p, (await bucketsOf(undefined)).get("0"));
  const answer: AggregatesAnswer = { startTime: isoTime(p.startTime), endTime: isoTime(p.endTime), aggregates: total };
  if (p.intervalSize !== undefined) {
    const size = p.intervalSize;
    const buckets = await bucketsOf(size);
    answer.intervals = startsOf(p, [...buckets.keys()], size).map((start) => aggregateOf({ startTime: start, endTime: nextIntervalStart(start, size) }, buckets.get(String(start))));
  }
  return answer;
}

export function readAggregates(db: SqlQueries, context: ExplorerContext, p: AggregatesParams): Promise<AggregatesAnswer> {
  return aggregatesAnswer(p, (size) => aggregateRows(db, context, p, size));
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

/** Whole minutes of the window, [from, to), and its partial first and last minutes, read from the rows. */
interface MinuteSplit {
  /** The SQL of a minute-table row being in the window's whole minutes. */
  wholeMinutes(column: string): string;
  /** The SQL of a row's time being in the window's partial minutes. */
  partialMinutes(column: string): string;
}

const MINUTE_MS = 60_000;

function splitWindow(params: SqlParams, window: TimeWindow): MinuteSplit {
  const from = Math.ceil(window.startTime / MINUTE_MS) * MINUTE_MS;
  const to = Math.max(from, Math.floor((window.endTime + 1) / MINUTE_MS) * MINUTE_MS);
  const [start, end, fromParam, toParam] = [params.bind(window.startTime), params.bind(window.endTime), params.bind(from), params.bind(to)];
  return {
    wholeMinutes: (column) => `${column} >= ${fromParam} AND ${column} < ${toParam}`,
    partialMinutes: (column) => `((${column} >= ${start} AND ${column} < ${fromParam} AND ${column} <= ${end}) OR (${column} >= ${toParam} AND ${column} <= ${end}))`,
  };
}

/**
 * Per bucket: the volume, outputs, assets, owners and transactions of the window, from the
 * per-minute aggregates kept at ingest (schema-reads.ts) for its whole minutes and from the rows
 * for its partial first and last minutes, so the work follows the window's length, not the chain's.
 */
async function aggregateRows(db: SqlQueries, context: ExplorerContext, p: AggregatesParams, size: IntervalSize | undefined): Promise<Map<string, SqlRow>> {
  const params = new SqlParams();
  const minutes = splitWindow(params, p);
  const chains = p.chainIds.length > 0 ? params.bindList(p.chainIds) : undefined;
  const asset = p.assetId !== undefined ? params.bind(p.assetId) : undefined;
  const volumeAsset = asset ?? params.bind(context.nativeAssetId);
  const outputFilter = (chainColumn: string, assetColumn: string) =>
    [chains === undefined ? "" : ` AND ${chainColumn} = ANY(${chains})`, asset === undefined ? "" : ` AND ${assetColumn} = ${asset}`].join("");
  const counted =
    asset === undefined
      ? `SELECT ${integerBucketSql(params, "m.minute", size)} AS bucket, m.transactions AS n FROM explorer_minute_transactions m
           WHERE ${minutes.wholeMinutes("m.minute")}${chains === undefined ? "" : ` AND m.chain_id = ANY(${chains})`}
         UNION ALL SELECT ${integerBucketSql(params, "t.accepted_at", size)}, 1 FROM transactions t
           WHERE ${minutes.partialMinutes("t.accepted_at")}${chains === undefined ? "" : ` AND t.chain_id = ANY(${chains})`}`
      : `SELECT bucket, transactions AS n FROM whole UNION ALL SELECT bucket, count(DISTINCT transaction_id) FROM partial GROUP BY bucket`;
  const rows = await db.query(
    `WITH whole AS (
       SELECT ${integerBucketSql(params, "m.minute", size)} AS bucket, m.asset_id, m.volume, m.outputs, m.transactions FROM explorer_minute_outputs m
       WHERE ${minutes.wholeMinutes("m.minute")}${outputFilter("m.chain_id", "m.asset_id")}),
     partial AS (
       SELECT ${integerBucketSql(params, "o.accepted_at", size)} AS bucket, o.id, o.transaction_id, o.asset_id, o.amount FROM outputs o
       WHERE ${minutes.partialMinutes("o.accepted_at")}${outputFilter("o.created_on_chain_id", "o.asset_id")}),
     volumes AS (
       SELECT bucket, coalesce(sum(volume) FILTER (WHERE asset_id = ${volumeAsset}), 0)::text AS volume, sum(outputs) AS outputs, count(DISTINCT asset_id) AS assets
       FROM (SELECT bucket, asset_id, volume, outputs FROM whole UNION ALL SELECT bucket, asset_id, amount, 1 FROM partial) x GROUP BY bucket),
     owners AS (
       -- distinct by hashing (bucket, address) rather than sorting each bucket's addresses
       SELECT bucket, count(*) AS addresses FROM (SELECT bucket, address FROM (
         SELECT ${integerBucketSql(params, "m.minute", size)} AS bucket, m.address FROM explorer_minute_owners m
         WHERE ${minutes.wholeMinutes("m.minute")}${outputFilter("m.chain_id", "m.asset_id")}
         -- the partial minutes' owners by their outputs' keys, never by scanning the owners
         UNION ALL SELECT w.bucket, oa.address FROM partial w JOIN output_addresses oa ON oa.output_id = w.id
           WHERE oa.output_id = ANY(ARRAY(SELECT id FROM partial))) x GROUP BY bucket, address) y GROUP BY bucket),
     counted AS (SELECT bucket, sum(n) AS transactions FROM (${counted}) x GROUP BY bucket)
     SELECT b.bucket::text AS bucket, coalesce(v.volume, '0') AS volume, coalesce(v.outputs, 0) AS outputs, coalesce(v.assets, 0) AS assets,
       coalesce(a.addresses, 0) AS addresses, coalesce(c.transactions, 0) AS transactions
     FROM (SELECT bucket FROM volumes UNION SELECT bucket FROM counted) b
     LEFT JOIN volumes v ON v.bucket = b.bucket LEFT JOIN owners a ON a.bucket = b.bucket LEFT JOIN counted c ON c.bucket = b.bucket`,
    params.values,
  );
  return new Map(rows.map((r) => [text(r, "bucket"), r]));
}

/** Per bucket (as in {@link AggregateBuckets}) the sum of the fees. */
export type TxfeeBuckets = (size: IntervalSize | undefined) => Promise<Map<string, string>>;

/** The answer from the bucket sums: the whole window, and every interval from the first active one when asked. */
export async function txfeeAggregatesAnswer(p: TxfeeAggregatesParams, feesOf: TxfeeBuckets): Promise<TxfeeAggregatesAnswer> {
  const window = { startTime: isoTime(p.startTime), endTime: isoTime(p.endTime) };
  const answer: TxfeeAggregatesAnswer = { ...window, aggregates: { ...window, txfee: (await feesOf(undefined)).get("0") ?? "0" } };
  if (p.intervalSize !== undefined) {
    const size = p.intervalSize;
    const buckets = await feesOf(size);
    answer.intervals = startsOf(p, [...buckets.keys()], size).map((start) => ({
      startTime: isoTime(start),
      endTime: isoTime(nextIntervalStart(start, size)),
      txfee: buckets.get(String(start)) ?? "0",
    }));
  }
  return answer;
}

/** The sum of the transactions' fees (native asset) in the window, and per interval when asked. */
export function readTxfeeAggregates(db: SqlQueries, p: TxfeeAggregatesParams): Promise<TxfeeAggregatesAnswer> {
  return txfeeAggregatesAnswer(p, async (size) => {
    const params = new SqlParams();
    const minutes = splitWindow(params, p);
    const chains = p.chainIds.length > 0 ? ` AND chain_id = ANY(${params.bindList(p.chainIds)})` : "";
    // Whole minutes from the per-minute fees kept at ingest, the partial ones from the rows.
    const rows = await db.query(
      `SELECT bucket::text AS bucket, sum(txfee)::text AS txfee FROM (
         SELECT ${integerBucketSql(params, "minute", size)} AS bucket, txfee FROM explorer_minute_transactions WHERE ${minutes.wholeMinutes("minute")}${chains}
         UNION ALL SELECT ${integerBucketSql(params, "accepted_at", size)}, tx_fee FROM transactions WHERE ${minutes.partialMinutes("accepted_at")}${chains}) x GROUP BY bucket`,
      params.values,
    );
    return new Map(rows.map((r) => [text(r, "bucket"), text(r, "txfee")]));
  });
}
