/**
 * `npm run bench -- node-start`: how a node's start-up with `--db-dir` grows with its chain
 * (issue 28 item 3). For each length it builds a data directory, then starts `nativekit node` on
 * it in a fresh process and times spawn -> first answered eth_blockNumber, and reads the child's
 * heap (after a full GC) and RSS once started and again after a round of reads (blocks at random
 * heights, receipts, a logs query for a rare topic over the whole chain).
 *
 * How the directory is built: in this process, through the built package (dist/): the data
 * directory is opened as the node opens it, and an engine on its contract-chain namespace sends
 * transactions that log (one with a rare topic), then mines the remaining blocks with
 * hardhat_mine. Every block goes through the engine's own persistence (a commit per block), as
 * a node writes it. The platform chain is then opened on its namespace (with the atomic memory
 * on its own, as the node opens them) and accepts one multisig-alias transaction per block,
 * issued with the local test key through its wallet: the first creates an alias, every later one
 * updates it (so its state, one alias and one change UTXO, stays the same size while its chain
 * grows). The chain's clock moves one second per block, ending near now, so the dynamic fee
 * stays at its floor. The exchange chain is made by the node at its first start.
 *
 * Two arms on each directory: the plain node, then the node with the index API
 * (`--index-enabled --index-allow-incomplete`: the directory was built without an index, so its
 * index is incomplete by the node's rules) keeping its indexes in the directory. Before the index
 * arm is timed, untimed starts fill the index: the first records that the node indexes, the next
 * catches up every block accepted before (the bench waits until the C and P indexes hold every
 * block); a timed start then finds an index that holds everything, and must not read the chain
 * again. Each timed start of that arm checks the indexes' last containers.
 *
 * `--dist DIR` runs another build than dist/ (for example the sources compiled with
 * `tsc -p tsconfig.build.json --outDir DIR`, run with NODE_PATH=<repo>/node_modules).
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import * as v8 from "node:v8";
import * as vm from "node:vm";

import { freePort, REPO_ROOT } from "./peers";

export const NODE_START_BENCH_USAGE = `Usage: npm run bench -- node-start [--blocks N,M,...] [--platform-blocks P,Q,...] [--starts S] [--reads R] [--dist DIR]
  --blocks N,M   contract-chain lengths measured (default 1000,100000); the ratio is last / first
  --platform-blocks P,Q
                 platform-chain lengths, one per contract-chain length (default 1000,10000 with the
                 default lengths, else a tenth of each)
  --starts S     cold starts timed per length, the median reported (default 3)
  --reads R      blocks read at random heights after start (default 200)
  --dist DIR     the built package to run (default dist/ of this repository)
`;

type Provider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };
interface DataDirectory {
  store: { namespace(prefix: string): unknown };
  close(): Promise<void>;
}

const NETWORK_ID = 12345;
const CHAIN_ID = 43112;
const COMMON_TOPIC = `0x${"00".repeat(31)}07`;
const RARE_TOPIC = `0x${"ab".repeat(32)}`;
/** Init code: LOG1 with the topic, then STOP. */
const logWith = (topic: string) => `0x7f${topic.slice(2)}60006000a100`;
const LOGGING_TXS = 50;
const MINE_STEP = 5000;
const PLATFORM_PATH = "/ext/bc/P";
const INDEX_FLAGS = ["--index-enabled", "--index-allow-incomplete"];

interface Figures {
  /** The node's flags beyond --db-dir: "plain" or "index". */
  arm: Arm;
  blocks: number;
  platformBlocks: number;
  buildS: number;
  platformBuildS: number;
  /** This process's heap after a full GC once the engine that mined the blocks holds them all (a node that ran that long). */
  builtHeapMb: number;
  startMs: number;
  afterStart: { heapMb: number; rssMb: number };
  afterReads: { heapMb: number; rssMb: number };
  readMs: number;
  rareLogsMs: number;
  platformReadMs: number;
}

