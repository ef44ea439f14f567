/**
 * `npm run bench -- suite`: a realistic dApp test file run the way users run it,
 * `hardhat test <file> --network nativekit` against `--network hardhat` (EDR), each run a fresh
 * process, the networks alternating; plus a second file that uses the precompiles, on
 * nativekit alone. Every run's mocha result is checked, not just its exit code.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";

import { REPO_ROOT, sourcesNewerThan } from "./peers";
import type { SuiteResultLine } from "./suites/counter";

/** The marker line the suite files print (see bench/suites/counter.ts). */
const RESULT_MARKER = "[bench-suite]";

export type SuiteNetwork = "nativekit" | "hardhat";

export interface SuiteSpec {
  name: string;
  /** Path from the repository root. */
  file: string;
  /** Number of `it`s in the file. */
  tests: number;
}

/** The OpenZeppelin ERC-20 file: no precompile, both networks run it. */
export const ERC20_SUITE: SuiteSpec = { name: "erc20", file: "bench/suites/erc20.suite.ts", tests: 39 };
/** Wrap and unwrap through the precompiles: nativekit only. */
export const WRAPPED_SUITE: SuiteSpec = { name: "wrapped", file: "bench/suites/wrapped.suite.ts", tests: 17 };

/** Goals for the ERC-20 file's median wall time, nativekit / hardhat. */
const GOALS = { ratioMax: 1.0, ratioAim: 0.8 };

export interface SuiteRun {
  suite: string;
  network: SuiteNetwork;
  /** Spawn to exit of `hardhat test`. */
  wallMs: number;
  passing: number;
  /** What the file printed at its end: transactions sent, its tests' own time. */
  result: SuiteResultLine;
}

/** A run whose output did not show the expected result; carries the end of that output. */
export class SuiteCheckError extends Error {}

/** `hardhat test` processes running now, so they can be stopped (by pid) on failure or Ctrl+C. */
const running = new Set<ChildProcess>();

/** Stops every `hardhat test` process this benchmark started that is still running. */
export async function stopSuiteProcesses(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => {
            if (running.has(child)) child.kill("SIGKILL");
          }, 10_000).unref();
        }),
    ),
  );
}

process.on("exit", () => {
  for (const child of running) child.kill("SIGTERM");
});

function hardhatBin(): string {
  const pkg = require.resolve("hardhat/package.json", { paths: [REPO_ROOT] });
  return path.join(path.dirname(pkg), (require(pkg) as { bin: { hardhat: string } }).bin.hardhat);
}

/** The benchmark's Hardhat config: the plugin as users load it, compiled (see the file). */
export const SUITE_CONFIG = path.join("bench", "suites", "hardhat.config.ts");

/** The compiled plugin the suites load; throws when it was never built. */
function compiledPlugin(): string {
  const compiled = path.join(REPO_ROOT, "dist", "src", "hardhat", "index.js");
  if (!fs.existsSync(compiled)) throw new Error(`${path.relative(REPO_ROOT, compiled)} not found: the suites load the compiled plugin; run "npm run build" first`);
  return compiled;
}

/**
 * Where the suites' plugin comes from: the package's compiled `dist/`. Throws when it was never
 * built; says so when `src/` changed since (the runs would measure the old code).
 */
export function suitePluginEntry(): string {
  const compiled = compiledPlugin();
  const stale = sourcesNewerThan(path.join(REPO_ROOT, "src"), fs.statSync(compiled).mtimeMs);
  const entry = `nativekit/hardhat from dist/ (compiled, as a user's project loads it; ${SUITE_CONFIG})`;
  return stale === 0 ? entry : `${entry} -- WARNING: ${stale} file(s) in src/ changed since it was built; run "npm run build"`;
}

/**
 * Runs `hardhat --config <SUITE_CONFIG> <args>` (Hardhat's bin script with this Node.js: what
 * `npx hardhat` runs, without npx).
 */
function runHardhat(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string; wallMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [hardhatBin(), "--config", SUITE_CONFIG, ...args], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    running.add(child);
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.once("error", (e) => {
      running.delete(child);
      reject(e);
    });
    child.once("close", (code, signal) => {
      running.delete(child);
      resolve({ code, signal, output, wallMs: performance.now() - started });
    });
  });
}

