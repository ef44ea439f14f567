/**
 * The package journey: what a user does to use nativekit in their own Hardhat project, done
 * for real against the packed tarball.
 *
 *   npm run test:package
 *
 * 1. `npm pack` (its `prepare` builds dist/), and the tarball holds what package.json's
 *    main/types/bin/exports/files promise, nothing of the repository's own (src/, test/, the
 *    test contracts), and every package its code or contracts import is declared;
 * 2. a fresh Hardhat 2 TypeScript project in a temporary directory installs the tarball with
 *    hardhat, hardhat-toolbox, TypeScript 5 and ts-node 10 (the versions of this repository's
 *    lock file, preferring the local npm cache);
 * 3. its contract imports nativekit/contracts/NativeAssets.sol (and WrappedNativeAsset.sol), its
 *    test uses the nativeAssetCall precompile, nativekit_setAssetBalance and changeAssetBalance(s);
 * 4. `npx hardhat test` passes there, and Solidity compiled with the solc-js build nativekit
 *    brings along: the run has a proxy of ours in front of every compiler download, and no
 *    request reaches it, and Hardhat's compiler cache stays empty;
 * 5. the daily tools next to Hardhat's own network, in the Hardhat 2 project and the Hardhat 3
 *    mocha-ethers one: console.log, Solidity stack traces, coverage (solidity-coverage;
 *    `--coverage`) and gas reports (hardhat-gas-reporter; `--gas-stats`), each run on both
 *    networks and compared, with what only the nativekit network has (the precompiles) checked;
 * 6. `npx nativekit node --port <free port>` answers eth_chainId on /ext/bc/C/rpc, stops on
 *    SIGTERM sent to the node process's pid, and leaves no process of its group behind; the
 *    Hardhat 3 projects (mocha-ethers, node:test with viem) under a Node.js 22 from npm;
 * 7. the temporary directory is removed (NATIVEKIT_JOURNEY_KEEP=1 keeps it, to look around).
 *
 * The temporary directory is under /dev/shm when there is one with room (see scratchDirectory),
 * or NATIVEKIT_JOURNEY_TMPDIR. NATIVEKIT_JOURNEY_NPM_CACHE=<dir> makes the project's install use that npm cache (an empty
 * one measures a cold install). The run ends with `journey: N passed, N failed[, N skipped]`.
 *
 * This file runs only as a program: required by this repository's `hardhat test` (which loads
 * every .ts under test/), it does nothing.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { builtinModules } from "node:module";
import net from "node:net";
import path from "node:path";
import {
  copyTemplate,
  hardhat3PackageJson,
  HARDHAT3_TEMPLATE_PACKAGES,
  installedNodeBinary,
  node22BinDirectory,
  node22Package,
  runsHardhat3,
  type Hardhat3Template,
} from "./hardhat3-project";
import { HARDHAT3_SUITE_NETWORKS, runHardhat3SuiteOnce, writeHardhat3SuiteFiles } from "../../bench/suite-hardhat3";
import { scratchDirectory } from "./scratch";
import { USER_COMPILER_OPTIONS, userProjectFiles, USER_TEST_COUNT } from "./user-project";
import { HARDHAT3_TEST_COUNTS, hardhat3ProjectFiles } from "./user-project-hardhat3";
import { CONSOLE_LOG_EXPECTED_LINES, CONSOLE_LOG_TEST, consoleLogLines, withLoggingOn } from "./console-log-project";
import { checkCoverageAndGasStats } from "./hardhat3-coverage-gas";
import { addHardhat2CoverageGasFiles, checkCoverage, checkGasReport } from "./hardhat2-coverage-gas";
import { comparableLines, javaScriptStackStarts, precompileStackIsShown, SAME_STACK_TRACE_LABELS, STACK_TRACE_TEST, stackTraceLines } from "./stack-trace-project";

const REPO = path.resolve(__dirname, "..", "..");
const PREFIX = "    | ";

interface PackageJson {
  name: string;
  version: string;
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  files?: string[];
  exports?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  optionalDependencies?: Record<string, string>;
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}

class CheckFailed extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

// ---------------------------------------------------------------------------------------------
// Child processes: each in a process group of its own, its output shown indented, bounded in time.

const running = new Set<ChildProcess>();

/** The environment of the user's commands: ours, less what `npm run` and Hardhat put in it. */
function userEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|hardhat_|ts_node_)/i.test(key) || key === "INIT_CWD") continue;
    env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

function showOutput(child: ChildProcess, sink: string[]): void {
  let partial = "";
  const onData = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    sink.push(text);
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) process.stdout.write(PREFIX + line + "\n");
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  child.on("close", () => {
    if (partial !== "") process.stdout.write(PREFIX + partial + "\n");
    partial = "";
  });
}