export async function nodeStartBenchMain(argv: string[]): Promise<number> {
  let values: { blocks?: string; "platform-blocks"?: string; starts?: string; reads?: string; dist?: string; help?: boolean };
  try {
    const options = {
      blocks: { type: "string" },
      "platform-blocks": { type: "string" },
      starts: { type: "string" },
      reads: { type: "string" },
      dist: { type: "string" },
      help: { type: "boolean", short: "h" },
    } as const;
    values = parseArgs({ args: argv, options }).values;
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${NODE_START_BENCH_USAGE}`);
    return 2;
  }
  if (values.help === true) {
    process.stdout.write(NODE_START_BENCH_USAGE);
    return 0;
  }
  const sizes = (values.blocks ?? "1000,100000").split(",").map(Number);
  const platformSizes = (values["platform-blocks"] ?? (values.blocks === undefined ? "1000,10000" : sizes.map((n) => Math.floor(n / 10)).join(","))).split(",").map(Number);
  const reads = Number(values.reads ?? 200);
  const starts = Number(values.starts ?? 3);
  const dist = path.resolve(values.dist ?? path.join(REPO_ROOT, "dist"));
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < LOGGING_TXS + 1) || !Number.isSafeInteger(reads) || reads < 1 || !Number.isSafeInteger(starts) || starts < 1) {
    process.stderr.write(`error: --blocks takes lengths of at least ${LOGGING_TXS + 1}, --starts and --reads positive integers\n\n${NODE_START_BENCH_USAGE}`);
    return 2;
  }
  if (platformSizes.length !== sizes.length || platformSizes.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    process.stderr.write(`error: --platform-blocks takes one positive length per --blocks length\n\n${NODE_START_BENCH_USAGE}`);
    return 2;
  }
  process.stdout.write(`load average (1/5/15 min) at the start: ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}\n`);
  const results: Figures[] = [];
  const measure = async (arm: Arm, dir: string, sizes: { blocks: number; platformBlocks: number }) => {
    const samples: Sample[] = [];
    for (let s = 0; s < starts; s++) samples.push(await measureStart(dist, dir, arm, sizes, reads));
    samples.sort((a, b) => a.startMs - b.startMs);
    return samples[Math.floor(samples.length / 2)]!;
  };
  for (const [i, blocks] of sizes.entries()) {
    const platformBlocks = platformSizes[i]!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-node-start-"));
    try {
      const { buildS, builtHeapMb } = await buildDataDirectory(dist, dir, blocks);
      const platformBuildS = await buildPlatformChain(dist, dir, platformBlocks);
      // A first start makes the other chains' records (as a node's first start on a copied directory would); not timed.
      await runNode(dist, dir, [], async () => undefined);
      const built = { blocks, platformBlocks, buildS, platformBuildS, builtHeapMb };
      results.push({ arm: "plain", ...built, ...(await measure("plain", dir, { blocks, platformBlocks })) });
      await fillIndexes(dist, dir, { blocks, platformBlocks });
      results.push({ arm: "index", ...built, ...(await measure("index", dir, { blocks, platformBlocks })) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  printFigures(results, reads, starts);
  return 0;
}

/** Builds the directory's contract chain to `blocks` blocks above genesis: the seconds it took, and this process's heap then. */
async function buildDataDirectory(dist: string, dir: string, blocks: number): Promise<{ buildS: number; builtHeapMb: number }> {
  const started = performance.now();
  const { openDataDirectory } = require(path.join(dist, "src", "storage")) as { openDataDirectory(dir: string, identity: object): Promise<DataDirectory> };
  const { createNativeProvider } = require(path.join(dist, "src", "engine", "provider")) as { createNativeProvider(options?: object): Promise<Provider> };
  const data = await openDataDirectory(dir, { networkId: NETWORK_ID, evmChainId: CHAIN_ID });
  try {
    const provider = await createNativeProvider({ chainId: CHAIN_ID, rpcGasCap: 0n, rpcEvmTimeoutMs: 0, store: data.store.namespace("c/") });
    const [from] = (await provider.request({ method: "eth_accounts" })) as string[];
    for (let i = 0; i < LOGGING_TXS; i++) {
      const data = logWith(i === LOGGING_TXS / 2 ? RARE_TOPIC : COMMON_TOPIC);
      await provider.request({ method: "eth_sendTransaction", params: [{ from, data }] });
    }
    for (let height = LOGGING_TXS; height < blocks; height += MINE_STEP) {
      const count = Math.min(MINE_STEP, blocks - height);
      await provider.request({ method: "hardhat_mine", params: [`0x${count.toString(16)}`] });
      process.stderr.write(`[bench node-start] ${height + count} / ${blocks} blocks (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
    }
    const buildS = (performance.now() - started) / 1000;
    // The engine is still reachable here (the provider), with every block it mined.
    fullGc();
    const builtHeapMb = process.memoryUsage().heapUsed / 2 ** 20;
    if (Number(BigInt((await provider.request({ method: "eth_blockNumber" })) as string)) !== blocks) throw new Error("the chain was not built to its length");
    return { buildS, builtHeapMb };
  } finally {
    await data.close();
  }
}