/** `hardhat compile`, once before the timed runs, so no run includes a compilation. */
export async function compileOnce(): Promise<void> {
  const { code, output } = await runHardhat(["compile", "--quiet"]);
  if (code !== 0) throw new Error(`hardhat compile failed:\n${output.slice(-4000)}`);
}

const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, "");

/** Reads mocha's summary ("N passing", "N failing", "N pending") and the file's marker line. */
export function parseSuiteOutput(output: string): { passing: number; failing: number; pending: number; result: SuiteResultLine | undefined } {
  const text = stripAnsi(output);
  const count = (word: string): number => {
    const m = new RegExp(`^\\s*(\\d+) ${word}\\b`, "m").exec(text);
    return m === null ? 0 : Number(m[1]);
  };
  const markers = text.split("\n").filter((line) => line.startsWith(RESULT_MARKER));
  const last = markers[markers.length - 1];
  const result = last === undefined ? undefined : (JSON.parse(last.slice(RESULT_MARKER.length)) as SuiteResultLine);
  return { passing: count("passing"), failing: count("failing"), pending: count("pending"), result };
}

/**
 * Checks one `hardhat test` run of `suite` on `network` from its exit and output: exit code 0,
 * `expected` passing, none failing or pending, and the file's marker line naming this network
 * and suite, with its full test count and at least one transaction. Returns what went wrong.
 */
export function checkSuiteOutput(
  suite: Pick<SuiteSpec, "name" | "tests">,
  network: string,
  expected: number,
  exit: { code: number | null; signal: NodeJS.Signals | null },
  output: string,
): { problems: string[]; passing: number; result: SuiteResultLine | undefined } {
  const { passing, failing, pending, result } = parseSuiteOutput(output);
  const problems: string[] = [];
  if (exit.code !== 0) problems.push(exit.signal !== null ? `killed by ${exit.signal}` : `exit code ${exit.code}`);
  if (passing !== expected) problems.push(`${passing} passing, expected ${expected}`);
  if (failing !== 0) problems.push(`${failing} failing`);
  if (pending !== 0) problems.push(`${pending} pending`);
  if (result === undefined) problems.push(`no "${RESULT_MARKER}" line`);
  else {
    if (result.network !== network) problems.push(`ran on network "${result.network}"`);
    if (result.suite !== suite.name) problems.push(`printed the result of suite "${result.suite}"`);
    if (result.tests !== suite.tests) problems.push(`the file has ${result.tests} tests, expected ${suite.tests}`);
    if (result.sent === 0) problems.push("sent no transaction");
  }
  return { problems, passing, result };
}

/**
 * Runs one suite file on one network in a fresh process and checks its result (see
 * checkSuiteOutput): all the file's tests passing, or the `expected` number `grep` selects.
 */