/** Ends a child's whole process group (it was started detached, so its pid is the group's id). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function start(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: string[] } {
  console.log(`  $ ${[command, ...args].join(" ")}   (in ${cwd})`);
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  running.add(child);
  child.on("close", () => running.delete(child));
  showOutput(child, output);
  return { child, output };
}

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

async function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<RunResult> {
  const { child, output } = start(command, args, options.cwd, options.env);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child, "SIGTERM");
    setTimeout(() => killGroup(child, "SIGKILL"), 5_000).unref();
  }, options.timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (c, s) => resolve([c, s]));
  });
  clearTimeout(timer);
  check(!timedOut, `${command} ${args.join(" ")} did not finish within ${options.timeoutMs / 1000} s`);
  return { code, signal, output: output.join("") };
}

async function runOk(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<string> {
  const result = await run(command, args, options);
  check(result.code === 0, `${command} ${args.join(" ")} exited with ${result.code ?? result.signal}`);
  return result.output;
}

/** Processes still in the group `pgid`, from ps. */
function processesInGroup(pgid: number): string[] {
  const table = execFileSync("ps", ["-eo", "pid=,pgid=,args="], { encoding: "utf8" });
  return table
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null && Number(m[2]) === pgid)
    .map((m) => `${m[1]} ${m[3]}`);
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A proxy that forwards nothing: it notes the first line of each request (for a download through
 * it, `CONNECT host:443` or `GET http://host/…`) and answers 403. Hardhat sends its compiler
 * downloads (and nothing else) through `http_proxy`, so a note here is a download attempt.
 */
async function startRefusingProxy(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = net.createServer((socket) => {
    socket.once("data", (chunk) => {
      requests.push(chunk.toString("latin1").split("\r\n")[0] ?? "");
      socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function rpc(url: string, method: string, timeoutMs = 2_000): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] });
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers: { "content-type": "application/json" }, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (c: Buffer) => chunks.push(c));
      response.on("end", () => {
        try {
          const reply = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { result?: unknown; error?: { message: string } };
          if (reply.error) reject(new Error(reply.error.message));
          else resolve(reply.result);
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
    request.end(body);
  });
}

function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)).split(path.sep).join("/"))
    .sort();
}

// ---------------------------------------------------------------------------------------------
// The checks on the tarball.

/** The files each `exports` target names (a `*` target: the directory must exist). */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === "string") return [exports];
  if (exports === null || typeof exports !== "object") return [];
  return Object.values(exports as Record<string, unknown>).flatMap(exportTargets);
}

function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Bare specifiers that compiled JavaScript and declaration files import or require. */
function moduleSpecifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\brequire\(\s*"([^"]+)"\s*\)/g, // CommonJS output, dynamic import() included
    /\bimport\(\s*"([^"]+)"\s*\)/g, // types in declaration files
    /^\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gm, // declarations' import/export … from
    /^\s*import\s+"([^"]+)"/gm, // declarations' side-effect imports
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found.filter((s) => !s.startsWith(".") && !s.startsWith("/"));
}

