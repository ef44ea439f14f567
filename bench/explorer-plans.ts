/**
 * The query plans of the explorer's reads: every statement the reader runs for the lists and
 * lookups the benchmark measures (the `/v2` endpoints and the pages ask the same reader) is
 * recorded, then `EXPLAIN`ed with the same parameters, and each sequential scan of a table that
 * grows with the chain is reported. With `forbidSeqScan` the planner is told to avoid sequential
 * scans (`enable_seqscan = off`), so at a small size, where scanning a few rows is cheaper than an
 * index, a scan still shown means no index can answer the query.
 *
 * Both are reported whatever the option: the scans the planner chooses (with the rows it counts in
 * each table scanned: at 100,000 containers the per-minute tables hold 168 rows, and an hour's
 * window reads a third of them, which no index read beats) and those it keeps when told to avoid
 * them (`unindexedScans`: reads that would grow with the chain at any size).
 */
import type { SqlDatabase, SqlQueries, SqlValue } from "../src/services/sql/database";
import type { ExplorerContext } from "../src/services/explorer/context";
import { createExplorerReader, type ExplorerReader } from "../src/services/explorer/reader";
import { CHAIN_SIZED_TABLES } from "../src/services/explorer/schema";

/** Tables whose size follows the chain's: a sequential scan of one grows with it. */
export const GROWING_TABLES: readonly string[] = CHAIN_SIZED_TABLES;

/** A sample of the data to ask about: IDs that exist in the database. */
export interface PlanSample {
  transactionId: string;
  outputId: string;
  address: string;
  assetId: string;
  /** The sampled transaction's acceptance time (Unix ms): windows of the aggregates end there (now when absent). */
  time?: number;
}

export interface PlanFinding {
  /** Which read ran the statement. */
  read: string;
  statement: string;
  /** The growing tables it scans sequentially ([] when none). */
  seqScans: string[];
  /** The growing tables it scans sequentially even when told to avoid it (enable_seqscan = off): no index answers the read. */
  unindexedScans: string[];
  /** The planner's count of rows (pg_class.reltuples) of each table in `seqScans`. */
  tableRows: Record<string, number>;
}

const ALL_TIME = { startTime: 0, endTime: 8_640_000_000_000_000 };

/** The reads the benchmark's endpoints and pages make, by name. */
export function planReads(sample: PlanSample, context: ExplorerContext): Record<string, (reader: ExplorerReader) => Promise<unknown>> {
  const list = { ...ALL_TIME, limit: 100, chainIds: [], addresses: [] };
  const end = sample.time ?? Date.now();
  return {
    "/v2/transactions (newest first)": (r) => r.transactions({ ...list, sort: "timestamp-desc" }),
    "/v2/transactions?chainID=X": (r) => r.transactions({ ...list, chainIds: [context.chains.X], sort: "timestamp-desc" }),
    "/v2/transactions?address=…": (r) => r.transactions({ ...list, addresses: [sample.address], sort: "timestamp-desc" }),
    "/v2/transactions/{id}": (r) => r.transaction(sample.transactionId),
    "/v2/addresses": (r) => r.addresses(list),
    "/v2/addresses/{address}": (r) => r.address(sample.address),
    "/v2/addresses?address=…": (r) => r.addresses({ ...list, addresses: [sample.address] }),
    "/v2/outputs": (r) => r.outputs(list),
    "/v2/outputs/{id}": (r) => r.output(sample.outputId),
    "/v2/assets": (r) => r.assets({ ...ALL_TIME, limit: 100, chainIds: [] }),
    "/v2/assets/{id}": (r) => r.asset(sample.assetId),
    "asset page holders": (r) => r.assetHolders(sample.assetId, 25),
    "/v2/cblocks": (r) => r.cBlocks({ blockLimit: 100, transactionLimit: 100, addresses: [] }),
    "/v2/ctransactions": (r) => r.cTransactions({ ...ALL_TIME, limit: 100 }),
    "/v2/aggregates (an hour, cut inside minutes)": (r) => r.aggregates({ startTime: end - 3_600_000 + 1_234, endTime: end, chainIds: [] }),
    "/v2/aggregates?intervalSize=minute&assetID=…": (r) => r.aggregates({ startTime: end - 3_600_000, endTime: end, chainIds: [], assetId: sample.assetId, intervalSize: "minute" }),
    "/v2/txfeeAggregates?intervalSize=minute": (r) => r.txfeeAggregates({ startTime: end - 3_600_000 + 1_234, endTime: end, chainIds: [], intervalSize: "minute" }),
    "/v2/search?query=<transaction ID prefix>": (r) => r.search(sample.transactionId.slice(0, 8), 100),
    "/v2/search?query=<address prefix>": (r) => r.search(sample.address.slice(0, 12), 100),
  };
}

/** Runs each read once, recording its statements, and answers the plan of each. */
export async function explainReads(db: SqlDatabase, context: ExplorerContext, sample: PlanSample, options: { forbidSeqScan?: boolean } = {}): Promise<PlanFinding[]> {
  const findings: PlanFinding[] = [];
  for (const [read, run] of Object.entries(planReads(sample, context))) {
    const statements: { text: string; params: readonly SqlValue[] }[] = [];
    const recording: SqlQueries = {
      query: (text, params = []) => {
        statements.push({ text, params });
        return db.query(text, params);
      },
    };
    await run(createExplorerReader(recording, context));
    for (const { text, params } of statements) {
      const scans = (forbid: boolean) => growingSeqScans(db, text, params, forbid);
      const [planned, unindexedScans] = [await scans(false), await scans(true)];
      const seqScans = options.forbidSeqScan === true ? unindexedScans : planned;
      const tableRows: Record<string, number> = {};
      for (const table of seqScans) tableRows[table] = Number((await db.query("SELECT reltuples::bigint::text AS n FROM pg_class WHERE relname = $1", [table]))[0]?.n ?? -1);
      findings.push({ read, statement: text.replace(/\s+/g, " ").trim(), seqScans, unindexedScans, tableRows });
    }
  }
  return findings;
}

/** The growing tables a statement's plan scans sequentially, with sequential scans allowed or told to be avoided. */
async function growingSeqScans(db: SqlDatabase, text: string, params: readonly SqlValue[], forbid: boolean): Promise<string[]> {
  const plan = await db.transaction(async (tx) => {
    if (forbid) await tx.query("SET LOCAL enable_seqscan = off");
    return tx.query(`EXPLAIN ${text}`, params);
  });
  const lines = plan.map((row) => String(Object.values(row)[0]));
  return [...new Set(lines.flatMap((line) => [...line.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!)))].filter((table) => GROWING_TABLES.includes(table));
}

/** A sample of existing IDs: the newest transaction with outputs, its first output and owner. */
export async function samplePlanData(db: SqlQueries, context: ExplorerContext): Promise<PlanSample> {
  const [row] = await db.query(
    `SELECT o.transaction_id, o.id AS output_id, oa.address, o.accepted_at::text AS accepted_at FROM outputs o JOIN output_addresses oa ON oa.output_id = o.id
     ORDER BY o.accepted_at DESC LIMIT 1`,
  );
  if (row === undefined) throw new Error("the explorer holds no outputs to sample");
  return { transactionId: String(row.transaction_id), outputId: String(row.output_id), address: String(row.address), assetId: context.nativeAssetId, time: Number(row.accepted_at) };
}