export async function runSuiteOnce(suite: SuiteSpec, network: SuiteNetwork, options: { grep?: string; expected?: number } = {}): Promise<SuiteRun> {
  compiledPlugin();
  const args = ["test", suite.file, "--network", network, ...(options.grep === undefined ? [] : ["--grep", options.grep])];
  const { code, signal, output, wallMs } = await runHardhat(args);
  const { problems, passing, result } = checkSuiteOutput(suite, network, options.expected ?? suite.tests, { code, signal }, output);
  if (problems.length > 0) {
    throw new SuiteCheckError(`hardhat ${args.join(" ")}: ${problems.join("; ")}; the end of its output:\n${stripAnsi(output).slice(-4000)}`);
  }
  return { suite: suite.name, network, wallMs, passing, result: result! };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export interface SuiteReport {
  runs: number;
  /** Where the plugin the suites ran with came from (suitePluginEntry). */
  plugin: string;
  order: string[][];
  erc20: {
    nativekit: SuiteRun[];
    hardhat: SuiteRun[];
    medianWallMs: Record<SuiteNetwork, number>;
    /** Median wall nativekit / median wall hardhat. */
    ratio: number;
    goal: string;
    aim: string;
    ok: boolean;
    /** The tests' own time (from the network's first answer to the last test), medians, and its ratio. */
    medianTestsMs: Record<SuiteNetwork, number>;
    testsRatio: number;
    /** Time to the network's first answer (its provider is created then), medians. */
    medianProviderInitMs: Record<SuiteNetwork, number>;
    /** Transactions of one run (eth_sendTransaction answered with a hash; with an error). */
    transactions: Record<SuiteNetwork, { sent: number; rejected: number }>;
    /** eth_estimateGas requests of one run. */
    estimates: Record<SuiteNetwork, number>;
  };
  wrapped?: {
    nativekit: SuiteRun[];
    medianWallMs: number;
    medianTestsMs: number;
    transactions: { sent: number; rejected: number };
    /** Tests' own time per transaction sent, ms: the wrapped file, and the ERC-20 file on nativekit. */
    perTransactionMs: number;
    erc20PerTransactionMs: number;
    /** perTransactionMs / erc20PerTransactionMs. */
    ratio: number;
  };
}

const progress = (line: string) => process.stderr.write(`[bench suite] ${line}\n`);

/** `runs` rounds; each runs the ERC-20 file on both networks and (unless skipped) the wrapped file, in an order that rotates. */
export async function measureSuites(runs: number, withWrapped: boolean): Promise<SuiteReport> {
  const plugin = suitePluginEntry();
  progress("hardhat compile (untimed)...");
  await compileOnce();
  type Job = { label: string; suite: SuiteSpec; network: SuiteNetwork };
  const jobs: Job[] = [
    { label: "erc20@nativekit", suite: ERC20_SUITE, network: "nativekit" },
    { label: "erc20@hardhat", suite: ERC20_SUITE, network: "hardhat" },
    ...(withWrapped ? [{ label: "wrapped@nativekit", suite: WRAPPED_SUITE, network: "nativekit" as const }] : []),
  ];
  const results = new Map<string, SuiteRun[]>(jobs.map((j) => [j.label, []]));
  const order: string[][] = [];
  for (let r = 0; r < runs; r++) {
    // Rotate, so every job goes first as often as the others and a load change lands on all.
    const round = jobs.map((_, i) => jobs[(i + r) % jobs.length]!);
    order.push(round.map((j) => j.label));
    for (const job of round) {
      const run = await runSuiteOnce(job.suite, job.network);
      results.get(job.label)!.push(run);
      progress(
        `run ${r + 1}/${runs} ${job.label.padEnd(18)} ${(run.wallMs / 1000).toFixed(2)} s wall, tests ${(run.result.testsMs / 1000).toFixed(2)} s, ` +
          `${run.passing} passing, ${run.result.sent} tx sent${run.result.rejected > 0 ? ` + ${run.result.rejected} rejected` : ""}`,
      );
    }
  }
  const nk = results.get("erc20@nativekit")!;
  const hh = results.get("erc20@hardhat")!;
  const wall = (xs: SuiteRun[]) => median(xs.map((x) => x.wallMs));
  const tests = (xs: SuiteRun[]) => median(xs.map((x) => x.result.testsMs));
  const txs = (xs: SuiteRun[]) => ({ sent: xs[0]!.result.sent, rejected: xs[0]!.result.rejected });
  const ratio = wall(nk) / wall(hh);
  const report: SuiteReport = {
    runs,
    plugin,
    order,
    erc20: {
      nativekit: nk,
      hardhat: hh,
      medianWallMs: { nativekit: wall(nk), hardhat: wall(hh) },
      ratio,
      goal: `<= ${GOALS.ratioMax}`,
      aim: `${GOALS.ratioAim}`,
      ok: ratio <= GOALS.ratioMax,
      medianTestsMs: { nativekit: tests(nk), hardhat: tests(hh) },
      testsRatio: tests(nk) / tests(hh),
      medianProviderInitMs: { nativekit: median(nk.map((x) => x.result.providerInitMs)), hardhat: median(hh.map((x) => x.result.providerInitMs)) },
      transactions: { nativekit: txs(nk), hardhat: txs(hh) },
      estimates: { nativekit: nk[0]!.result.estimates, hardhat: hh[0]!.result.estimates },
    },
  };
  if (withWrapped) {
    const w = results.get("wrapped@nativekit")!;
    const perTx = (xs: SuiteRun[]) => tests(xs) / (xs[0]!.result.sent + xs[0]!.result.rejected);
    report.wrapped = {
      nativekit: w,
      medianWallMs: wall(w),
      medianTestsMs: tests(w),
      transactions: txs(w),
      perTransactionMs: perTx(w),
      erc20PerTransactionMs: perTx(nk),
      ratio: perTx(w) / perTx(nk),
    };
  }
  return report;
}

export function printSuiteTable(r: SuiteReport): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const e = r.erc20;
  const txs = (t: { sent: number; rejected: number }) => `${t.sent} tx sent${t.rejected > 0 ? ` + ${t.rejected} rejected (mined reverting)` : ""}`;
  const lines = [
    "",
    `suite benchmark — ${r.runs} run(s) per file and network, each a fresh \`hardhat test <file> --network <name>\` process, the order rotating per round`,
    `  plugin: ${r.plugin}`,
    "",
    `${ERC20_SUITE.file} (${ERC20_SUITE.tests} tests, OpenZeppelin ERC-20)`,
    `  wall, median        nativekit ${s(e.medianWallMs.nativekit)}    hardhat ${s(e.medianWallMs.hardhat)}    ` +
      `ratio ${e.ratio.toFixed(2)} (goal ${e.goal}, aim ${e.aim}) ${e.ok ? "OK" : "ABOVE GOAL"}`,
    `  tests' own time     nativekit ${s(e.medianTestsMs.nativekit)}    hardhat ${s(e.medianTestsMs.hardhat)}    ratio ${e.testsRatio.toFixed(2)} ` +
      `(from the network's first answer to the end of the last test; the rest of the wall is start-up)`,
    `  network start       nativekit ${s(e.medianProviderInitMs.nativekit)}    hardhat ${s(e.medianProviderInitMs.hardhat)}    ` +
      `(the provider's creation, in the tests' process: first request to its answer)`,
    `  transactions        nativekit ${txs(e.transactions.nativekit)}; hardhat ${txs(e.transactions.hardhat)}`,
    `  eth_estimateGas     nativekit ${e.estimates.nativekit}; hardhat ${e.estimates.hardhat} (hardhat-ethers estimates before each transaction unless the network is "hardhat" with a fixed gas)`,
    `  runs (wall)         nativekit ${e.nativekit.map((x) => s(x.wallMs)).join(", ")}; hardhat ${e.hardhat.map((x) => s(x.wallMs)).join(", ")}`,
  ];
  if (r.wrapped !== undefined) {
    const w = r.wrapped;
    lines.push(
      "",
      `${WRAPPED_SUITE.file} (${WRAPPED_SUITE.tests} tests, precompiles; nativekit only)`,
      `  wall, median        nativekit ${s(w.medianWallMs)}; tests' own time ${s(w.medianTestsMs)}; ${txs(w.transactions)}`,
      `  per transaction     ${w.perTransactionMs.toFixed(1)} ms of tests' time per tx, against ${w.erc20PerTransactionMs.toFixed(1)} ms in the ERC-20 file on nativekit: ` +
        `ratio ${w.ratio.toFixed(2)} (the matchers' reads included)`,
      `  runs (wall)         ${w.nativekit.map((x) => s(x.wallMs)).join(", ")}`,
    );
  }
  lines.push("", "every run checked: exit code 0, all tests passing (none failing or pending), the file's result line naming the network", "");
  process.stdout.write(lines.join("\n") + "\n");
}

export const SUITE_USAGE = `Usage: npm run bench -- suite [options]

Runs ${ERC20_SUITE.file} with \`hardhat test --network nativekit\` and \`--network hardhat\`,
alternating, a fresh process each run; and ${WRAPPED_SUITE.file} on nativekit.

Options:
  --runs <n>          runs per file and network (default 5); medians are reported
  --no-wrapped        skip the precompile file
  --json              print the figures as JSON instead of the table
  --help, -h          show this help
`;

export class SuiteUsageError extends Error {}

export function parseSuiteOptions(argv: string[]): { runs: number; wrapped: boolean; json: boolean } | "help" {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      runs: { type: "string" },
      "no-wrapped": { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  if (positionals.length > 0) throw new SuiteUsageError(`unexpected argument "${positionals[0]}"`);
  const raw = values.runs ?? "5";
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new SuiteUsageError(`--runs expects an integer >= 1, got ${JSON.stringify(raw)}`);
  return { runs: Number(raw), wrapped: values["no-wrapped"] !== true, json: values.json === true };
}
