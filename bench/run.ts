/**
 * `npm run bench`: nativekit node against Hardhat 2's `hardhat node` (EDR) and anvil (Foundry),
 * side by side in one run, over the same HTTP transport and the same client.
 *
 *   start-up            spawn -> first answered eth_chainId (median of --startups samples)
 *   cold transfers/s    the first --cold ERC-20 transfers on each freshly started node (each
 *                       start-up sample), as a user's first script or test run meets it
 *   warm transfers/s    after a warm-up, in rounds that rotate the peers (all running) so load
 *                       swings hit every one
 *   deposit+withdraw/s  nativekit only: wrap and unwrap a native asset through the precompile
 *
 * `npm run bench -- suite` is the suite benchmark instead (bench/suite.ts): a dApp test file
 * run with `hardhat test` on nativekit's network and on Hardhat's, fresh processes, alternating.
 * `npm run bench -- suite-hardhat3` runs its ERC-20 file the same way under Hardhat 3, in a
 * project it builds from the packed package (bench/suite-hardhat3.ts).
 *
 * Progress goes to stderr; the table (or, with --json, the figures as JSON) to stdout.
 * Exits 0 when everything ran, whether or not the goals were met; 1 if something failed to
 * run, 2 on a bad command line, 130 when interrupted.
 */
import * as os from "node:os";
import { parseArgs } from "node:util";

import { PEER_NAMES, type PeerName, type PeerProcess, type PeerSpec, anvilPeer, hardhatPeer, nativekitPeer, startPeer, stopAll } from "./peers";
import { COLD_CURVE_GROUP, type RoundTripResult, type TransferResult, TransferWorkload, runRoundTrips } from "./scenarios";
import { SUITE_USAGE, measureSuites, parseSuiteOptions, printSuiteTable, stopSuiteProcesses } from "./suite";
import { explorerBenchMain } from "./explorer";
import { logsBenchMain } from "./logs";
import { nodeStartBenchMain } from "./node-start";
import { SUITE_HARDHAT3_USAGE, measureHardhat3Suite, parseHardhat3SuiteOptions, printHardhat3SuiteTable, stopHardhat3Processes } from "./suite-hardhat3";

const USAGE = `Usage: npm run bench -- [options]
       npm run bench -- suite [options]     (the suite benchmark; see --help there)
       npm run bench -- suite-hardhat3 [options]  (the same ERC-20 suite under Hardhat 3; see --help there)
       npm run bench -- explorer [options]  (the explorer: indexing and endpoint latency; --containers <n> [--postgres] at scale; see --help there)
       npm run bench -- logs [options]      (eth_getLogs over a long chain when few blocks match; see --help there)
       npm run bench -- node-start [options]  (start-up and memory of a node with --db-dir at two chain lengths; see --help there)

Measures nativekit node against hardhat node (EDR) and anvil over JSON-RPC/HTTP.

Options:
  --cold <n>          transfers timed from the first one on each freshly started peer, once
                      per start-up sample; the median is the cold figure (default 300)
  --transfers <n>     timed ERC-20 transfers per peer once warm (default 1000)
  --rounds <n>        split them into n rounds that rotate the peers (default 10)
  --warmup <n>        transfers after the cold ones, before the timed ones, until the JIT has
                      settled (default 2000; round trips warm up with a quarter)
  --roundtrips <n>    timed deposit+withdraw round trips on nativekit (default 300)
  --startups <n>      start-up samples per peer, each followed by the cold transfers; the
                      medians are reported (default 3)
  --json              print the figures as JSON instead of the table
  --help, -h          show this help
`;

/** Goals set for nativekit relative to its peers. */
const GOALS = {
  /** nativekit start-up / hardhat start-up, at most. */
  startupRatioMax: 0.5,
  /** nativekit transfers/s / the faster peer's transfers/s, at least: cold and warm. */
  transferRatioMin: 1.0,
};

