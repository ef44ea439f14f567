/**
 * Starting a fork: the options a user gives (Hardhat's `forking`, the CLI's `--fork-*`), and
 * what is settled once before the first local block: the remote's chain ID, the pinned block
 * (a default when none is given, with a warning), the cache, whether the remote serves
 * multi-coin balances, and which precompile behaviour is in force, all printed for people.
 */
import path from "node:path";
import { ForkRemoteError, InvalidInputError } from "../errors";
import { cacheDirectory, DiskCache, endpointFile, readJsonFile, writeJsonFile } from "./cache";
import { ForkSource, quantity, type ForkPoint } from "./fork-source";
import { scheduledPrecompileMode, type PrecompileMode } from "./precompile-schedule";
import { HttpRemote, isRecord, RemoteCallError } from "./remote";

export type { PrecompileMode } from "./precompile-schedule";

export interface ForkingOptions {
  /** JSON-RPC endpoint of the remote contract chain (e.g. https://…/ext/bc/C/rpc). */
  url: string;
  /** The block to fork from; default the remote's latest final block (pin it: the cache is per block). */
  blockNumber?: bigint | number;
  /** Sent with every request (API keys). */
  httpHeaders?: Record<string, string>;
  /** Where immutable answers are cached; default `.nativekit/fork-cache` in the working directory; false: none. */
  cacheDir?: string | false;
  /** false: the options are kept but the chain does not fork (Hardhat's switch). */
  enabled?: boolean;
  /** Force the precompiles' behaviour instead of following the remote chain (see the README). */
  precompiles?: PrecompileMode;
  /** Per request, in milliseconds (default 20 000). */
  timeoutMs?: number;
  /** Retries of a failed request (default 5). */
  retries?: number;
  /** At most this many requests per second to the remote (default: no limit). */
  requestsPerSecond?: number;
}

/** A fork, ready for its first local block. */
export interface OpenedFork {
  readonly source: ForkSource;
  readonly remote: HttpRemote;
  readonly precompileMode: PrecompileMode;
  readonly servesAssetBalances: boolean;
}

/** Confirmations kept behind the head of a chain whose blocks are not known to be final at once. */
const UNKNOWN_CHAIN_CONFIRMATIONS = 5n;
/** Chains where an accepted block is final (the reference chain's): fork at their head. */
const FINAL_CHAINS = new Set([43114, 43113, 43112]);

export const DEFAULT_FORK_CACHE_DIR = path.join(".nativekit", "fork-cache");

/** Whether options ask for a fork at all. */
export function forkingEnabled(options: ForkingOptions | undefined): options is ForkingOptions {
  return options !== undefined && options.enabled !== false;
}

export async function openFork(options: ForkingOptions, log: (line: string) => void): Promise<OpenedFork> {
  checkOptions(options);
  const remote = new HttpRemote({
    url: options.url,
    headers: options.httpHeaders,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    requestsPerSecond: options.requestsPerSecond,
  });
  const cacheDir = options.cacheDir === false ? undefined : path.resolve(options.cacheDir ?? DEFAULT_FORK_CACHE_DIR);
  const endpoint = cacheDir === undefined ? undefined : endpointFile(cacheDir, remote.label);

  // The chain ID comes first (the cache is per chain); offline, the endpoint's last known one.
  // With a cache of this endpoint, one attempt tells whether to work offline (no backoff wait).
  const known = endpoint === undefined ? undefined : readJsonFile(endpoint);
  const cachedChainId = isRecord(known) && typeof known.chainId === "number" ? known.chainId : undefined;
  let chainId: number;
  let online = true;
  try {
    const answer = cachedChainId === undefined ? await remote.call("eth_chainId", []) : await remote.probe("eth_chainId", []);
    chainId = Number(quantityAnswer(answer, remote.label, "eth_chainId"));
  } catch (error) {
    if (!(error instanceof ForkRemoteError) || cachedChainId === undefined) throw error;
    chainId = cachedChainId;
    online = false;
    log(`Warning: fork remote ${remote.label} is unreachable (${error.message}); working from the cache only.`);
  }
  if (endpoint !== undefined && online) writeJsonFile(endpoint, { chainId });
  const cache = new DiskCache(cacheDir === undefined ? undefined : cacheDirectory(cacheDir, remote.label, chainId));

  let blockNumber: bigint;
  if (options.blockNumber !== undefined) blockNumber = BigInt(options.blockNumber);
  else {
    if (!online) throw new ForkRemoteError(`fork remote ${remote.label} is unreachable and no fork block number is pinned: the cache is per block, pin one to work offline`);
    const head = quantityAnswer(await remote.call("eth_blockNumber", []), remote.label, "eth_blockNumber");
    const depth = FINAL_CHAINS.has(chainId) || (await isNativekitNode(remote)) ? 0n : UNKNOWN_CHAIN_CONFIRMATIONS;
    blockNumber = head > depth ? head - depth : 0n;
    log(
      `Warning: no fork block number given: forking at block ${blockNumber} (the remote's head ${head}${depth > 0n ? ` minus ${depth} confirmations` : ""}). ` +
        "Pin it (forking.blockNumber / --fork-block-number) for reproducible runs and a cache that serves the next run.",
    );
  }

  const source = new ForkSource(remote, cache, await forkPoint(remote, cache, blockNumber, online, log), chainId);
  const precompileMode = await choosePrecompileMode(options, source, remote, log);
  const servesAssetBalances = await source.servesAssetBalances();
  const { point } = source;
  log(`Forking ${remote.label} (chain ${chainId}) at block ${point.number}, hash ${point.hash}.`);
  log(
    servesAssetBalances
      ? "Multi-coin balances: read from the remote with eth_getAssetBalance."
      : "Multi-coin balances: the remote does not serve eth_getAssetBalance; they start at zero unless seeded (assetBalances, nativekit_setAssetBalance).",
  );
  return { source, remote, precompileMode, servesAssetBalances };
}

