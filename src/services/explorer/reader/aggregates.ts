/**
 * Aggregates over a time window (the reference fills only a cached transaction count): the
 * volume of one asset (the native asset by default) as the sum of the outputs created in the
 * window, and counts of transactions, owner addresses, outputs and assets. The owners are
 * counted as the reference explorer (Ortelius) sums its per-minute aggregates: per UTC minute,
 * chain and asset, the distinct addresses owning outputs created then, summed over the window
 * (an address receiving in three minutes counts three times), so intervals add up to the window
 * and the count costs the window's minutes, not its rows (schema-reads-scale.ts). With an asset
 * given, the counts too are of that asset's outputs (and transactions that created them). With
 * an interval size, the same per calendar interval (UTC), zeros included, from the first
 * interval with activity (or startTime, whichever is later) to endTime. The
 * window's whole minutes are read from the per-minute aggregates kept at ingest, its partial
 * first and last minutes from the rows (or from the kept row when none of the minute's rows lies
 * outside the window, as for a window ending at the newest row).
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
  // One statement answers the window and its intervals: both questions share its answer.
  const rows = aggregateRows(db, context, p);
  return aggregatesAnswer(p, async (size) => {
    const { window, buckets } = await rows;
    return size === undefined ? new Map(window === undefined ? [] : [["0", window]]) : buckets;
  });
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

/** The tables whose rows the per-minute aggregates keep: outputs (volume, outputs, owners, an asset's transactions) and transactions (counts, fees). */
type MinuteSource = "outputs" | "transactions";

/** The SQL of one row set of a partial minute: its condition on the rows, whether they add or take away, and the bounds of the piece they belong to. */
interface PartialRows {
  condition: string;
  /** `1`: rows of the piece itself; `-1`: rows of the piece's minute outside it, taken from its kept row. */
  sign: "1" | "-1";
  /** The piece's first and last Unix ms (bound), to ask whether an owner also owns outputs inside it. */
  pieceFirst: string;
  pieceLast: string;
}

/** Whole minutes of the window from the kept aggregates; its partial minutes from their rows, or from their kept rows less the rows outside the window. */
interface MinuteSplit {
  /** The SQL of a minute-table row (kept from `source`) being in the window's whole minutes, or a partial minute read from its kept row. */
  wholeMinutes(column: string, source: MinuteSource): string;
  /** The partial minutes' row sets: `select(rows)` per set, joined by UNION ALL. */
  partialRows(select: (rows: PartialRows) => string, column: string, source: MinuteSource): string;
  /** The SQL of a minute being one read from its kept row less the rows outside the window; undefined when none is. */
  complemented(column: string): string | undefined;
}

const MINUTE_MS = 60_000;

/** A partial minute: the window holds [first, last] of minute `minute`. */
interface Piece {
  minute: number;
  first: number;
  last: number;
}

/**
 * The window's minutes: [from, to) whole, and up to two partial ones. A partial minute is read
 * whichever way costs less:
 * - a piece longer than three quarters of its minute is the minute's kept row less the rows of
 *   the minute outside the window (whose sums, counts and fees are subtracted; an owner is
 *   subtracted when it owns none of the piece's outputs of that chain and asset, asked of its own
 *   history by time, `address_transactions`), so a window cut a second into a minute reads a
 *   second of rows. A row outside costs about three inside (that question), hence the quarter;
 * - a shorter one is read from its rows, or from its kept row when none of the minute's rows lies
 *   outside the piece (a window ending at the newest row): which it is, is asked in the same
 *   statement (two index probes per piece and source table, evaluated once), so one snapshot
 *   answers both, and each piece's rows are a branch of their own, so the probe's answer gates the
 *   branch's scan as a whole.
 */