/** The peers nativekit's transfer rates are compared with (the faster one counts). */
const RIVALS = ["hardhat", "anvil"] as const;

interface Options {
  cold: number;
  transfers: number;
  rounds: number;
  warmup: number;
  roundTrips: number;
  startups: number;
  json: boolean;
}

function parseOptions(argv: string[]): Options | "help" {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      cold: { type: "string" },
      transfers: { type: "string" },
      rounds: { type: "string" },
      warmup: { type: "string" },
      roundtrips: { type: "string" },
      startups: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const count = (name: string, raw: string | undefined, fallback: number, min: number): number => {
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
      throw new UsageError(`--${name} expects an integer >= ${min}, got ${JSON.stringify(raw)}`);
    }
    return Number(raw);
  };
  const transfers = count("transfers", values.transfers, 1000, 1);
  const rounds = count("rounds", values.rounds, 10, 1);
  if (rounds > transfers) throw new UsageError(`--rounds ${rounds} is more than --transfers ${transfers}: each round needs at least one transfer`);
  return {
    cold: count("cold", values.cold, 300, 1),
    transfers,
    rounds,
    warmup: count("warmup", values.warmup, 2000, 0),
    roundTrips: count("roundtrips", values.roundtrips, 300, 1),
    startups: count("startups", values.startups, 3, 1),
    json: values.json === true,
  };
}

class UsageError extends Error {}

