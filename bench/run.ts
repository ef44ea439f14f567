/**
 * `npm run bench`: nativekit node against Hardhat 2's `hardhat node` (EDR), side by side in
 * one run, over the same HTTP transport and the same client.
 *
 *   start-up            spawn -> first answered eth_chainId (median of --startups samples)
 *   transfers/s         ERC-20 transfers with automine, sent and waited for one at a time, in
 *                       rounds that alternate the peers (both running) so load swings hit both
 *   deposit+withdraw/s  nativekit only: wrap and unwrap a native asset through the precompile
 *
 * Progress goes to stderr; the table (or, with --json, the figures as JSON) to stdout.
 * Exits 0 when everything ran, whether or not the goals were met; 1 if something failed to
 * run, 2 on a bad command line, 130 when interrupted.
 */
import * as os from "node:os";
import { parseArgs } from "node:util";

import { type PeerName, type PeerProcess, type PeerSpec, hardhatPeer, nativekitPeer, startPeer, stopAll } from "./peers";
import { type RoundTripResult, type TransferResult, TransferWorkload, runRoundTrips } from "./scenarios";

const USAGE = `Usage: npm run bench -- [options]

Measures nativekit node against hardhat node (EDR) over JSON-RPC/HTTP.

Options:
  --transfers <n>     timed ERC-20 transfers per peer (default 1000)
  --rounds <n>        split them into n rounds that alternate the peers (default 10)
  --warmup <n>        transfers first, until the JIT has settled (default 2000); their rate
                      is reported apart, as the cold figure (round trips warm up with a quarter)
  --roundtrips <n>    timed deposit+withdraw round trips on nativekit (default 300)
  --startups <n>      start-up samples per peer, the median is reported (default 3)
  --json              print the figures as JSON instead of the table
  --help, -h          show this help
`;

/** Goals set for nativekit relative to Hardhat's EDR. */
const GOALS = {
  /** nativekit start-up / hardhat start-up, at most. */
  startupRatioMax: 0.5,
  /** nativekit transfers/s / hardhat transfers/s, at least. */
  transferRatioMin: 1.0,
};