function splitWindow(params: SqlParams, window: TimeWindow): MinuteSplit {
  const from = Math.ceil(window.startTime / MINUTE_MS) * MINUTE_MS;
  const to = Math.max(from, Math.floor((window.endTime + 1) / MINUTE_MS) * MINUTE_MS);
  const pieces: Piece[] = [];
  if (window.startTime < from) pieces.push({ minute: from - MINUTE_MS, first: window.startTime, last: Math.min(from - 1, window.endTime) });
  if (to <= window.endTime) pieces.push({ minute: to, first: to, last: window.endTime });
  const byComplement = (piece: Piece) => 4 * (piece.last - piece.first + 1) > 3 * MINUTE_MS;
  const complemented = pieces.filter(byComplement);
  const direct = pieces.filter((piece) => !byComplement(piece));
  // Values are bound where the SQL uses them: a parameter no statement refers to has no type.
  const keptWhole = (source: MinuteSource, piece: Piece) =>
    `(NOT EXISTS (SELECT 1 FROM ${source} WHERE accepted_at >= ${params.bind(piece.minute)} AND accepted_at < ${params.bind(piece.first)})
      AND NOT EXISTS (SELECT 1 FROM ${source} WHERE accepted_at > ${params.bind(piece.last)} AND accepted_at < ${params.bind(piece.minute + MINUTE_MS)}))`;
  // The piece's bounds are bound only when the statement asks for them (getters).
  const rowsOf = (condition: string, sign: PartialRows["sign"], piece?: Piece): PartialRows => ({
    condition,
    sign,
    get pieceFirst() {
      return piece === undefined ? "NULL::bigint" : `${params.bind(piece.first)}::bigint`;
    },
    get pieceLast() {
      return piece === undefined ? "NULL::bigint" : `${params.bind(piece.last)}::bigint`;
    },
  });
  return {
    wholeMinutes: (column, source) => {
      const minutes = [
        ...complemented.map((piece) => ` OR ${column} = ${params.bind(piece.minute)}`),
        ...direct.map((piece) => ` OR (${column} = ${params.bind(piece.minute)} AND ${keptWhole(source, piece)})`),
      ];
      return `((${column} >= ${params.bind(from)} AND ${column} < ${params.bind(to)})${minutes.join("")})`;
    },
    partialRows: (select, column, source) => {
      const sets: string[] = [];
      for (const piece of pieces) {
        if (!byComplement(piece)) {
          const condition = `${column} >= ${params.bind(piece.first)} AND ${column} <= ${params.bind(piece.last)} AND NOT ${keptWhole(source, piece)}`;
          sets.push(select(rowsOf(condition, "1", piece)));
          continue;
        }
        if (piece.first > piece.minute) sets.push(select(rowsOf(`${column} >= ${params.bind(piece.minute)} AND ${column} < ${params.bind(piece.first)}`, "-1", piece)));
        if (piece.last < piece.minute + MINUTE_MS - 1) sets.push(select(rowsOf(`${column} > ${params.bind(piece.last)} AND ${column} < ${params.bind(piece.minute + MINUTE_MS)}`, "-1", piece)));
      }
      return sets.length === 0 ? select(rowsOf("false", "1")) : sets.join(" UNION ALL ");
    },
    complemented: (column) => (complemented.length === 0 ? undefined : `${column} = ANY(ARRAY[${complemented.map((piece) => `${params.bind(piece.minute)}::bigint`).join(", ")}])`),
  };
}

/**
 * The owners of a row `w` of the partial minutes' outputs: its `sole_owner` when the ingester kept
 * one (schema-outputs-owner.ts), else its rows of `output_addresses`. That branch is an index probe
 * per output, never a scan of the owners (OFFSET 0 keeps it a subquery no join order can turn into
 * one), and is not run at all for an output with a sole owner.
 */
const OWNERS_OF_W = `SELECT w.sole_owner AS address WHERE w.sole_owner IS NOT NULL
  UNION ALL (SELECT oa.address FROM output_addresses oa WHERE w.sole_owner IS NULL AND oa.output_id = w.id OFFSET 0)`;

/** The window's row and, when an interval size is given, each interval's, from one statement. */
interface WindowRows {
  window: SqlRow | undefined;
  buckets: Map<string, SqlRow>;
}