interface PeerFigures {
  description: string;
  startupSamplesMs: number[];
  startupMedianMs: number;
  /** Cold transfers/s of each start-up sample (a fresh process each), and their median. */
  coldSamplesPerSecond: number[];
  coldMedianPerSecond: number;
  /** The cold phase's curve (ms per transfer by groups of COLD_CURVE_GROUP) of each start-up sample. */
  coldCurvesMs: number[][];
  transfers?: TransferResult;
  roundTrips?: RoundTripResult;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** The order of the peers in round `r`: rotates, so each goes first as often as the others. */
const rotation = (r: number): PeerName[] => PEER_NAMES.map((_, i) => PEER_NAMES[(i + r) % PEER_NAMES.length]!);

/** nativekit's rate over the faster rival's, and which rival that was. */
function againstFaster(rates: Record<PeerName, number>): { ratio: number; versus: PeerName } {
  const versus = RIVALS.reduce<PeerName>((best, name) => (rates[name] > rates[best] ? name : best), RIVALS[0]);
  return { ratio: rates.nativekit / rates[versus], versus };
}

/** One round of the interleaved transfer measurement. */
interface TransferRound {
  order: PeerName[];
  perSecond: Record<PeerName, number>;
  /** nativekit / the faster of hardhat and anvil, in this round. */
  ratio: number;
}

async function measure(options: Options): Promise<{ peers: Record<PeerName, PeerFigures>; rounds: TransferRound[] }> {
  const specs: Record<PeerName, PeerSpec> = { nativekit: nativekitPeer(), hardhat: hardhatPeer(), anvil: anvilPeer() };
  const samples: Record<PeerName, number[]> = { nativekit: [], hardhat: [], anvil: [] };
  const cold: Record<PeerName, number[]> = { nativekit: [], hardhat: [], anvil: [] };
  const curves: Record<PeerName, number[][]> = { nativekit: [], hardhat: [], anvil: [] };
  const running: Partial<Record<PeerName, PeerProcess>> = {};
  const workloads: Partial<Record<PeerName, TransferWorkload>> = {};
  const figures: Partial<Record<PeerName, Pick<PeerFigures, "transfers" | "roundTrips">>> = {};
  const rounds: TransferRound[] = [];

  try {
    for (let round = 0; round < options.startups; round++) {
      // Rotate the order so no peer always starts on the warmest disk cache.
      const last = round === options.startups - 1;
      for (const name of rotation(round)) {
        const { peer, startupMs } = await startPeer(specs[name]);
        samples[name].push(startupMs);
        // The cold figure: the first transfers on this fresh process, right after the token's
        // deployment. The last sample's process then warms up and stays for the warm rounds.
        const workload = await TransferWorkload.prepare(peer.client, {
          cold: options.cold,
          warmup: last ? options.warmup : 0,
          timed: last ? options.transfers : 0,
        });
        let coldRate: number;
        if (last) {
          running[name] = peer;
          workloads[name] = workload;
          coldRate = workload.coldPhase.perSecond;
        } else {
          coldRate = (await workload.finish()).cold.perSecond;
          await peer.stop();
        }
        cold[name].push(coldRate);
        curves[name].push(workload.coldPhase.curveMs);
        progress(
          `${name}: start-up ${(startupMs / 1000).toFixed(2)} s (pid ${peer.pid}, sample ${round + 1}/${options.startups}), ` +
            `first ${options.cold} transfers ${coldRate.toFixed(1)}/s${last && options.warmup > 0 ? `, then ${options.warmup} warm-up transfers` : ""}`,
        );
      }
    }

    // All peers are up; each is driven only while the others wait, one round at a time, so a
    // change in the machine's load lands on every peer instead of on whichever ran last.
    for (let r = 0; r < options.rounds; r++) {
      const size = Math.floor(((r + 1) * options.transfers) / options.rounds) - Math.floor((r * options.transfers) / options.rounds);
      const order = rotation(r);
      const perSecond = {} as Record<PeerName, number>;
      for (const name of order) perSecond[name] = size / (await workloads[name]!.runBatch(size));
      const { ratio } = againstFaster(perSecond);
      rounds.push({ order, perSecond, ratio });
      progress(
        `transfers round ${r + 1}/${options.rounds} (${size} each, ${order[0]} first): ` +
          PEER_NAMES.map((n) => `${n} ${perSecond[n].toFixed(1)}/s`).join(", ") +
          `, ratio ${ratio.toFixed(2)}`,
      );
    }
    for (const name of PEER_NAMES) {
      const transfers = await workloads[name]!.finish();
      progress(`${name}: ${transfers.perSecond.toFixed(1)} transfers/s (${transfers.transfers} in ${transfers.seconds.toFixed(2)} s; verified)`);
      figures[name] = { transfers };
    }
    await running.hardhat!.stop();
    await running.anvil!.stop();
    const roundTrips = await runRoundTrips(running.nativekit!.client, options.roundTrips, Math.ceil(options.warmup / 4));
    progress(`nativekit: ${roundTrips.perSecond.toFixed(1)} deposit+withdraw round trips/s (${roundTrips.roundTrips} in ${roundTrips.seconds.toFixed(2)} s; verified)`);
    figures.nativekit!.roundTrips = roundTrips;
  } finally {
    for (const peer of Object.values(running)) await peer.stop();
  }

  const out = {} as Record<PeerName, PeerFigures>;
  for (const name of PEER_NAMES) {
    out[name] = {
      description: specs[name].description,
      startupSamplesMs: samples[name],
      startupMedianMs: median(samples[name]),
      coldSamplesPerSecond: cold[name],
      coldMedianPerSecond: median(cold[name]),
      coldCurvesMs: curves[name],
      ...figures[name],
    };
  }
  return { peers: out, rounds };
}

interface Report {
  environment: { node: string; platform: string; cpus: number; cpuModel: string; loadAverage1mAtEnd: number };
  options: Options;
  peers: Record<PeerName, PeerFigures>;
  startup: { seconds: Record<PeerName, number>; ratio: number; ratioToAnvil: number; goal: string; ok: boolean };
  /** Cold: medians over the start-up samples of the first --cold transfers on a fresh process. */
  cold: { transfers: number; samples: number; perSecond: Record<PeerName, number>; ratio: number; versus: PeerName; goal: string; ok: boolean };
  /** Warm: after the warm-up, in rotating rounds; the ratio is of the totals. */
  transfers: {
    perSecond: Record<PeerName, number>;
    ratio: number;
    versus: PeerName;
    goal: string;
    ok: boolean;
    /** Per-round ratios (the peers rotate); their spread shows how steady the machine was. */
    rounds: TransferRound[];
    roundRatios: { median: number; min: number; max: number };
  };
  /** The demo's whole cross-chain journey on the embedded node (no peer has these chains). */
  journey: { samplesMs: number[]; medianMs: number };
  roundTrips: {
    nativekitPerSecond: number;
    /** Round trips/s divided by nativekit's own warm transfers/s (a round trip is 2 transactions). */
    ratioToNativekitTransfers: number;
    /** ... and by the faster rival's warm transfers/s. */
    ratioToFasterTransfers: number;
  };
}

/** Wall time of the demo's journey (create, export, import, wrap, transfer, unwrap, export, import). */
async function measureJourney(samples: number): Promise<Report["journey"]> {
  const { runEmbeddedJourney } = await import("../scripts/demo");
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const result = await runEmbeddedJourney(() => {});
    if (!result.balancesAddUp) throw new Error("the journey's balances did not add up");
    times.push(result.elapsedMs);
    progress(`journey ${i + 1}/${samples}: ${(result.elapsedMs / 1000).toFixed(2)} s (balances add up)`);
  }
  return { samplesMs: times, medianMs: median(times) };
}