/** Non-relative paths that Solidity sources import. */
function solidityImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/^\s*import\s+(?:[^"';]*\bfrom\s+)?"([^"]+)"/gm)) found.push(match[1]!);
  return found.filter((s) => !s.startsWith("."));
}

function checkTarball(unpacked: string, pkg: PackageJson): void {
  const files = listFiles(unpacked);
  const has = (file: string) => fs.existsSync(path.join(unpacked, file));
  const isFile = (file: string) => has(file) && fs.statSync(path.join(unpacked, file)).isFile();
  const shipped = readJson<PackageJson>(path.join(unpacked, "package.json"));
  check(shipped.name === pkg.name && shipped.version === pkg.version, `the tarball's package.json is ${shipped.name}@${shipped.version}, not ${pkg.name}@${pkg.version}`);

  for (const field of ["main", "types"] as const) {
    const target = pkg[field];
    check(target !== undefined && isFile(target), `package.json's ${field} (${target}) is not in the tarball`);
  }
  const bins = typeof pkg.bin === "string" ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {});
  for (const [name, target] of Object.entries(bins)) {
    check(isFile(target), `bin ${name} (${target}) is not in the tarball`);
    check(fs.readFileSync(path.join(unpacked, target), "utf8").startsWith("#!/usr/bin/env node"), `bin ${name} (${target}) has no node shebang`);
  }
  for (const target of exportTargets(pkg.exports)) {
    if (target.includes("*")) {
      const dir = target.slice(0, target.indexOf("*"));
      check(has(dir), `exports target ${target}: ${dir} is not in the tarball`);
      if (dir.replace(/^\.\//, "") === "contracts/") {
        // The public contracts are every .sol directly under contracts/ in the repository.
        for (const sol of fs.readdirSync(path.join(REPO, "contracts")).filter((f) => f.endsWith(".sol"))) {
          check(isFile(`contracts/${sol}`), `contracts/${sol} (exports ${target}) is not in the tarball`);
        }
      }
    } else {
      check(isFile(target), `exports target ${target} is not in the tarball`);
    }
  }
  for (const entry of pkg.files ?? []) {
    if (!entry.startsWith("!")) check(has(entry), `files entry ${entry} is not in the tarball`);
  }

  const foreign = files.filter((f) => /^(src|test|bench|scripts|deploy|node_modules|\.ci|contracts\/test)\//.test(f));
  check(foreign.length === 0, `the tarball holds the repository's own files: ${foreign.slice(0, 5).join(", ")}`);
  const built = files.filter((f) => f.startsWith("dist/"));
  const stale = built.filter((f) => {
    const source = f.replace(/^dist\//, "").replace(/\.d\.ts$|\.js$/, ".ts");
    return !fs.existsSync(path.join(REPO, source));
  });
  check(stale.length === 0, `dist/ has files with no source in src/ (a stale build): ${stale.slice(0, 5).join(", ")}`);
  check(files.includes("dist/src/hardhat/index.js") && files.includes("dist/src/cli/main.js"), "dist/ lacks the Hardhat plugin or the CLI");

  // Every package the shipped code, declarations and contracts import must be declared, or a
  // user's install does not bring it (a devDependency is not installed for them).
  const declared = new Set([
    pkg.name,
    ...Object.keys(shipped.dependencies ?? {}),
    ...Object.keys(shipped.peerDependencies ?? {}),
    ...Object.keys(shipped.optionalDependencies ?? {}),
  ]);
  const builtins = new Set(builtinModules);
  const undeclared = new Map<string, string>();
  for (const file of built.filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"))) {
    for (const specifier of moduleSpecifiers(fs.readFileSync(path.join(unpacked, file), "utf8"))) {
      const name = packageNameOf(specifier);
      if (specifier.startsWith("node:") || builtins.has(name) || declared.has(name)) continue;
      undeclared.set(name, file);
    }
  }
  for (const file of files.filter((f) => f.endsWith(".sol"))) {
    for (const specifier of solidityImports(fs.readFileSync(path.join(unpacked, file), "utf8"))) {
      const name = packageNameOf(specifier);
      if (!declared.has(name)) undeclared.set(name, file);
    }
  }
  check(undeclared.size === 0, `imported but not a dependency or peer dependency: ${[...undeclared].map(([n, f]) => `${n} (${f})`).join(", ")}`);
  console.log(`  ${files.length} files; main, types, bin, exports and files present; imports declared`);
}

// ---------------------------------------------------------------------------------------------
// Steps shared by the Hardhat 2 and Hardhat 3 projects.

/**
 * Runs `npx hardhat <args>` in `project` offline as far as compilers go: a proxy of ours is in
 * front of every download and must see no request, and Hardhat's compiler cache must stay empty.
 * Returns the output of a run that exited 0.
 */
async function hardhatTestOffline(project: string, args: string[], baseEnv: NodeJS.ProcessEnv, home: string): Promise<string> {
  const proxy = await startRefusingProxy();
  try {
    const env: NodeJS.ProcessEnv = {
      ...baseEnv,
      XDG_CACHE_HOME: path.join(home, "cache"),
      XDG_CONFIG_HOME: path.join(home, "config"),
      XDG_DATA_HOME: path.join(home, "data"),
      http_proxy: proxy.url,
      https_proxy: proxy.url,
      HTTP_PROXY: proxy.url,
      HTTPS_PROXY: proxy.url,
      HARDHAT_DISABLE_TELEMETRY_PROMPT: "true",
    };
    delete env.NO_PROXY;
    delete env.no_proxy;
    const result = await run("npx", ["--no-install", "hardhat", ...args], { cwd: project, env, timeoutMs: 15 * 60_000 });
    check(proxy.requests.length === 0, `Hardhat tried to download: ${proxy.requests.join("; ")}`);
    const hardhatCache = path.join(home, "cache", "hardhat-nodejs");
    const downloaded = (fs.existsSync(hardhatCache) ? fs.readdirSync(hardhatCache) : [])
      .filter((name) => name.startsWith("compilers"))
      .flatMap((name) => listFiles(path.join(hardhatCache, name)).map((f) => `${name}/${f}`));
    check(downloaded.length === 0, `Hardhat's compiler cache is not empty: ${downloaded.slice(0, 5).join(", ")}`);
    check(result.code === 0, `npx hardhat ${args.join(" ")} exited with ${result.code ?? result.signal}`);
    return result.output;
  } finally {
    await proxy.close();
  }
}

/** `npx nativekit node` in `project` answers eth_chainId, stops on SIGTERM to its pid, leaves nothing behind. */
/**
 * Runs the stack-trace test on the nativekit network and on Hardhat's, prints both, and checks
 * that they name the same frames (where Hardhat's are right), what the nativekit network alone
 * shows (the precompile), and that the JavaScript stack starts in the user's test.
 */
async function compareStackTraces(runTest: (network: "nativekit" | "hardhat") => Promise<string>): Promise<void> {
  const nativekitOutput = await runTest("nativekit");
  const hardhatOutput = await runTest("hardhat");
  const [nativekit, hardhat] = [stackTraceLines(nativekitOutput), stackTraceLines(hardhatOutput)];
  for (const [label, lines] of nativekit) console.log(`  nativekit ${label}: ${JSON.stringify(lines)}`);
  for (const [label, lines] of hardhat) console.log(`  hardhat   ${label}: ${JSON.stringify(lines)}`);
  for (const label of SAME_STACK_TRACE_LABELS) {
    const [ours, theirs] = [comparableLines(nativekit.get(label)), comparableLines(hardhat.get(label))];
    check(ours !== undefined && ours.length >= 2, `the nativekit network printed no Solidity frame for ${label}`);
    check(JSON.stringify(ours) === JSON.stringify(theirs), `${label}: the nativekit network printed ${JSON.stringify(ours)}, Hardhat's ${JSON.stringify(theirs)}`);
  }
  check(precompileStackIsShown(nativekit.get("precompile")), `the call through nativeAssetCall printed ${JSON.stringify(nativekit.get("precompile"))}`);
  const start = javaScriptStackStarts(nativekitOutput).get("reason") ?? "";
  check(/test[\\/]StackTraces\.ts:\d+/.test(start), `the JavaScript stack below the Solidity frames starts at ${JSON.stringify(start)}, not in the user's test`);
}

async function nodeAnswersAndStops(project: string, env: NodeJS.ProcessEnv): Promise<void> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/ext/bc/C/rpc`;
  const { child } = start("npx", ["--no-install", "nativekit", "node", "--port", String(port)], project, env);
  const group = child.pid!;
  let exited: [number | null, NodeJS.Signals | null] | undefined;
  const exit = new Promise<void>((resolve) => child.on("close", (code, signal) => { exited = [code, signal]; resolve(); }));
  try {
    let chainId: unknown;
    const deadline = Date.now() + 90_000;
    while (chainId === undefined && exited === undefined && Date.now() < deadline) {
      chainId = await rpc(url, "eth_chainId").catch(() => undefined);
      if (chainId === undefined) await sleep(250);
    }
    check(exited === undefined, `the node exited before answering (${exited?.[0] ?? exited?.[1]})`);
    check(chainId === "0xa868", `eth_chainId on ${url}: ${String(chainId ?? "no answer in 90 s")}, expected 0xa868 (43112)`);

    // npx runs the bin as npm exec → sh -c → node; SIGTERM goes to the node process, the
    // server itself (npm hands a SIGTERM of its own to the sh, which dies without passing it on).
    const servers = processesInGroup(group).filter((p) => /^\d+ \S*node \S*nativekit(\.js)? node\b/.test(p));
    check(servers.length === 1, `expected one node process running the CLI under npx, found: ${processesInGroup(group).join("; ")}`);
    const pid = Number(servers[0]!.split(" ")[0]);
    console.log(`  eth_chainId on ${url}: ${String(chainId)}; SIGTERM to pid ${pid}`);
    process.kill(pid, "SIGTERM");
    await Promise.race([exit, sleep(30_000)]);
    check(exited !== undefined, `npx nativekit node still runs 30 s after SIGTERM to pid ${pid}`);
    check(exited[0] === 0, `npx nativekit node ended with ${exited[0] ?? exited[1]}, expected exit code 0`);
    let left = processesInGroup(group);
    for (let i = 0; i < 20 && left.length > 0; i++) {
      await sleep(250);
      left = processesInGroup(group);
    }
    check(left.length === 0, `processes left behind: ${left.join("; ")}`);
    check(await portIsClosed(port), `port ${port} still accepts connections`);
  } finally {
    killGroup(child, "SIGKILL");
  }
}

/**
 * A directory whose `node` is a Node.js Hardhat 3 runs on (22.13+), to put first on PATH:
 * NATIVEKIT_NODE22's binary, this Node.js if it is new enough, else the node-<os>-<cpu>
 * package of the npm registry installed under `prefix`.
 */
async function node22Directory(prefix: string, npmCache: string | undefined): Promise<string> {
  const chosen = process.env.NATIVEKIT_NODE22;
  if (chosen) return node22BinDirectory(prefix, chosen);
  if (runsHardhat3(process.version)) return path.dirname(process.execPath);
  const pkg = node22Package();
  fs.mkdirSync(prefix, { recursive: true });
  const args = ["install", "--prefix", prefix, "--no-save", "--prefer-offline", "--no-audit", "--no-fund", ...(npmCache ? ["--cache", npmCache] : []), pkg];
  await runOk("npm", args, { cwd: prefix, env: userEnv(), timeoutMs: 10 * 60_000 });
  const bin = node22BinDirectory(prefix, installedNodeBinary(prefix, pkg));
  const version = execFileSync(path.join(bin, "node"), ["--version"], { encoding: "utf8" }).trim();
  check(runsHardhat3(version), `${pkg} runs Node.js ${version}, Hardhat 3 needs 22.13 or newer`);
  console.log(`  ${pkg}: Node.js ${version}`);
  return bin;
}

// ---------------------------------------------------------------------------------------------
// The journey.

interface Lock {
  packages: Record<string, { version?: string; peerDependencies?: Record<string, string> }>;
}

/** `name@version` as this repository's lock file has it (the npm cache holds that version). */
function locked(lock: Lock, name: string): string {
  const version = lock.packages[`node_modules/${name}`]?.version;
  check(version !== undefined, `${name} is not in package-lock.json`);
  return `${name}@${version}`;
}

interface Step {
  name: string;
  run(): Promise<void>;
}

interface Outcome {
  name: string;
  status: "passed" | "failed" | "skipped";
  seconds: number;
  error?: string;
}

async function main(): Promise<number> {
  const began = Date.now();
  const pkg = readJson<PackageJson>(path.join(REPO, "package.json"));
  const lock = readJson<Lock>(path.join(REPO, "package-lock.json"));
  const solcVersion = pkg.dependencies?.solc;
  const keep = process.env.NATIVEKIT_JOURNEY_KEEP === "1";
  const npmCache = process.env.NATIVEKIT_JOURNEY_NPM_CACHE;

  const root = fs.mkdtempSync(path.join(scratchDirectory("NATIVEKIT_JOURNEY_TMPDIR"), "nativekit-journey-"));
  const packDir = path.join(root, "pack");
  const unpacked = path.join(root, "unpacked");
  const project = path.join(root, "my-native-dapp");
  const home = path.join(root, "home"); // XDG directories of the project's Hardhat runs
  let tarball = "";

  const cleanup = () => {
    for (const child of running) killGroup(child, "SIGKILL");
    if (!keep) fs.rmSync(root, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    console.log(`\njourney: ${signal}, stopping`);
    cleanup();
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  let node22Bin = "";
  /** The environment of a Hardhat 3 project's commands: Node.js 22 first on PATH (npm included). */
  const hardhat3Env = () => userEnv({ PATH: `${node22Bin}${path.delimiter}${process.env.PATH ?? ""}` });

  /** A fresh Hardhat 3 project from one of its templates: install, test offline, type-check, tasks, the CLI. */
  function hardhat3Steps(template: Hardhat3Template): Step[] {
    const dir = path.join(root, `hardhat3-${template}`);
    const runner = template === "mocha-ethers" ? "mocha" : "nodejs";
    return [
      {
        name: `a fresh Hardhat 3 project (${template} template) installs the tarball with a plain npm install`,
        async run() {
          check(solcVersion !== undefined, "solc is not among package.json's dependencies");
          fs.mkdirSync(dir, { recursive: true });
          fs.writeFileSync(path.join(dir, "package.json"), hardhat3PackageJson(`my-native-dapp-${template}`));
          // Under Node.js 22: npm run by Node 20 skips Hardhat 3's simulator binary (its engines say node >= 22).
          const args = ["install", "--save-dev", "--no-audit", "--no-fund", ...(npmCache ? ["--cache", npmCache] : []), tarball, ...HARDHAT3_TEMPLATE_PACKAGES[template]];
          await runOk("npm", args, { cwd: dir, env: hardhat3Env(), timeoutMs: 20 * 60_000 });
          copyTemplate(path.join(dir, "node_modules", "hardhat"), template, dir);
          // The template's Solidity test imports forge-std, a GitHub dependency (no registry here),
          // and its Counter asks for a newer solc than the one nativekit bundles.
          fs.rmSync(path.join(dir, "contracts", "Counter.t.sol"), { force: true });
          const counter = path.join(dir, "contracts", "Counter.sol");
          fs.writeFileSync(counter, fs.readFileSync(counter, "utf8").replace(/pragma solidity [^;]+;/, `pragma solidity ^${solcVersion};`));
          for (const [file, content] of Object.entries(hardhat3ProjectFiles(template, solcVersion))) {
            fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
            fs.writeFileSync(path.join(dir, file), content);
          }
          check(readJson<PackageJson>(path.join(dir, "node_modules", "nativekit", "package.json")).version === pkg.version, "node_modules/nativekit is not the packed version");
        },
      },
      {
        name: `npx hardhat test ${runner} --network nativekit passes in the ${template} project, compiling offline`,
        async run() {
          const output = await hardhatTestOffline(dir, ["test", runner, "--network", "nativekit"], hardhat3Env(), path.join(dir, ".home"));
          const expected = HARDHAT3_TEST_COUNTS[template];
          const passing = Number(output.match(/^\s*(\d+) passing/m)?.[1] ?? 0);
          check(/Compiled \d+ Solidity files? with solc/.test(output), `npx hardhat test did not compile the contracts`);
          check(passing === expected, `npx hardhat test ${runner}: ${passing} passing, expected ${expected}`);
          check(!/^\s*\d+ (failing|pending|skipped)/m.test(output), "npx hardhat test has failing, pending or skipped tests");
        },
      },
      {
        // The opt-in engine thread, where the Node.js 22 Hardhat 3 needs decides what keeps a process alive.
        name: `the ${template} project's tests pass with workerThread: true (the chains in the engine thread), and the run exits`,
        async run() {
          const config = fs.readFileSync(path.join(dir, "hardhat.config.ts"), "utf8");
          const threaded = config.replace("nativekit: { loggingEnabled: false }", "nativekit: { loggingEnabled: false, workerThread: true }");
          check(threaded !== config, "the project's hardhat.config.ts has no nativekit: { loggingEnabled: false } to extend");
          fs.writeFileSync(path.join(dir, "hardhat.worker-thread.config.ts"), threaded);
          const output = await hardhatTestOffline(dir, ["--config", "hardhat.worker-thread.config.ts", "test", runner, "--network", "nativekit"], hardhat3Env(), path.join(dir, ".home"));
          const passing = Number(output.match(/^\s*(\d+) passing/m)?.[1] ?? 0);
          check(passing === HARDHAT3_TEST_COUNTS[template], `with workerThread: true: ${passing} passing, expected ${HARDHAT3_TEST_COUNTS[template]}`);
          check(!/^\s*\d+ (failing|pending|skipped)/m.test(output), "with workerThread: true: failing, pending or skipped tests");
        },
      },
      {
        name: `the ${template} project's config and tests type-check with nativekit's types (npx tsc --noEmit)`,
        async run() {
          await runOk("npx", ["--no-install", "tsc", "--noEmit"], { cwd: dir, env: hardhat3Env(), timeoutMs: 5 * 60_000 });
        },
      },
      ...(template === "mocha-ethers"
        ? [
            {
              name: "npx hardhat nativekit:balance runs as a Hardhat 3 task, and names a missing flag",
              async run() {
                const account = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
                const asset = "0x" + "5a".repeat(32);
                const output = await runOk("npx", ["--no-install", "hardhat", "nativekit:balance", "--account", account, "--asset", asset, "--network", "nativekit"], { cwd: dir, env: hardhat3Env(), timeoutMs: 2 * 60_000 });
                check(output.includes(`${account} holds 0 of asset`), "nativekit:balance did not print the balance");
                const missing = await run("npx", ["--no-install", "hardhat", "nativekit:balance", "--network", "nativekit"], { cwd: dir, env: hardhat3Env(), timeoutMs: 2 * 60_000 });
                check(missing.code !== 0 && missing.output.includes("--account is required"), "nativekit:balance without --account did not say it is required");
              },
            },
            {
              name: "console.log from hardhat/console.sol prints the same lines on the nativekit network as on Hardhat's (Hardhat 3)",
              async run() {
                fs.writeFileSync(path.join(dir, "hardhat.logging.config.ts"), withLoggingOn(fs.readFileSync(path.join(dir, "hardhat.config.ts"), "utf8")));
                const printed = async (network: string[]) =>
                  consoleLogLines(await hardhatTestOffline(dir, ["--config", "hardhat.logging.config.ts", "test", "mocha", CONSOLE_LOG_TEST, ...network], hardhat3Env(), path.join(dir, ".home")));
                const [nativekit, hardhat] = [await printed(["--network", "nativekit"]), await printed([])];
                console.log(`  nativekit: ${JSON.stringify(nativekit)}\n  hardhat:   ${JSON.stringify(hardhat)}`);
                check(JSON.stringify(nativekit) === JSON.stringify(CONSOLE_LOG_EXPECTED_LINES), `the nativekit network printed ${JSON.stringify(nativekit)}`);
                check(JSON.stringify(hardhat) === JSON.stringify(nativekit), `Hardhat's network printed ${JSON.stringify(hardhat)}, the nativekit network ${JSON.stringify(nativekit)}`);
              },
            },
            {
              name: "Solidity stack traces on the nativekit network name the contracts, functions and lines Hardhat's network names (Hardhat 3)",
              run: () => compareStackTraces((network) => hardhatTestOffline(dir, ["test", "mocha", STACK_TRACE_TEST, ...(network === "nativekit" ? ["--network", "nativekit"] : [])], hardhat3Env(), path.join(dir, ".home"))),
            },
            {
              name: "--coverage and --gas-stats report on the nativekit network what they report on Hardhat's (Hardhat 3, also with workerThread: true), and --gas-stats lists the precompile-calling functions",
              async run() {
                const shown = await checkCoverageAndGasStats(dir, (args) => hardhatTestOffline(dir, args, hardhat3Env(), path.join(dir, ".home")));
                for (const line of shown) console.log(`  ${line}`);
              },
            },
            {
              name: "npx nativekit node in the Hardhat 3 project answers eth_chainId, stops on SIGTERM, leaves no process",
              run: () => nodeAnswersAndStops(dir, hardhat3Env()),
            },
            {
              // The Hardhat 3 suite benchmark's machinery in CI, its results checked (not its times).
              name: "the Hardhat 3 suite benchmark's ERC-20 file runs there on both networks (its faucet tests, results checked)",
              async run() {
                writeHardhat3SuiteFiles(dir);
                for (const network of HARDHAT3_SUITE_NETWORKS) {
                  const ran = await runHardhat3SuiteOnce(dir, network, { grep: "faucet", expected: 5, nodeBinDirectory: node22Bin });
                  // 1 deployment (loadFixture deploys once), 4 tests claim twice and 1 once; 2 are refused and mined reverting.
                  check(ran.result.sent === 8 && ran.result.rejected === 2, `on ${network}: ${ran.result.sent} sent and ${ran.result.rejected} rejected, expected 8 and 2`);
                  console.log(`  ${network}: 5 passing, ${ran.result.sent} sent, ${ran.result.rejected} rejected, provider ${(ran.result as { provider?: string }).provider}`);
                }
              },
            },
          ]
        : []),
    ];
  }

  const steps: Step[] = [
    {
      name: "npm pack builds the package",
      async run() {
        fs.mkdirSync(packDir, { recursive: true });
        await runOk("npm", ["pack", "--pack-destination", packDir, "--loglevel=warn"], { cwd: REPO, env: userEnv(), timeoutMs: 5 * 60_000 });
        const tgz = fs.readdirSync(packDir).filter((f) => f.endsWith(".tgz"));
        check(tgz.length === 1, `npm pack made ${tgz.length} tarballs`);
        tarball = path.join(packDir, tgz[0]!);
        console.log(`  ${path.basename(tarball)}: ${(fs.statSync(tarball).size / 1024).toFixed(0)} KiB`);
      },
    },
    {
      name: "the tarball holds what package.json promises, and declares what it imports",
      async run() {
        fs.mkdirSync(unpacked, { recursive: true });
        execFileSync("tar", ["-xzf", tarball, "-C", unpacked, "--strip-components=1"]);
        checkTarball(unpacked, pkg);
      },
    },
    {
      name: "a fresh Hardhat TypeScript project installs the tarball",
      async run() {
        check(solcVersion !== undefined, "solc is not among package.json's dependencies: Hardhat would download a compiler in users' projects");
        for (const [file, content] of Object.entries(userProjectFiles(solcVersion))) {
          fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
          fs.writeFileSync(path.join(project, file), content);
        }
        // What the README tells users to install, at this repository's versions. The peers npm
        // would add by itself (hardhat-toolbox's, nativekit's) are pinned to them as well.
        const toolbox = "@nomicfoundation/hardhat-toolbox";
        const toolboxPeers = lock.packages[`node_modules/${toolbox}`]?.peerDependencies ?? {};
        const optional = (name: string) => pkg.peerDependenciesMeta?.[name]?.optional === true;
        const peers = [...Object.keys(toolboxPeers), ...Object.keys(pkg.peerDependencies ?? {}).filter((n) => !optional(n))];
        const explicit = ["hardhat", toolbox, "typescript", "ts-node", "@types/node"];
        const pins = [...new Set([...explicit, ...peers])].map((name) => locked(lock, name));
        const args = ["install", "--save-dev", "--prefer-offline", "--no-audit", "--no-fund", ...(npmCache ? ["--cache", npmCache] : []), tarball, ...pins];
        await runOk("npm", args, { cwd: project, env: userEnv(), timeoutMs: 20 * 60_000 });

        const installed = path.join(project, "node_modules", "nativekit");
        check(readJson<PackageJson>(path.join(installed, "package.json")).version === pkg.version, "node_modules/nativekit is not the packed version");
        check(fs.existsSync(path.join(project, "node_modules", ".bin", "nativekit")), "node_modules/.bin/nativekit is missing");
        const typescript = readJson<PackageJson>(require.resolve("typescript/package.json", { paths: [project] })).version;
        check(typescript.startsWith("5."), `the project has TypeScript ${typescript}, Hardhat 2 needs 5`);
        // The solc nativekit's plugin finds is its own dependency, not hardhat's (another version).
        const solc = readJson<PackageJson>(require.resolve("solc/package.json", { paths: [installed] })).version;
        check(solc === solcVersion, `nativekit resolves solc ${solc}, not its dependency ${solcVersion}`);
      },
    },
    {
      // The config alone: that nativekit/hardhat's declarations resolve with Hardhat's sample
      // tsconfig (node10 resolution reads typesVersions, not exports) and type its options.
      name: "hardhat.config.ts type-checks with nativekit/hardhat's types",
      async run() {
        const flags = Object.entries(USER_COMPILER_OPTIONS).flatMap(([option, value]) => (value === true ? [`--${option}`] : [`--${option}`, String(value)]));
        await runOk("npx", ["--no-install", "tsc", "--noEmit", ...flags, "hardhat.config.ts"], { cwd: project, env: userEnv(), timeoutMs: 5 * 60_000 });
      },
    },
    {
      name: "npx hardhat test passes on the nativekit network, compiling offline",
      async run() {
        const output = await hardhatTestOffline(project, ["test"], userEnv(), home);
        const passing = Number(output.match(/^\s*(\d+) passing/m)?.[1] ?? 0);
        check(/Compiled \d+ Solidity files? successfully/.test(output), "npx hardhat test did not compile the contracts");
        check(passing === USER_TEST_COUNT, `npx hardhat test: ${passing} passing, expected ${USER_TEST_COUNT}`);
        check(!/^\s*\d+ (failing|pending)/m.test(output), "npx hardhat test has failing or pending tests");
        check(fs.existsSync(path.join(project, "artifacts", "contracts", "AssetForwarder.sol", "AssetForwarder.json")), "no artifact for AssetForwarder");
      },
    },
    {
      name: "console.log from hardhat/console.sol prints the same lines on the nativekit network as on Hardhat's (Hardhat 2)",
      async run() {
        fs.writeFileSync(path.join(project, "hardhat.logging.config.ts"), withLoggingOn(fs.readFileSync(path.join(project, "hardhat.config.ts"), "utf8")));
        const printed = async (network: string) =>
          consoleLogLines(await hardhatTestOffline(project, ["--config", "hardhat.logging.config.ts", "test", CONSOLE_LOG_TEST, "--network", network], userEnv(), home));
        const [nativekit, hardhat] = [await printed("nativekit"), await printed("hardhat")];
        console.log(`  nativekit: ${JSON.stringify(nativekit)}\n  hardhat:   ${JSON.stringify(hardhat)}`);
        check(JSON.stringify(nativekit) === JSON.stringify(CONSOLE_LOG_EXPECTED_LINES), `the nativekit network printed ${JSON.stringify(nativekit)}`);
        check(JSON.stringify(hardhat) === JSON.stringify(nativekit), `Hardhat's network printed ${JSON.stringify(hardhat)}, the nativekit network ${JSON.stringify(nativekit)}`);
      },
    },
    {
      name: "npx hardhat coverage runs on the nativekit network, precompile callers counted, Lock as on Hardhat's network (Hardhat 2)",
      async run() {
        // Lock and its test (Hardhat's sample), AssetTally and its test, a config for Hardhat's network.
        addHardhat2CoverageGasFiles(project);
        const runHardhat = (args: string[], extra: Record<string, string> = {}) => hardhatTestOffline(project, args, userEnv(extra), home);
        console.log(await checkCoverage(runHardhat, project));
      },
    },
    {
      name: "REPORT_GAS=true npx hardhat test lists every method on the nativekit network, precompile callers included, as Hardhat's network does (Hardhat 2)",
      async run() {
        const runHardhat = (args: string[], extra: Record<string, string> = {}) => hardhatTestOffline(project, args, userEnv(extra), home);
        console.log(await checkGasReport(runHardhat));
      },
    },
    {
      name: "Solidity stack traces on the nativekit network name the contracts, functions and lines Hardhat's network names (Hardhat 2)",
      run: () => compareStackTraces((network) => hardhatTestOffline(project, ["test", STACK_TRACE_TEST, "--network", network], userEnv(), home)),
    },
    {
      name: "npx nativekit node answers eth_chainId, stops on SIGTERM, leaves no process",
      run: () => nodeAnswersAndStops(project, userEnv()),
    },
    {
      name: "Node.js 22 for the Hardhat 3 projects, from the npm registry",
      async run() {
        node22Bin = await node22Directory(path.join(root, "node22"), npmCache);
      },
    },
    ...(["mocha-ethers", "node-test-runner-viem"] as const).flatMap((template) => hardhat3Steps(template)),
  ];

  const outcomes: Outcome[] = [];
  let failed = false;
  for (const step of steps) {
    if (failed) {
      outcomes.push({ name: step.name, status: "skipped", seconds: 0 });
      continue;
    }
    console.log(`\n▶ ${step.name}`);
    const t0 = Date.now();
    try {
      await step.run();
      outcomes.push({ name: step.name, status: "passed", seconds: (Date.now() - t0) / 1000 });
    } catch (error) {
      failed = true;
      const message = error instanceof CheckFailed ? error.message : String((error as Error)?.stack ?? error);
      outcomes.push({ name: step.name, status: "failed", seconds: (Date.now() - t0) / 1000, error: message });
      console.log(`  ✗ ${message}`);
    }
  }

  // The last step: nothing left in the temporary directory's place.
  const t0 = Date.now();
  cleanup();
  if (keep) {
    console.log(`\nkept ${root} (NATIVEKIT_JOURNEY_KEEP=1)`);
  } else {
    const gone = !fs.existsSync(root);
    outcomes.push({ name: "the temporary directory is removed", status: gone ? "passed" : "failed", seconds: (Date.now() - t0) / 1000, error: gone ? undefined : `${root} is still there` });
  }

  console.log("\npackage journey:");
  for (const o of outcomes) {
    const mark = o.status === "passed" ? "✓" : o.status === "failed" ? "✗" : "-";
    console.log(`  ${mark} ${o.name}${o.status === "skipped" ? " (skipped)" : ` (${o.seconds.toFixed(1)} s)`}${o.error ? `: ${o.error.split("\n")[0]}` : ""}`);
  }
  const count = (status: Outcome["status"]) => outcomes.filter((o) => o.status === status).length;
  console.log(`  in ${((Date.now() - began) / 1000).toFixed(0)} s`);
  const skipped = count("skipped");
  console.log(`journey: ${count("passed")} passed, ${count("failed")} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
  return count("failed") + skipped === 0 ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