/**
 * The volume, outputs, assets, owners and transactions of the window and of each interval, from
 * the per-minute aggregates kept at ingest (schema-reads.ts, schema-reads-scale.ts) for its whole
 * minutes and from the rows for its partial first and last minutes (with their signs: see
 * {@link splitWindow}), so the work follows the window's length, not the chain's. Every figure
 * but the assets is a sum, so the rows of facts are read once and grouped both per interval and
 * over the window (grouping sets).
 */
async function aggregateRows(db: SqlQueries, context: ExplorerContext, p: AggregatesParams): Promise<WindowRows> {
  const params = new SqlParams();
  const minutes = splitWindow(params, p);
  const chains = p.chainIds.length > 0 ? params.bindList(p.chainIds) : undefined;
  const asset = p.assetId !== undefined ? params.bind(p.assetId) : undefined;
  const volumeAsset = asset ?? params.bind(context.nativeAssetId);
  const outputFilter = (chainColumn: string, assetColumn: string) =>
    [chains === undefined ? "" : ` AND ${chainColumn} = ANY(${chains})`, asset === undefined ? "" : ` AND ${assetColumn} = ${asset}`].join("");
  const bucket = (column: string) => integerBucketSql(params, column, p.intervalSize);
  // Transactions: of the chains from their own per-minute counts; of one asset, those that created its outputs.
  const transactions =
    asset === undefined
      ? `UNION ALL SELECT ${bucket("m.minute")}, NULL, 0, 0, 0, m.transactions FROM explorer_minute_transactions m
           WHERE ${minutes.wholeMinutes("m.minute", "transactions")}${chains === undefined ? "" : ` AND m.chain_id = ANY(${chains})`}
         UNION ALL ${minutes.partialRows((rows) => `SELECT ${bucket("t.accepted_at")}, NULL, 0, 0, 0, ${rows.sign} * count(*) FROM transactions t
           WHERE ${rows.condition}${chains === undefined ? "" : ` AND t.chain_id = ANY(${chains})`} GROUP BY 1`, "t.accepted_at", "transactions")}`
      : `UNION ALL SELECT bucket, NULL, 0, 0, 0, sum(sign) FROM (SELECT DISTINCT bucket, transaction_id, sign FROM partial) d GROUP BY bucket`;
  // A minute read from its kept row less the rows outside the window holds an asset only if some of
  // its outputs are inside; owners of outputs outside it are taken away unless they own some inside.
  // (Only written when a minute is read so: the planning of a statement is much of its cost on PGlite.)
  const complemented = minutes.complemented("m.minute");
  const keptAsset =
    complemented === undefined
      ? "m.asset_id"
      : `CASE WHEN ${complemented} AND m.outputs <= (SELECT count(*) FROM partial n
          WHERE n.sign < 0 AND n.minute = m.minute AND n.chain_id = m.chain_id AND n.asset_id = m.asset_id) THEN NULL ELSE m.asset_id END`;
  const ownersOutside =
    complemented === undefined
      ? ""
      : `UNION ALL SELECT bucket, NULL, 0, 0, -count(*), 0 FROM (SELECT DISTINCT w.bucket, w.minute, w.chain_id, w.asset_id, oa.address
         FROM partial w CROSS JOIN LATERAL (${OWNERS_OF_W}) oa WHERE w.sign < 0
          AND NOT EXISTS (SELECT 1 FROM address_transactions at JOIN outputs io ON io.transaction_id = at.transaction_id
               WHERE at.address = oa.address AND at.accepted_at >= w.piece_first AND at.accepted_at <= w.piece_last
                 AND io.accepted_at >= w.piece_first AND io.accepted_at <= w.piece_last AND io.asset_id = w.asset_id AND io.created_on_chain_id = w.chain_id
                 AND (io.sole_owner = at.address OR (io.sole_owner IS NULL
                   AND EXISTS (SELECT 1 FROM output_addresses ioa WHERE ioa.output_id = io.id AND ioa.address = at.address))))) d GROUP BY bucket`;
  // Per interval and over the window (its row has grouping(bucket) = 1), or over the window only.
  // An interval counts as active when it holds outputs or transactions: one whose rows a minute's
  // kept row and the rows outside the window cancel (all outside) is left out, as it has none.
  const [grouping, windowColumns] =
    p.intervalSize === undefined
      ? ["()", "1 AS whole_window, '0'"]
      : ["GROUPING SETS ((bucket), ()) HAVING grouping(bucket) = 1 OR sum(outputs) <> 0 OR sum(transactions) <> 0", "grouping(bucket) AS whole_window, bucket::text"];
  // Each set of rows from the tables (the partial minutes' outputs, owners and transactions) is
  // summed per bucket before the union, so the final grouping (its count of distinct assets sorts
  // its input) reads a few rows per interval instead of one per row of the partial minutes.
  const rows = await db.query(
    `WITH partial AS (${minutes.partialRows(
      (rows) => `SELECT ${bucket("o.accepted_at")} AS bucket, o.id, o.transaction_id, o.asset_id, o.amount,
         o.accepted_at - o.accepted_at % ${MINUTE_MS} AS minute, o.created_on_chain_id AS chain_id, ${rows.sign} AS sign, o.sole_owner
         ${complemented === undefined ? "" : `, ${rows.pieceFirst} AS piece_first, ${rows.pieceLast} AS piece_last`} FROM outputs o
       WHERE ${rows.condition}${outputFilter("o.created_on_chain_id", "o.asset_id")}`,
      "o.accepted_at",
      "outputs",
    )}),
     facts (bucket, asset_id, volume, outputs, owners, transactions) AS (
       SELECT ${bucket("m.minute")}, ${keptAsset}, CASE WHEN m.asset_id = ${volumeAsset} THEN m.volume ELSE 0 END, m.outputs, m.owners,
              ${asset === undefined ? "0::bigint" : "m.transactions"}
         FROM explorer_minute_outputs m WHERE ${minutes.wholeMinutes("m.minute", "outputs")}${outputFilter("m.chain_id", "m.asset_id")}
       UNION ALL SELECT bucket, CASE WHEN sign > 0 THEN asset_id END, sign * CASE WHEN asset_id = ${volumeAsset} THEN sum(amount) ELSE 0 END, sign * count(*), 0, 0
         FROM partial GROUP BY bucket, asset_id, sign
       -- the partial minutes' owners, once per minute, chain and asset, from their outputs' rows (OWNERS_OF_W)
       UNION ALL SELECT bucket, NULL, 0, 0, count(*), 0 FROM (SELECT DISTINCT w.bucket, w.minute, w.chain_id, w.asset_id, oa.address
         FROM partial w CROSS JOIN LATERAL (${OWNERS_OF_W}) oa WHERE w.sign > 0) d GROUP BY bucket
       ${ownersOutside}
       ${transactions})
     SELECT ${windowColumns} AS bucket, coalesce(sum(volume), 0)::text AS volume, sum(outputs) AS outputs,
       count(DISTINCT asset_id) AS assets, sum(owners) AS addresses, sum(transactions) AS transactions
     FROM facts GROUP BY ${grouping}`,
    params.values,
  );
  return { window: rows.find((r) => int(r, "whole_window") === 1), buckets: new Map(rows.filter((r) => int(r, "whole_window") === 0).map((r) => [text(r, "bucket"), r])) };
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
    // Whole minutes from the per-minute fees kept at ingest, the partial ones from the rows (or their
    // kept rows less the rows outside); an interval without transactions is none of the answer's.
    const rows = await db.query(
      `SELECT bucket::text AS bucket, sum(txfee)::text AS txfee FROM (
         SELECT ${integerBucketSql(params, "minute", size)} AS bucket, txfee, transactions FROM explorer_minute_transactions WHERE ${minutes.wholeMinutes("minute", "transactions")}${chains}
         UNION ALL ${minutes.partialRows((rows) => `SELECT ${integerBucketSql(params, "accepted_at", size)}, ${rows.sign} * tx_fee, ${rows.sign} FROM transactions WHERE ${rows.condition}${chains}`, "accepted_at", "transactions")}) x
       GROUP BY bucket HAVING sum(transactions) <> 0`,
      params.values,
    );
    return new Map(rows.map((r) => [text(r, "bucket"), text(r, "txfee")]));
  });
}