function buildReport(options: Options, peers: Record<PeerName, PeerFigures>, rounds: TransferRound[], journey: Report["journey"]): Report {
  const each = <T>(f: (p: PeerFigures) => T): Record<PeerName, T> =>
    Object.fromEntries(PEER_NAMES.map((n) => [n, f(peers[n])])) as Record<PeerName, T>;
  const startupSeconds = each((p) => p.startupMedianMs / 1000);
  const startupRatio = startupSeconds.nativekit / startupSeconds.hardhat;
  const coldRates = each((p) => p.coldMedianPerSecond);
  const coldVs = againstFaster(coldRates);
  const warmRates = each((p) => p.transfers!.perSecond);
  const warmVs = againstFaster(warmRates);
  const rt = peers.nativekit.roundTrips!.perSecond;
  return {
    environment: environment(),
    options,
    peers,
    startup: {
      seconds: startupSeconds,
      ratio: startupRatio,
      ratioToAnvil: startupSeconds.nativekit / startupSeconds.anvil,
      goal: `<= ${GOALS.startupRatioMax} (of hardhat's)`,
      ok: startupRatio <= GOALS.startupRatioMax,
    },
    cold: {
      transfers: options.cold,
      samples: options.startups,
      perSecond: coldRates,
      ...coldVs,
      goal: `>= ${GOALS.transferRatioMin}`,
      ok: coldVs.ratio >= GOALS.transferRatioMin,
    },
    transfers: {
      perSecond: warmRates,
      ...warmVs,
      goal: `>= ${GOALS.transferRatioMin}`,
      ok: warmVs.ratio >= GOALS.transferRatioMin,
      rounds,
      roundRatios: { median: median(rounds.map((r) => r.ratio)), min: Math.min(...rounds.map((r) => r.ratio)), max: Math.max(...rounds.map((r) => r.ratio)) },
    },
    roundTrips: { nativekitPerSecond: rt, ratioToNativekitTransfers: rt / warmRates.nativekit, ratioToFasterTransfers: rt / warmRates[warmVs.versus] },
    journey,
  };
}