interface Options {
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
  transfers?: TransferResult;
  roundTrips?: RoundTripResult;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** One round of the interleaved transfer measurement. */
interface TransferRound {
  order: PeerName[];
  perSecond: Record<PeerName, number>;
  /** nativekit / hardhat in this round. */
  ratio: number;
}

async function measure(options: Options): Promise<{ peers: Record<PeerName, PeerFigures>; rounds: TransferRound[] }> {
  const specs: Record<PeerName, PeerSpec> = { nativekit: nativekitPeer(), hardhat: hardhatPeer() };
  const samples: Record<PeerName, number[]> = { nativekit: [], hardhat: [] };
  const running: Partial<Record<PeerName, PeerProcess>> = {};
  const figures: Partial<Record<PeerName, Pick<PeerFigures, "transfers" | "roundTrips">>> = {};
  const rounds: TransferRound[] = [];

  try {
    for (let round = 0; round < options.startups; round++) {
      // Alternate the order so neither peer always starts on the warmer disk cache.
      const order: PeerName[] = round % 2 === 0 ? ["nativekit", "hardhat"] : ["hardhat", "nativekit"];
      const last = round === options.startups - 1;
      for (const name of order) {
        const { peer, startupMs } = await startPeer(specs[name]);
        samples[name].push(startupMs);
        progress(`${name}: start-up ${(startupMs / 1000).toFixed(2)} s (pid ${peer.pid}, sample ${round + 1}/${options.startups})`);
        // The last pair stays up for the throughput measurements.
        if (last) running[name] = peer;
        else await peer.stop();
      }
    }
    const nativekit = running.nativekit!;
    const hardhat = running.hardhat!;

    // Both peers are up; each is driven only while the other waits, one round at a time, so a
    // change in the machine's load lands on both instead of on whichever ran second.
    const workloads: Record<PeerName, TransferWorkload> = {
      nativekit: await TransferWorkload.prepare(nativekit.client, options.warmup, options.transfers),
      hardhat: await TransferWorkload.prepare(hardhat.client, options.warmup, options.transfers),
    };
    for (let r = 0; r < options.rounds; r++) {
      const size = Math.floor(((r + 1) * options.transfers) / options.rounds) - Math.floor((r * options.transfers) / options.rounds);
      const order: PeerName[] = r % 2 === 0 ? ["nativekit", "hardhat"] : ["hardhat", "nativekit"];
      const perSecond = {} as Record<PeerName, number>;
      for (const name of order) perSecond[name] = size / (await workloads[name].runBatch(size));
      const ratio = perSecond.nativekit / perSecond.hardhat;
      rounds.push({ order, perSecond, ratio });
      progress(
        `transfers round ${r + 1}/${options.rounds} (${size} each, ${order[0]} first): nativekit ${perSecond.nativekit.toFixed(1)}/s, ` +
          `hardhat ${perSecond.hardhat.toFixed(1)}/s, ratio ${ratio.toFixed(2)}`,
      );
    }
    for (const name of ["nativekit", "hardhat"] as const) {
      const transfers = await workloads[name].finish();
      progress(`${name}: ${transfers.perSecond.toFixed(1)} transfers/s (${transfers.transfers} in ${transfers.seconds.toFixed(2)} s; verified)`);
      figures[name] = { transfers };
    }
    await hardhat.stop();
    const roundTrips = await runRoundTrips(nativekit.client, options.roundTrips, Math.ceil(options.warmup / 4));
    progress(`nativekit: ${roundTrips.perSecond.toFixed(1)} deposit+withdraw round trips/s (${roundTrips.roundTrips} in ${roundTrips.seconds.toFixed(2)} s; verified)`);
    figures.nativekit!.roundTrips = roundTrips;
  } finally {
    for (const peer of Object.values(running)) await peer.stop();
  }

  const out = {} as Record<PeerName, PeerFigures>;
  for (const name of ["nativekit", "hardhat"] as const) {
    out[name] = {
      description: specs[name].description,
      startupSamplesMs: samples[name],
      startupMedianMs: median(samples[name]),
      ...figures[name],
    };
  }
  return { peers: out, rounds };
}

interface Report {
  environment: { node: string; platform: string; cpus: number; cpuModel: string; loadAverage1mAtEnd: number };
  options: Options;
  peers: Record<PeerName, PeerFigures>;
  startup: { nativekitSeconds: number; hardhatSeconds: number; ratio: number; goal: string; ok: boolean };
  transfers: {
    nativekitPerSecond: number;
    hardhatPerSecond: number;
    ratio: number;
    goal: string;
    ok: boolean;
    /** Per-round ratios (the peers alternate); their spread shows how steady the machine was. */
    rounds: TransferRound[];
    roundRatios: { median: number; min: number; max: number };
    /** The warm-up transfers from fresh peers (JIT compiling), one peer after the other. */
    cold?: { transfers: number; nativekitPerSecond: number; hardhatPerSecond: number; ratio: number };
  };
  /** The demo's whole cross-chain journey on the embedded node (no peer has these chains). */
  journey: { samplesMs: number[]; medianMs: number };
  roundTrips: {
    nativekitPerSecond: number;
    /** Round trips/s divided by nativekit's own transfers/s (a round trip is 2 transactions). */
    ratioToNativekitTransfers: number;
    ratioToHardhatTransfers: number;
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
  const nk = peers.nativekit;
  const hh = peers.hardhat;
  const startupRatio = nk.startupMedianMs / hh.startupMedianMs;
  const nkTps = nk.transfers!.perSecond;
  const hhTps = hh.transfers!.perSecond;
  const rt = nk.roundTrips!.perSecond;
  const cpus = os.cpus();
  return {
    environment: { node: process.version, platform: `${os.platform()} ${os.arch()}`, cpus: cpus.length, cpuModel: cpus[0]?.model ?? "?", loadAverage1mAtEnd: os.loadavg()[0]! },
    options,
    peers,
    startup: {
      nativekitSeconds: nk.startupMedianMs / 1000,
      hardhatSeconds: hh.startupMedianMs / 1000,
      ratio: startupRatio,
      goal: `<= ${GOALS.startupRatioMax}`,
      ok: startupRatio <= GOALS.startupRatioMax,
    },
    transfers: {
      nativekitPerSecond: nkTps,
      hardhatPerSecond: hhTps,
      ratio: nkTps / hhTps,
      goal: `>= ${GOALS.transferRatioMin}`,
      ok: nkTps / hhTps >= GOALS.transferRatioMin,
      rounds,
      roundRatios: { median: median(rounds.map((r) => r.ratio)), min: Math.min(...rounds.map((r) => r.ratio)), max: Math.max(...rounds.map((r) => r.ratio)) },
      cold: options.warmup === 0 ? undefined : {
        transfers: options.warmup,
        nativekitPerSecond: options.warmup / nk.transfers!.warmupSeconds,
        hardhatPerSecond: options.warmup / hh.transfers!.warmupSeconds,
        ratio: hh.transfers!.warmupSeconds / nk.transfers!.warmupSeconds,
      },
    },
    roundTrips: { nativekitPerSecond: rt, ratioToNativekitTransfers: rt / nkTps, ratioToHardhatTransfers: rt / hhTps },
    journey,
  };
}

function printTable(r: Report): void {
  const nk = r.peers.nativekit;
  const hh = r.peers.hardhat;
  const verdict = (ok: boolean) => (ok ? "OK" : "BELOW GOAL");
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const lines = [
    "",
    `nativekit bench — Node ${r.environment.node}, ${r.environment.platform}, ${r.environment.cpus} CPUs (${r.environment.cpuModel}), load average ${r.environment.loadAverage1mAtEnd.toFixed(2)} at the end`,
    `  nativekit: ${nk.description}`,
    `  hardhat:   ${hh.description}`,
    `  transport: JSON-RPC over HTTP/1.1, one keep-alive connection, one request in flight (same client for both)`,
    `  transfers: both peers up, driven in turn, ${r.options.rounds} rounds alternating which goes first; the ratio is of the totals`,
    "",
    `start-up            nativekit ${r.startup.nativekitSeconds.toFixed(2)} s    hardhat ${r.startup.hardhatSeconds.toFixed(2)} s    ` +
      `ratio ${r.startup.ratio.toFixed(2)} (goal ${r.startup.goal}) ${verdict(r.startup.ok)}`,
    `transfers/s         nativekit ${r.transfers.nativekitPerSecond.toFixed(1)}    hardhat ${r.transfers.hardhatPerSecond.toFixed(1)}    ` +
      `ratio ${r.transfers.ratio.toFixed(2)} (goal ${r.transfers.goal}) ${verdict(r.transfers.ok)}; ` +
      `${r.transfers.rounds.length} alternating rounds, ratio median ${r.transfers.roundRatios.median.toFixed(2)} (${r.transfers.roundRatios.min.toFixed(2)}–${r.transfers.roundRatios.max.toFixed(2)})`,
    ...(r.transfers.cold === undefined
      ? []
      : [
          `  first ${r.transfers.cold.transfers} (cold)  nativekit ${r.transfers.cold.nativekitPerSecond.toFixed(1)}    hardhat ${r.transfers.cold.hardhatPerSecond.toFixed(1)}    ` +
            `ratio ${r.transfers.cold.ratio.toFixed(2)} (each peer's warm-up from start, JIT compiling; not the goal's figure)`,
        ]),
    `deposit+withdraw/s  nativekit ${r.roundTrips.nativekitPerSecond.toFixed(1)} round trips (${(2 * r.roundTrips.nativekitPerSecond).toFixed(1)} tx/s)    ` +
      `ratio ${r.roundTrips.ratioToNativekitTransfers.toFixed(2)} of nativekit transfers/s, ` +
      `${r.roundTrips.ratioToHardhatTransfers.toFixed(2)} of EDR transfers/s (2 tx per round trip: 0.5 = same cost per tx)`,
    `cross-chain journey nativekit ${(r.journey.medianMs / 1000).toFixed(2)} s wall (median of ${r.journey.samplesMs.length}; create asset, export, import, wrap, transfer, unwrap, export, import)`,
    "",
    "details",
    `  start-up samples    nativekit ${nk.startupSamplesMs.map((x) => (x / 1000).toFixed(2)).join(", ")} s; ` +
      `hardhat ${hh.startupSamplesMs.map((x) => (x / 1000).toFixed(2)).join(", ")} s (median reported)`,
  ];
  for (const [name, p] of [["nativekit", nk], ["hardhat", hh]] as const) {
    const t = p.transfers!;
    lines.push(
      `  transfers ${name.padEnd(10)} ${t.transfers} timed after ${t.warmup} warm-up in ${t.seconds.toFixed(2)} s; latency ` +
        `mean ${ms(t.latency.meanMs)} p50 ${ms(t.latency.p50Ms)} p95 ${ms(t.latency.p95Ms)} max ${ms(t.latency.maxMs)}; ` +
        `extra receipt polls ${t.extraReceiptPolls}; verified: ${t.verified}`,
    );
  }
  const rt = nk.roundTrips!;
  lines.push(
    `  round trips         ${rt.roundTrips} timed after ${rt.warmup} warm-up in ${rt.seconds.toFixed(2)} s; latency ` +
      `mean ${ms(rt.latency.meanMs)} p50 ${ms(rt.latency.p50Ms)} p95 ${ms(rt.latency.p95Ms)} max ${ms(rt.latency.maxMs)}; ` +
      `extra receipt polls ${rt.extraReceiptPolls}; verified: ${rt.verified}`,
    "",
  );
  process.stdout.write(lines.join("\n") + "\n");
}

let interrupted = false;

async function main(): Promise<number> {
  let options: Options | "help";
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
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
    progress(`${signal} received: stopping the peers this benchmark started...`);
    void stopAll().finally(() => process.exit(130));
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  async (e: unknown) => {
    if (interrupted) return;
    process.stderr.write(`[bench] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    await stopAll();
    process.exitCode = 1;
  },
);