function checkOptions(options: ForkingOptions): void {
  if (typeof options.url !== "string" || !/^https?:\/\//i.test(options.url)) {
    throw new InvalidInputError(`forking.url must be an http(s) URL, got ${JSON.stringify(options.url)}`);
  }
  if (options.blockNumber !== undefined && BigInt(options.blockNumber) < 0n) throw new InvalidInputError("forking.blockNumber must not be negative");
  if (options.precompiles !== undefined && options.precompiles !== "active" && options.precompiles !== "deprecated") {
    throw new InvalidInputError(`forking.precompiles must be "active" or "deprecated", got ${JSON.stringify(options.precompiles)}`);
  }
}

/**
 * The pinned block as the remote reports it. A loopback remote is a development node whose chain
 * may have been restarted since the cache was written: its block is checked live, and a cache
 * that disagrees is dropped. Public chains' accepted blocks are final: their cache is trusted.
 */
async function forkPoint(remote: HttpRemote, cache: DiskCache, blockNumber: bigint, online: boolean, log: (line: string) => void): Promise<ForkPoint> {
  const params = [quantity(blockNumber), false];
  let block: unknown;
  if (online && isLoopback(remote.label)) {
    block = await remote.call("eth_getBlockByNumber", params);
    const cached = cache.get("eth_getBlockByNumber", params);
    if (isRecord(cached) && isRecord(block) && cached.hash !== block.hash) {
      log(`The cache of ${remote.label} was written for another chain (block ${blockNumber} has another hash now): dropping it.`);
      cache.clear();
    }
    if (block !== null) cache.put("eth_getBlockByNumber", params, block);
  } else {
    block = cache.get("eth_getBlockByNumber", params) ?? (await remote.call("eth_getBlockByNumber", params));
    if (block !== null) cache.put("eth_getBlockByNumber", params, block);
  }
  if (block === null) throw new InvalidInputError(`fork remote ${remote.label} has no block ${blockNumber}`);
  const garbage = (field: string) => new ForkRemoteError(`fork remote ${remote.label} (eth_getBlockByNumber): the block has no valid ${field}`);
  if (!isRecord(block)) throw new ForkRemoteError(`fork remote ${remote.label} (eth_getBlockByNumber): expected a block object, got ${JSON.stringify(block)}`);
  const hash = block.hash;
  if (typeof hash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw garbage("hash");
  const field = (name: string, fallback?: bigint): bigint => {
    const value = block[name];
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value !== "string" || !/^0x[0-9a-fA-F]+$/.test(value)) throw garbage(name);
    return BigInt(value);
  };
  const number = field("number");
  if (number !== blockNumber) throw garbage(`number (asked for ${blockNumber}, got ${number})`);
  return { number, hash: hash.toLowerCase(), timestamp: field("timestamp"), gasLimit: field("gasLimit"), baseFeePerGas: field("baseFeePerGas", 0n) };
}

/**
 * Forced by the options; else a nativekit remote's own mode; else the known chain's schedule at
 * the fork block's time; else active (the simulator's default). Printed with the reason.
 */
async function choosePrecompileMode(options: ForkingOptions, source: ForkSource, remote: HttpRemote, log: (line: string) => void): Promise<PrecompileMode> {
  const say = (mode: PrecompileMode, why: string) => {
    log(`Native-asset precompiles: ${mode} (${why}).`);
    return mode;
  };
  if (options.precompiles !== undefined) return say(options.precompiles, "forced by the forking options");
  const reported = await nativekitPrecompileMode(source, remote);
  if (reported !== undefined) return say(reported, "as the remote nativekit node runs them");
  const scheduled = scheduledPrecompileMode(source.chainId, source.point.timestamp);
  if (scheduled !== undefined) return say(scheduled.mode, `the ${scheduled.network}'s upgrade schedule at the fork block's time`);
  return say("active", `chain ${source.chainId} has no known upgrade schedule`);
}

/** The mode a nativekit node reports (nativekit_precompileMode); undefined from any other node. */
async function nativekitPrecompileMode(source: ForkSource, remote: HttpRemote): Promise<PrecompileMode | undefined> {
  try {
    const mode = await source.settled("nativekit_precompileMode", []);
    return mode === "active" || mode === "deprecated" ? mode : undefined;
  } catch (error) {
    if (error instanceof RemoteCallError) return undefined;
    if (error instanceof ForkRemoteError && !isLoopback(remote.label)) return undefined;
    throw error;
  }
}

async function isNativekitNode(remote: HttpRemote): Promise<boolean> {
  try {
    const version = await remote.call("web3_clientVersion", []);
    return typeof version === "string" && version.includes("nativekit");
  } catch {
    return false;
  }
}

function quantityAnswer(value: unknown, label: string, method: string): bigint {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new ForkRemoteError(`fork remote ${label} (${method}): expected a hex quantity, got ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}

function isLoopback(label: string): boolean {
  return /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?\//i.test(label);
}