function printTable(r: Report): void {
  const verdict = (ok: boolean) => (ok ? "OK" : "BELOW GOAL");
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const rates = (x: Record<PeerName, number>, digits = 1) => PEER_NAMES.map((n) => `${n} ${x[n].toFixed(digits)}`).join("    ");
  const lines = [
    "",
    `nativekit bench — Node ${r.environment.node}, ${r.environment.platform}, ${r.environment.cpus} CPUs (${r.environment.cpuModel}), load average ${r.environment.loadAverage1mAtEnd.toFixed(2)} at the end`,
    ...PEER_NAMES.map((n) => `  ${(n + ":").padEnd(10)} ${r.peers[n].description}`),
    `  transport: JSON-RPC over HTTP/1.1, one keep-alive connection, one request in flight (same client for all)`,
    `  cold: the first ${r.cold.transfers} transfers on a freshly started peer, once per start-up sample (${r.cold.samples}), median`,
    `  warm: after ${r.options.warmup} more, all peers up, driven in turn, ${r.options.rounds} rounds rotating which goes first; the ratio is of the totals`,
    `  ratios are nativekit / the faster of hardhat and anvil (named after the ratio)`,
    "",
    `start-up (s)           ${rates(r.startup.seconds, 2)}    ratio ${r.startup.ratio.toFixed(2)} (goal ${r.startup.goal}) ${verdict(r.startup.ok)}; ` +
      `${r.startup.ratioToAnvil.toFixed(2)} of anvil's`,
    `cold transfers/s       ${rates(r.cold.perSecond)}    ratio ${r.cold.ratio.toFixed(2)} vs ${r.cold.versus} (goal ${r.cold.goal}) ${verdict(r.cold.ok)}`,
    `warm transfers/s       ${rates(r.transfers.perSecond)}    ratio ${r.transfers.ratio.toFixed(2)} vs ${r.transfers.versus} (goal ${r.transfers.goal}) ${verdict(r.transfers.ok)}; ` +
      `${r.transfers.rounds.length} rounds, ratio median ${r.transfers.roundRatios.median.toFixed(2)} (${r.transfers.roundRatios.min.toFixed(2)}–${r.transfers.roundRatios.max.toFixed(2)})`,
    `deposit+withdraw/s     nativekit ${r.roundTrips.nativekitPerSecond.toFixed(1)} round trips (${(2 * r.roundTrips.nativekitPerSecond).toFixed(1)} tx/s)    ` +
      `ratio ${r.roundTrips.ratioToNativekitTransfers.toFixed(2)} of nativekit's warm transfers/s, ` +
      `${r.roundTrips.ratioToFasterTransfers.toFixed(2)} of ${r.transfers.versus}'s (2 tx per round trip: 0.5 = same cost per tx)`,
    `cross-chain journey    nativekit ${(r.journey.medianMs / 1000).toFixed(2)} s wall (median of ${r.journey.samplesMs.length}; create asset, export, import, wrap, transfer, unwrap, export, import)`,
    "",
    "details",
  ];
  for (const n of PEER_NAMES) {
    const p = r.peers[n];
    lines.push(
      `  ${n.padEnd(10)} start-up ${p.startupSamplesMs.map((x) => (x / 1000).toFixed(2)).join(", ")} s; ` +
        `cold ${p.coldSamplesPerSecond.map((x) => x.toFixed(1)).join(", ")} transfers/s (medians reported)`,
    );
  }
  lines.push(`  cold curve: ms per transfer of each ${COLD_CURVE_GROUP} in order, per start-up sample, in the order they ran`);
  for (const n of PEER_NAMES) {
    for (const curve of r.peers[n].coldCurvesMs) lines.push(`    ${n.padEnd(10)} ${curve.map((x) => x.toFixed(2)).join(" ")}`);
  }
  for (const n of PEER_NAMES) {
    const t = r.peers[n].transfers!;
    lines.push(
      `  warm ${n.padEnd(10)} ${t.transfers} timed after ${t.cold.transfers} cold + ${t.warmup} warm-up (${t.warmupSeconds.toFixed(2)} s) in ${t.seconds.toFixed(2)} s; latency ` +
        `mean ${ms(t.latency.meanMs)} p50 ${ms(t.latency.p50Ms)} p95 ${ms(t.latency.p95Ms)} max ${ms(t.latency.maxMs)}; ` +
        `extra receipt polls ${t.extraReceiptPolls}; verified: ${t.verified}`,
    );
  }
  const rt = r.peers.nativekit.roundTrips!;
  lines.push(
    `  round trips     ${rt.roundTrips} timed after ${rt.warmup} warm-up in ${rt.seconds.toFixed(2)} s; latency ` +
      `mean ${ms(rt.latency.meanMs)} p50 ${ms(rt.latency.p50Ms)} p95 ${ms(rt.latency.p95Ms)} max ${ms(rt.latency.maxMs)}; ` +
      `extra receipt polls ${rt.extraReceiptPolls}; verified: ${rt.verified}`,
    "",
  );
  process.stdout.write(lines.join("\n") + "\n");
}