/**
 * Adds `count` blocks to the directory's platform chain, each of one multisig-alias transaction
 * of the local test key (see the head comment); the seconds it took.
 */
async function buildPlatformChain(dist: string, dir: string, count: number): Promise<number> {
  const started = performance.now();
  const load = <T>(...parts: string[]) => require(path.join(dist, "src", ...parts)) as T;
  const { openDataDirectory } = load<{ openDataDirectory(dir: string, identity: object): Promise<DataDirectory & { store: DurableStoreLike } > }>("storage");
  const { SharedMemory } = load<{ SharedMemory: { open(store: unknown): Promise<unknown> } }>("atomic", "shared-memory");
  const { LOCAL_NETWORK, LOCAL_TEST_KEY } = load<{ LOCAL_NETWORK: { networkId: number }; LOCAL_TEST_KEY: string }>("network", "constants");
  const { decodePrivateKey } = load<{ decodePrivateKey(text: string): Uint8Array }>("encoding");
  const pchain = load<PlatformModule>("pchain");
  const data = await openDataDirectory(dir, { networkId: NETWORK_ID, evmChainId: CHAIN_ID });
  try {
    const sharedMemory = await SharedMemory.open(data.store.namespace("atomic/"));
    let now = BigInt(Math.floor(Date.now() / 1000) - count - 1);
    const network = LOCAL_NETWORK;
    const chain = await pchain.PlatformChain.open({ network, sharedMemory, genesis: pchain.platformGenesis(network, {}), store: data.store.namespace("p/"), clock: () => now });
    const wallet = new pchain.PlatformWallet(chain, [decodePrivateKey(LOCAL_TEST_KEY)]);
    const owner = wallet.addresses[0]!;
    let aliasId: Uint8Array | undefined;
    for (let n = 1; n <= count; n++) {
      now++;
      const built = wallet.multisigAlias({ owners: [owner], threshold: 1, memo: new TextEncoder().encode(`block ${n}`), ...(aliasId === undefined ? {} : { aliasId }) });
      const txId = await chain.issue(built.bytes);
      aliasId ??= pchain.aliasIdFromTxId(txId);
      if (n % 1000 === 0 || n === count) process.stderr.write(`[bench node-start] ${n} / ${count} platform blocks (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
    }
    if (chain.height !== BigInt(count)) throw new Error("the platform chain was not built to its length");
    return (performance.now() - started) / 1000;
  } finally {
    await data.close();
  }
}

interface DurableStoreLike {
  namespace(prefix: string): unknown;
}

/** What the bench uses of the built package's platform chain. */
interface PlatformModule {
  PlatformChain: { open(options: object): Promise<{ height: bigint; issue(bytes: Uint8Array): Promise<Uint8Array> }> };
  PlatformWallet: new (
    chain: unknown,
    keys: Uint8Array[],
  ) => { addresses: Uint8Array[]; multisigAlias(args: { owners: Uint8Array[]; threshold: number; memo: Uint8Array; aliasId?: Uint8Array }): { bytes: Uint8Array } };
  platformGenesis(network: object, options: object): unknown;
  aliasIdFromTxId(txId: Uint8Array): Uint8Array;
}

/** A full garbage collection in this process (started without --expose-gc). */
function fullGc(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

type Arm = "plain" | "index";
type Sample = Omit<Figures, "arm" | "blocks" | "platformBlocks" | "buildS" | "platformBuildS" | "builtHeapMb">;
type ChainLengths = { blocks: number; platformBlocks: number };

/** The last index of `path`'s index (undefined while it holds nothing). */
async function lastIndexed(node: RunningNode, path: string): Promise<number | undefined> {
  try {
    return Number(((await node.call(path, "index.getLastAccepted", { encoding: "hex" })) as { index: string }).index);
  } catch {
    return undefined;
  }
}

/** Untimed starts with the index until its C and P indexes hold every block (see the head comment). */
async function fillIndexes(dist: string, dir: string, { blocks, platformBlocks }: ChainLengths): Promise<void> {
  const started = performance.now();
  await runNode(dist, dir, INDEX_FLAGS, async () => undefined);
  await runNode(dist, dir, INDEX_FLAGS, async (node) => {
    for (;;) {
      const [c, p] = [await lastIndexed(node, "/ext/index/C/block"), await lastIndexed(node, "/ext/index/P/block")];
      if (c === blocks - 1 && p === platformBlocks - 1) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  process.stderr.write(`[bench node-start] indexes filled (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
}

/** Cold start on `dir` (with the arm's flags), the memory once started, a round of reads, the memory after. */
async function measureStart(dist: string, dir: string, arm: Arm, { blocks, platformBlocks }: ChainLengths, reads: number): Promise<Sample> {
  return runNode(dist, dir, arm === "index" ? INDEX_FLAGS : [], async (node) => {
    const { rpc, platform, memory, startMs } = node;
    const height = Number(BigInt((await rpc("eth_blockNumber", [])) as string));
    if (height !== blocks) throw new Error(`the node started at block ${height}, not ${blocks}`);
    const platformHeight = Number(((await platform("platform.getHeight", {})) as { height: string }).height);
    if (platformHeight !== platformBlocks) throw new Error(`the node started at platform block ${platformHeight}, not ${platformBlocks}`);
    const afterStart = await memory();
    if (arm === "index") {
      const [c, p] = [await lastIndexed(node, "/ext/index/C/block"), await lastIndexed(node, "/ext/index/P/block")];
      if (c !== blocks - 1 || p !== platformBlocks - 1) throw new Error(`the indexes' last containers are ${c} (C) and ${p} (P), not ${blocks - 1} and ${platformBlocks - 1}`);
    }
    const readStarted = performance.now();
    for (let i = 0; i < reads; i++) {
      const n = Math.floor(Math.random() * (blocks + 1));
      const block = (await rpc("eth_getBlockByNumber", [`0x${n.toString(16)}`, true])) as { number: string; transactions: { hash: string }[] } | null;
      if (block === null || Number(BigInt(block.number)) !== n) throw new Error(`block ${n} not served`);
    }
    // The logging transactions' receipts, found by hash (blocks 1..LOGGING_TXS).
    for (let n = 1; n <= LOGGING_TXS; n += 7) {
      const block = (await rpc("eth_getBlockByNumber", [`0x${n.toString(16)}`, false])) as { transactions: string[] };
      const receipt = (await rpc("eth_getTransactionReceipt", [block.transactions[0]])) as { blockNumber: string } | null;
      if (receipt === null || Number(BigInt(receipt.blockNumber)) !== n) throw new Error(`receipt of block ${n}'s transaction not served`);
    }
    const readMs = performance.now() - readStarted;
    const logsStarted = performance.now();
    const logs = (await rpc("eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest", topics: [RARE_TOPIC] }])) as unknown[];
    const rareLogsMs = performance.now() - logsStarted;
    if (logs.length !== 1) throw new Error(`the rare topic's query found ${logs.length} logs, not 1`);
    const platformStarted = performance.now();
    for (let i = 0; i < reads; i++) {
      const n = 1 + Math.floor(Math.random() * platformBlocks);
      const { block } = (await platform("platform.getBlockByHeight", { height: String(n), encoding: "json" })) as { block: { height: number; txs: { id: string }[] } };
      if (Number(block.height) !== n) throw new Error(`platform block ${n} not served`);
      const { status } = (await platform("platform.getTxStatus", { txID: block.txs[0]!.id })) as { status: string };
      if (status !== "Committed") throw new Error(`platform block ${n}'s transaction is ${status}`);
    }
    const platformReadMs = performance.now() - platformStarted;
    return { startMs, afterStart, afterReads: await memory(), readMs, rareLogsMs, platformReadMs };
  });
}

interface RunningNode {
  /** A JSON-RPC call to `route`. */
  call(route: string, method: string, params: unknown): Promise<unknown>;
  rpc(method: string, params: unknown[]): Promise<unknown>;
  /** A call to the platform chain's API. */
  platform(method: string, params: Record<string, unknown>): Promise<unknown>;
  memory(): Promise<{ heapMb: number; rssMb: number }>;
  startMs: number;
}

/**
 * Starts `nativekit node --db-dir dir` from `dist` in a fresh process (with --expose-gc and an
 * IPC channel that answers its memory after a full GC), waits for its first answer, runs `work`,
 * then stops it with SIGTERM (a clean close).
 */
async function runNode<T>(dist: string, dir: string, flags: readonly string[], work: (node: RunningNode) => Promise<T>): Promise<T> {
  const port = await freePort();
  const script = [
    // The IPC channel must not keep the node alive once it has stopped (SIGTERM).
    `process.channel?.unref();`,
    `process.on("message", () => { global.gc(); const m = process.memoryUsage(); process.send({ heap: m.heapUsed, rss: m.rss }); });`,
    `require(${JSON.stringify(path.join(dist, "src", "cli", "main.js"))}).main(${JSON.stringify(["node", "--db-dir", dir, "--port", String(port), "--silent", "--api-max-blocks-per-request", "1000000000", ...flags])});`,
  ].join("\n");
  const started = performance.now();
  const child = spawn(process.execPath, ["--expose-gc", "-e", script], {
    env: { ...process.env, NODE_PATH: path.join(REPO_ROOT, "node_modules") },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    const call = async (route: string, method: string, params: unknown): Promise<unknown> => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
      const response = await fetch(`http://127.0.0.1:${port}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body });
      const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
      if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`);
      return answer.result;
    };
    const rpc = (method: string, params: unknown[]) => call("/ext/bc/C/rpc", method, params);
    const platform = (method: string, params: Record<string, unknown>) => call(PLATFORM_PATH, method, params);
    await waitForAnswer(rpc, child, () => stderr);
    const startMs = performance.now() - started;
    return await work({ call, rpc, platform, memory: () => memoryOf(child), startMs });
  } finally {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

async function waitForAnswer(rpc: (method: string, params: unknown[]) => Promise<unknown>, child: ChildProcess, stderr: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the node exited (${child.exitCode}) before answering: ${stderr()}`);
    try {
      await rpc("eth_blockNumber", []);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

function memoryOf(child: ChildProcess): Promise<{ heapMb: number; rssMb: number }> {
  return new Promise((resolve) => {
    child.once("message", (m: { heap: number; rss: number }) => resolve({ heapMb: m.heap / 2 ** 20, rssMb: m.rss / 2 ** 20 }));
    child.send("memory");
  });
}

function printFigures(results: readonly Figures[], reads: number, starts: number): void {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`nativekit node --db-dir: cold start (spawn -> first eth_blockNumber answer), fresh process each, the median of ${starts} (with its memory figures)`);
  out(`contract chain built through the engine's persistence: ${LOGGING_TXS} logging transactions, then hardhat_mine to the length`);
  out(`platform chain built through its own persistence: one multisig-alias transaction per block (the first creates the alias, the rest update it), the local test key paying`);
  out(`memory: heapUsed after a full GC and RSS, once started and after ${reads} random block reads, receipts, one logs query and ${reads} platform block + status reads`);
  out(`built heap: the building process's heap after a full GC, its engine holding the chain it mined (a node that ran that long)`);
  out(`arms: plain (--db-dir only) and index (${INDEX_FLAGS.join(" ")}, its indexes in the directory holding every block: see the head comment)`);
  out(`  arm      C blocks   P blocks   build s (C/P)   built heap MB   start ms   heap MB (start/reads)   RSS MB (start/reads)   reads ms   rare-topic getLogs ms   P reads ms`);
  for (const r of results) {
    out(
      `  ${r.arm.padEnd(5)}  ${String(r.blocks).padStart(8)}   ${String(r.platformBlocks).padStart(8)}   ${`${r.buildS.toFixed(1)}/${r.platformBuildS.toFixed(1)}`.padStart(13)}   ${r.builtHeapMb.toFixed(1).padStart(13)}   ${r.startMs.toFixed(0).padStart(8)}   ` +
        `${r.afterStart.heapMb.toFixed(1).padStart(9)} / ${r.afterReads.heapMb.toFixed(1).padEnd(9)}   ${r.afterStart.rssMb.toFixed(1).padStart(8)} / ${r.afterReads.rssMb.toFixed(1).padEnd(9)}   ` +
        `${r.readMs.toFixed(0).padStart(8)}   ${r.rareLogsMs.toFixed(1).padStart(21)}   ${r.platformReadMs.toFixed(0).padStart(10)}`,
    );
  }
  for (const arm of ["plain", "index"] as const) {
    const ofArm = results.filter((r) => r.arm === arm);
    if (ofArm.length < 2) continue;
    const first = ofArm[0]!;
    const last = ofArm[ofArm.length - 1]!;
    out(
      `${arm}: ratio ${last.blocks}+${last.platformBlocks} / ${first.blocks}+${first.platformBlocks} blocks (C+P): start ${(last.startMs / first.startMs).toFixed(2)}x, ` +
        `heap after start ${(last.afterStart.heapMb / first.afterStart.heapMb).toFixed(2)}x, RSS after start ${(last.afterStart.rssMb / first.afterStart.rssMb).toFixed(2)}x (goal: start within 1.5x)`,
    );
  }
  out(`load average (1/5/15 min) at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}`);
}