let interrupted = false;

/**
 * Parses a command line with `parse`; on --help prints `usage` and resolves to exit code 0,
 * on a bad command line prints the error and `usage` and resolves to 2.
 */
function commandLine<T>(parse: () => T | "help", usage: string): T | number {
  let options: T | "help";
  try {
    options = parse();
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n\n${usage}`);
    return 2;
  }
  if (options !== "help") return options;
  process.stdout.write(usage);
  return 0;
}

/** `npm run bench -- suite ...`: the suite benchmark (bench/suite.ts). */
async function suiteMain(argv: string[]): Promise<number> {
  const options = commandLine(() => parseSuiteOptions(argv), SUITE_USAGE);
  if (typeof options === "number") return options;
  const started = Date.now();
  const report = await measureSuites(options.runs, options.wrapped);
  progress(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (options.json) process.stdout.write(JSON.stringify({ environment: environment(), ...report }, null, 2) + "\n");
  else printSuiteTable(report);
  return 0;
}

/** `npm run bench -- suite-hardhat3 ...`: the ERC-20 suite under Hardhat 3 (bench/suite-hardhat3.ts). */
async function suiteHardhat3Main(argv: string[]): Promise<number> {
  const options = commandLine(() => parseHardhat3SuiteOptions(argv), SUITE_HARDHAT3_USAGE);
  if (typeof options === "number") return options;
  const started = Date.now();
  const report = await measureHardhat3Suite(options);
  progress(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (options.json) process.stdout.write(JSON.stringify({ environment: environment(), ...report }, null, 2) + "\n");
  else printHardhat3SuiteTable(report);
  return 0;
}

function environment(): Report["environment"] {
  const cpus = os.cpus();
  return { node: process.version, platform: `${os.platform()} ${os.arch()}`, cpus: cpus.length, cpuModel: cpus[0]?.model ?? "?", loadAverage1mAtEnd: os.loadavg()[0]! };
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv[0] === "suite") return suiteMain(argv.slice(1));
  if (argv[0] === "suite-hardhat3") return suiteHardhat3Main(argv.slice(1));
  if (argv[0] === "explorer") return explorerBenchMain(argv.slice(1));
  if (argv[0] === "logs") return logsBenchMain(argv.slice(1));
  if (argv[0] === "node-start") return nodeStartBenchMain(argv.slice(1));
  const options = commandLine(() => parseOptions(argv), USAGE);
  if (typeof options === "number") return options;
  const started = Date.now();
  const { peers, rounds } = await measure(options);
  const journey = await measureJourney(3);
  const report = buildReport(options, peers, rounds, journey);
  progress(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (options.json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  else printTable(report);
  return 0;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    progress(`${signal} received: stopping the processes this benchmark started...`);
    void Promise.all([stopAll(), stopSuiteProcesses(), stopHardhat3Processes()]).finally(() => process.exit(130));
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  async (e: unknown) => {
    if (interrupted) return;
    process.stderr.write(`[bench] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    await Promise.all([stopAll(), stopSuiteProcesses(), stopHardhat3Processes()]);
    process.exitCode = 1;
  },
);
