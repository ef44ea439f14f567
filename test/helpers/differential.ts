/**
 * A differential harness: the same JSON-RPC script runs on nativekit (in process) and on a
 * peer, Hardhat's own network (EDR, in process) or anvil (the binary of the
 * @foundry-rs/anvil-linux-amd64 dev dependency, a child process on a free loopback port, stopped
 * by its pid), and their answers are compared step by step.
 *
 * The backends start alike, so that addresses, nonces, transaction hashes and balances line up:
 * the same funded accounts (the test mnemonic's first ten, 10 000 coins each), the same chain ID,
 * hardfork (Cancun), block gas limit and automine, and a base fee of 0 (nativekit's floor, Hardhat's
 * initial base fee and anvil's `--base-fee`), so that a transaction that names its fees pays the
 * same everywhere.
 *
 * What still differs by design is named: a step lists the {@link DIFFERENCES} its answer is
 * normalised for, each with the peers it concerns and its reason, and each is listed in the
 * README ("Differences from Hardhat's network and anvil"). Nothing else is swallowed: the first
 * answer that differs after those normalisations fails the script, with both values.
 */
import { expect } from "chai";
import hre from "hardhat";
import { createProvider } from "hardhat/internal/core/providers/construction";
import type { HardhatNetworkConfig } from "hardhat/types";

import { anvilPeer, startPeer } from "../../bench/peers";
import { createNativeProvider, type NativeProvider } from "../../src/engine";
import { DEFAULT_MNEMONIC } from "../../src/engine/accounts";

/** The settings every backend starts with. */
export const SETUP = {
  chainId: 31337,
  hardfork: "cancun",
  blockGasLimit: 15_000_000n,
  baseFee: 0n,
  mnemonic: DEFAULT_MNEMONIC,
  accounts: 10,
  /** Coins (10^18 wei) of each funded account. */
  balance: 10_000n,
} as const;

export type PeerName = "hardhat" | "anvil";
export type BackendName = "nativekit" | PeerName;

/** A JSON-RPC answer: its result, or its error (never thrown). */
export interface Answer {
  result?: unknown;
  /** `code` is a number, or a difference's mark once normalised. */
  error?: { code: number | string; message: string; data?: unknown };
}

/** One network under test. */
export interface Backend {
  readonly name: BackendName;
  call(method: string, params: unknown[]): Promise<Answer>;
  stop(): Promise<void>;
}

/** An error thrown by an in-process provider, as the answer a transport would carry. */
function thrown(error: unknown): Answer {
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  const answer: Answer = { error: { code: typeof e.code === "number" ? e.code : "(none)", message: String(e.message) } };
  // An error's data of null is no data (Hardhat's errors carry `data: null`).
  if (e.data !== undefined && e.data !== null) answer.error!.data = e.data;
  return answer;
}

/** JSON as it would cross the wire (in-process providers may answer with bigints or undefined fields). */
function wire(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `0x${v.toString(16)}` : v)));
}

/** nativekit's engine, in process, with {@link SETUP}. */
export async function startNativekit(): Promise<Backend> {
  const provider: NativeProvider = await createNativeProvider({
    chainId: SETUP.chainId,
    hardfork: SETUP.hardfork,
    blockGasLimit: SETUP.blockGasLimit,
    minBaseFeePerGas: SETUP.baseFee,
    automine: true,
    accounts: { mnemonic: SETUP.mnemonic, count: SETUP.accounts, balance: SETUP.balance * 10n ** 18n },
  });
  return inProcess("nativekit", provider);
}

/** A backend of an in-process EIP-1193 provider: its answers as they would cross the wire. */
function inProcess(name: BackendName, provider: { request(args: { method: string; params: unknown[] }): Promise<unknown> }): Backend {
  return {
    name,
    call: async (method, params) => {
      try {
        return { result: wire(await provider.request({ method, params })) };
      } catch (error) {
        return thrown(error);
      }
    },
    stop: async () => {},
  };
}

/** Hardhat's own network (EDR), in process, with this repository's Hardhat config changed to {@link SETUP}. */
export async function startHardhat(): Promise<Backend> {
  const base = hre.config.networks.hardhat;
  const network: HardhatNetworkConfig = {
    ...base,
    chainId: SETUP.chainId,
    hardfork: SETUP.hardfork,
    blockGasLimit: Number(SETUP.blockGasLimit),
    initialBaseFeePerGas: Number(SETUP.baseFee),
    // What Hardhat resolves for a hardfork before Osaka: a transaction without gas gets the block's.
    gas: Number(SETUP.blockGasLimit),
    // A node's answers: a failed transaction is mined and its hash answered, as on the others.
    throwOnTransactionFailures: false,
    throwOnCallFailures: true,
    mining: { ...base.mining, auto: true, interval: 0 },
    accounts: { ...(base.accounts as object), mnemonic: SETUP.mnemonic, count: SETUP.accounts, initialIndex: 0, accountsBalance: (SETUP.balance * 10n ** 18n).toString() } as HardhatNetworkConfig["accounts"],
    loggingEnabled: false,
  };
  const provider = await createProvider({ ...hre.config, networks: { ...hre.config.networks, hardhat: network } }, "hardhat");
  return inProcess("hardhat", { request: (args) => provider.request(args) });
}

/** anvil, as a child process on a free loopback port; `stop` ends it by its pid. */
export async function startAnvil(): Promise<Backend & { readonly pid: number | undefined }> {
  const spec = {
    ...anvilPeer(),
    chainId: BigInt(SETUP.chainId),
    args: (port: number) => [
      ...["--host", "127.0.0.1", "--port", String(port), "--silent", "--steps-tracing"],
      ...["--chain-id", String(SETUP.chainId), "--hardfork", SETUP.hardfork, "--gas-limit", String(SETUP.blockGasLimit), "--base-fee", String(SETUP.baseFee)],
      ...["--mnemonic", SETUP.mnemonic, "--accounts", String(SETUP.accounts), "--balance", String(SETUP.balance)],
    ],
  };
  const { peer } = await startPeer(spec);
  const url = spec.url(peer.port);
  let id = 0;
  const request = async (method: string, params: unknown[]): Promise<Answer> => {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }) });
    const answer = (await response.json()) as Answer;
    return answer.error !== undefined ? { error: answer.error } : { result: answer.result };
  };
  // anvil answers a transaction's hash before its automined block is in the chain (the
  // difference anvilMinesAfterAnswer): as a client would, wait for the receipt before going on.
  let automine = true;
  const mined = async (hash: unknown): Promise<void> => {
    for (let i = 0; i < 400; i++) {
      if ((await request("eth_getTransactionReceipt", [hash])).result != null) return;
      // A transaction whose nonce is ahead of its sender's waits in the pool: no block is coming.
      const pending = (await request("eth_getTransactionByHash", [hash])).result as { from: string; nonce: string } | null;
      if (pending !== null && BigInt(pending.nonce) > BigInt((await request("eth_getTransactionCount", [pending.from, "latest"])).result as string)) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return {
    name: "anvil",
    get pid() {
      return peer.pid;
    },
    call: async (method, params) => {
      const answer = await request(method, params);
      if ((method === "evm_setAutomine" || method === "anvil_setAutomine") && answer.error === undefined) automine = params[0] === true;
      if ((method === "eth_sendTransaction" || method === "eth_sendRawTransaction") && automine && typeof answer.result === "string") await mined(answer.result);
      return answer;
    },
    stop: () => peer.stop(),
  };
}

/**
 * A difference by design between nativekit and a peer: the peers it concerns, why (the README
 * says more), and how a pair of answers is normalised for it. A normalisation marks what it
 * hides with its own name, on both sides, so a field that one answer has and the other lacks
 * is still seen unless the difference is about that field.
 */
export interface Difference {
  readonly peers: readonly PeerName[];
  readonly reason: string;
  normalise(ours: Answer, theirs: Answer, peer: PeerName): [Answer, Answer];
}

type Json = unknown;
type Rewrite = (value: Json, key: string, parent: Record<string, Json>) => Json;

/** Rewrites every object field of a result, at any depth, whose key `rewrite` is given for. */
function walk(value: Json, rewrites: Readonly<Record<string, Rewrite>>): Json {
  if (Array.isArray(value)) return value.map((v) => walk(v, rewrites));
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, Json>;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(object)) {
    const rewrite = rewrites[k];
    const rewritten = rewrite === undefined ? walk(v, rewrites) : rewrite(v, k, object);
    if (rewritten !== undefined) out[k] = rewritten;
  }
  return out;
}

/** The same normalisation of both answers' results (errors left as they are). */
function onResults(rewrite: (result: Json) => Json): Difference["normalise"] {
  const one = (a: Answer): Answer => (a.error !== undefined ? a : { result: rewrite(a.result) });
  return (ours, theirs) => [one(ours), one(theirs)];
}

/** The same normalisation of both answers' errors (results left as they are). */
function onErrors(rewrite: (error: NonNullable<Answer["error"]>, peer: PeerName) => NonNullable<Answer["error"]>): Difference["normalise"] {
  const one = (a: Answer, peer: PeerName): Answer => (a.error === undefined ? a : { error: rewrite(a.error, peer) });
  return (ours, theirs, peer) => [one(ours, peer), one(theirs, peer)];
}

/** Replaces the named fields' values (not null ones) with the difference's mark. */
function marked(name: string, keys: readonly string[], when: (parent: Record<string, Json>) => boolean = () => true): Difference["normalise"] {
  const mark = `‹${name}›`;
  const rewrite: Rewrite = (v, _k, parent) => (v === null || !when(parent) ? v : mark);
  return onResults((result) => walk(result, Object.fromEntries(keys.map((k) => [k, rewrite]))));
}

/** Drops the named fields. */
function dropped(keys: readonly string[]): Difference["normalise"] {
  return onResults((result) => walk(result, Object.fromEntries(keys.map((k) => [k, () => undefined]))));
}

/**
 * Replaces both whole answers with the difference's mark: a result with a marked result, an
 * error with a marked error (so that whether each was refused is still compared), or, with
 * `outcome` false, either with a marked result (for a difference in whether a call is refused).
 */
function whole(name: string, outcome = true): Difference["normalise"] {
  const mark = (a: Answer): Answer => (a.error !== undefined && outcome ? { error: { code: `‹${name}›`, message: `‹${name}›` } } : { result: `‹${name}›` });
  return (ours, theirs) => [mark(ours), mark(theirs)];
}

/** Drops the named fields from nativekit's answer where the peer's answer lacks them (at the same place). */
function lackedByPeer(keys: readonly string[]): Difference["normalise"] {
  const strip = (ours: Json, theirs: Json): Json => {
    if (Array.isArray(ours) && Array.isArray(theirs)) return ours.map((v, i) => strip(v, theirs[i]));
    if (ours === null || theirs === null || typeof ours !== "object" || typeof theirs !== "object" || Array.isArray(ours) || Array.isArray(theirs)) return ours;
    const [a, b] = [ours as Record<string, Json>, theirs as Record<string, Json>];
    return Object.fromEntries(Object.entries(a).filter(([k]) => !(keys.includes(k) && !(k in b))).map(([k, v]) => [k, strip(v, b[k])]));
  };
  return (ours, theirs) => [ours.error !== undefined || theirs.error !== undefined ? ours : { result: strip(ours.result, theirs.result) }, theirs];
}

const BOTH: readonly PeerName[] = ["hardhat", "anvil"];
/** Ten decimal digits: a Unix time in seconds, inside a message. */
const UNIX_TIME = /\b\d{10}\b/g;

/**
 * Every difference the scripts normalise, by name. Each is listed in the README section
 * "Differences from Hardhat's network and anvil" (a test checks that).
 */
export const DIFFERENCES = {
  blockHash: {
    peers: BOTH,
    reason: "a block's header holds its time, coinbase, state root and the chain's own fields: its hash differs, and so does every hash that names it",
    // A block's own hash is its `hash`; a transaction's `hash` is the transaction's and stays.
    normalise: (ours, theirs, peer) => marked("blockHash", ["hash"], (parent) => "parentHash" in parent)(...marked("blockHash", ["blockHash", "parentHash"])(ours, theirs, peer), peer),
  },
  blockHashes: {
    peers: BOTH,
    reason: "a block filter's changes are block hashes (see blockHash)",
    normalise: onResults((result) => (Array.isArray(result) ? result.map(() => "‹blockHash›") : result)),
  },
  timestamp: {
    peers: BOTH,
    reason: "each network reads its own wall clock",
    normalise: (ours, theirs, peer) => {
      const [a, b] = marked("timestamp", ["timestamp"])(ours, theirs, peer);
      return onErrors((e) => ({ ...e, message: e.message.replace(UNIX_TIME, "‹timestamp›") }))(a, b, peer);
    },
  },
  stateRoot: {
    peers: BOTH,
    reason: "fees go to each network's own coinbase, so the state differs there",
    normalise: marked("stateRoot", ["stateRoot"]),
  },
  coinbase: {
    peers: BOTH,
    reason: "nativekit pays fees to the contract chain's black-hole address; Hardhat and anvil to a coinbase of their own",
    normalise: (ours, theirs, peer) => (typeof ours.result === "string" ? whole("coinbase")(ours, theirs, peer) : marked("coinbase", ["miner"])(ours, theirs, peer)),
  },
  clientVersion: {
    peers: BOTH,
    reason: "each network names itself",
    normalise: whole("clientVersion"),
  },
  chainHeaderFields: {
    peers: BOTH,
    reason: "nativekit's blocks carry the contract chain's header fields (extDataGasUsed, blockGasCost, blockExtraData), so their size differs",
    normalise: (ours, theirs, peer) => marked("chainHeaderFields", ["size"])(...dropped(["extDataGasUsed", "blockGasCost", "blockExtraData"])(ours, theirs, peer), peer),
  },
  prevRandao: {
    peers: BOTH,
    reason: "the contract chain has no beacon randomness: nativekit's mixHash is zero (unless hardhat_setPrevRandao sets it); Hardhat and anvil make one per block",
    normalise: marked("prevRandao", ["mixHash"]),
  },
  parentBeaconBlockRoot: {
    peers: ["hardhat"],
    reason: "no beacon chain: nativekit's parentBeaconBlockRoot is zero, as anvil's; Hardhat makes one per block",
    normalise: marked("parentBeaconBlockRoot", ["parentBeaconBlockRoot"]),
  },
  hardhatTransactionFields: {
    peers: ["hardhat"],
    reason: "Hardhat's transactions lack yParity (typed ones) and chainId (legacy ones), which geth's, anvil's and nativekit's have",
    normalise: lackedByPeer(["yParity", "chainId"]),
  },
  anvilBlockTimestamp: {
    peers: ["anvil"],
    reason: "anvil adds blockTimestamp to transactions, receipts (there a number) and logs",
    normalise: dropped(["blockTimestamp"]),
  },
  anvilBlobGasPrice: {
    peers: ["anvil"],
    reason: "anvil adds blobGasPrice to every receipt; geth only to a blob transaction's",
    normalise: dropped(["blobGasPrice"]),
  },
  feeSuggestions: {
    peers: BOTH,
    reason: "nativekit suggests the next block's base fee and no tip (the contract chain needs none); Hardhat and anvil a tip of 1 gwei",
    normalise: whole("feeSuggestions"),
  },
  filledTransaction: {
    peers: BOTH,
    reason: "a transaction that names no gas or fees is filled in by each network (see feeSuggestions; Hardhat's gas is its block gas limit): its hash, gas and price differ",
    normalise: (ours, theirs, peer) =>
      typeof ours.result === "string"
        ? whole("filledTransaction")(ours, theirs, peer)
        : marked("filledTransaction", ["transactionHash", "hash", "effectiveGasPrice", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "gas"])(ours, theirs, peer),
  },
  hardhatTransferEstimate: {
    peers: ["hardhat"],
    reason: "Hardhat estimates a plain transfer at 21 001 gas; geth, anvil and nativekit at 21 000",
    normalise: (ours, theirs) => (ours.result === "0x5208" && theirs.result === "0x5209" ? [theirs, theirs] : [ours, theirs]),
  },
  gasEstimate: {
    peers: BOTH,
    reason: "nativekit's eth_estimateGas stops as geth's does, within 1.5% above the least gas that succeeds; Hardhat and anvil find the least",
    normalise: (ours, theirs) => {
      if (typeof ours.result !== "string" || typeof theirs.result !== "string") return [ours, theirs];
      const [a, b] = [BigInt(ours.result), BigInt(theirs.result)];
      return a >= b && (a - b) * 1000n <= b * 16n ? [theirs, theirs] : [ours, theirs];
    },
  },
  rejectionWords: {
    peers: BOTH,
    reason: "a transaction refused before it runs (funds, nonce, unknown sender): nativekit answers in geth's words, with the values; Hardhat and anvil in their own",
    normalise: onErrors((e) => ({ ...e, message: "‹rejectionWords›" })),
  },
  anvilRejectionCodes: {
    peers: ["anvil"],
    reason: "anvil refuses such a transaction with -32003 (funds, nonce) or -32602 (unknown sender); geth and nativekit with -32000",
    normalise: onErrors((e) => ({ ...e, code: "‹anvilRejectionCodes›" })),
  },
  hardhatFailureErrors: {
    peers: ["hardhat"],
    reason: "Hardhat answers a failed call or estimate in its own words (\"VM Exception while processing transaction: ...\") and without geth's code 3; the revert data is the same",
    normalise: onErrors((e) => {
      const data = typeof e.data === "object" && e.data !== null ? (e.data as { data?: unknown }).data : e.data;
      return { code: "‹hardhatFailureErrors›", message: "‹hardhatFailureErrors›", ...(typeof data === "string" && data !== "0x" ? { data } : {}) };
    }),
  },
  anvilFailureErrors: {
    peers: ["anvil"],
    reason: "anvil words a custom error its own way (\"custom error 0x…: <its data as text>\"), answers code 3 for a revert without data and -32603 \"EVM error OutOfGas\"; nativekit answers as geth (the revert data is the same)",
    normalise: onErrors((e) => ({ code: "‹anvilFailureErrors›", message: "‹anvilFailureErrors›", ...(e.data !== undefined && e.data !== "0x" ? { data: e.data } : {}) })),
  },
  panicWords: {
    peers: ["anvil"],
    reason: "nativekit words a panic \"panic code 0x12\" (as Hardhat's stack traces); geth \"division or modulo by zero\", anvil \"panic: division or modulo by zero (0x12)\"",
    normalise: onErrors((e) => ({ ...e, message: e.message.replace(/panic.*$/, "‹panicWords›") })),
  },
  anvilQueuesFutureNonces: {
    peers: ["anvil"],
    reason: "anvil, automining, takes a transaction whose nonce is ahead of the sender's and keeps it pending; geth's dev mode, Hardhat and nativekit refuse it",
    normalise: whole("anvilQueuesFutureNonces", false),
  },
  paramWords: {
    peers: BOTH,
    reason: "a malformed parameter is refused by each network in its own words (nativekit's name the parameter); Hardhat's code is -32000",
    normalise: onErrors((e) => ({ code: "‹paramWords›", message: "‹paramWords›" })),
  },
  anvilUnknownTransactionTrace: {
    peers: ["anvil"],
    reason: "anvil traces a transaction it does not know as an empty struct log; geth and nativekit refuse: \"transaction not found\"",
    normalise: whole("anvilUnknownTransactionTrace", false),
  },
  hardhatUnsupported: {
    peers: ["hardhat"],
    reason: "Hardhat's network does not serve eth_getBlockReceipts, eth_getUncleCountByBlockNumber nor txpool_status",
    normalise: whole("hardhatUnsupported", false),
  },
  hardhatGasUsedRatio: {
    peers: ["hardhat"],
    reason: "Hardhat's eth_feeHistory computes gasUsedRatio with a rounding of its own (the last digit); nativekit divides as geth (and anvil) do",
    normalise: (ours, theirs) => {
      const close = (a: Json, b: Json) => typeof a === "number" && typeof b === "number" && Math.abs(a - b) <= 1e-15 * Math.max(Math.abs(a), Math.abs(b));
      const [a, b] = [ours.result as { gasUsedRatio?: Json[] } | null, theirs.result as { gasUsedRatio?: Json[] } | null];
      if (!Array.isArray(a?.gasUsedRatio) || !Array.isArray(b?.gasUsedRatio) || a.gasUsedRatio.length !== b.gasUsedRatio.length) return [ours, theirs];
      const ratios = a.gasUsedRatio.map((r, i) => (close(r, b.gasUsedRatio![i]) ? b.gasUsedRatio![i] : r));
      return [{ result: { ...a, gasUsedRatio: ratios } }, theirs];
    },
  },
  anvilBlobFields: {
    peers: ["anvil"],
    reason: "the contract chain has no blob transactions: nativekit's eth_feeHistory has no baseFeePerBlobGas nor blobGasUsedRatio; anvil's has",
    normalise: dropped(["baseFeePerBlobGas", "blobGasUsedRatio"]),
  },
  anvilBlockPastHead: {
    peers: ["anvil"],
    reason: "anvil refuses a block past its head (-32602 \"BlockOutOfRangeError\") where geth, Hardhat and nativekit answer null",
    normalise: whole("anvilBlockPastHead", false),
  },
  blockPastHeadWords: {
    peers: BOTH,
    reason: "a state read at a block past the head is refused in each network's words (geth's \"header not found\"); nativekit and anvil answer -32602, Hardhat -32000",
    normalise: onErrors((e, peer) => ({ code: peer === "hardhat" ? "‹blockPastHeadWords›" : e.code, message: "‹blockPastHeadWords›" })),
  },
  hardhatFilters: {
    peers: ["hardhat"],
    reason: "Hardhat's block filter also gives the block it was made at, its eth_getFilterLogs of a filter from \"latest\" finds nothing, and it answers null for a filter that is gone",
    normalise: whole("hardhatFilters", false),
  },
  filterNotFoundWords: {
    peers: ["anvil"],
    reason: "nativekit's \"filter not found\" says why after geth's words",
    normalise: onErrors((e) => ({ ...e, message: e.message.replace(/^filter not found.*/, "filter not found") })),
  },
  evmMineAnswer: {
    peers: ["hardhat"],
    reason: "evm_mine answers anvil's \"0x0\"; Hardhat's is \"0\"",
    normalise: whole("evmMineAnswer"),
  },
  evmAnswers: {
    peers: ["anvil"],
    reason: "the evm_ methods keep Hardhat's answers: evm_setAutomine true (anvil's null), evm_increaseTime and evm_setNextBlockTimestamp decimal strings (anvil's a number and null)",
    normalise: whole("evmAnswers"),
  },
  timestampRefusal: {
    peers: BOTH,
    reason: "a timestamp earlier than the head's is refused with -32602 and Hardhat's words; Hardhat's code is -32000, anvil's words its own",
    normalise: onErrors((e, peer) => (peer === "hardhat" ? { ...e, code: "‹timestampRefusal›" } : { ...e, message: "‹timestampRefusal›" })),
  },
  impersonatedHash: {
    peers: BOTH,
    reason: "an impersonated sender's transaction has no real signature; each network makes up its own, so its hash differs",
    normalise: (ours, theirs, peer) =>
      typeof ours.result === "string" ? whole("impersonatedHash")(ours, theirs, peer) : marked("impersonatedHash", ["transactionHash", "hash", "r", "s", "v", "yParity"])(ours, theirs, peer),
  },
  hardhatTracers: {
    peers: ["hardhat"],
    reason: "Hardhat's network serves only the struct logger: it refuses callTracer",
    normalise: whole("hardhatTracers", false),
  },
  anvilCallTracerGas: {
    peers: ["anvil"],
    reason: "anvil's callTracer gives the top frame the gas left after the intrinsic cost; geth's (and nativekit's) the transaction's gas limit",
    normalise: onResults((result) => (result !== null && typeof result === "object" && "gas" in result ? { ...result, gas: "‹anvilCallTracerGas›" } : result)),
  },
  hardhatStructLogFormat: {
    peers: ["hardhat"],
    reason: "Hardhat's struct logger keeps geth's older format: stack words padded without 0x, memory on every entry, the storage touched so far on every entry after the first SLOAD or SSTORE, returnValue \"\" for none",
    normalise: (ours, theirs) => {
      const word = (w: Json) => (typeof w === "string" ? `0x${BigInt(`0x${w.replace(/^0x/, "") || "0"}`).toString(16)}` : w);
      const entry: Rewrite = (logs) =>
        Array.isArray(logs)
          ? logs.map((l: Record<string, Json>) => {
              const { memory: _memory, storage, stack, ...rest } = l;
              const shown = (l.op === "SSTORE" || l.op === "SLOAD") && storage !== undefined && Object.keys(storage as object).length > 0;
              return { ...rest, ...(Array.isArray(stack) ? { stack: stack.map(word) } : {}), ...(shown ? { storage } : {}) };
            })
          : logs;
      const old = (a: Answer): Answer =>
        a.error !== undefined ? a : { result: walk(a.result, { structLogs: entry, returnValue: (v) => (v === "" ? "0x" : v) }) };
      return [ours, old(theirs)];
    },
  },
  anvilStructLogFormat: {
    peers: ["anvil"],
    reason: "anvil's struct log gives every entry a refund, 0 included, and 0x-prefixes storage slots and values; geth (and nativekit) leave out a refund of 0 and write them without 0x",
    normalise: (ours, theirs) => {
      const bare = (storage: Json) => Object.fromEntries(Object.entries(storage as Record<string, string>).map(([k, v]) => [k.replace(/^0x/, ""), v.replace(/^0x/, "")]));
      const geth = (a: Answer): Answer => (a.error !== undefined ? a : { result: walk(a.result, { refund: (v) => (v === 0 ? undefined : v), storage: bare }) });
      return [ours, geth(theirs)];
    },
  },
  anvilMinesAfterAnswer: {
    peers: ["anvil"],
    reason: "anvil answers an automined transaction's hash before its block is in the chain: a receipt asked for at once may be null (the harness waits for it, as clients do)",
    normalise: (ours, theirs) => [ours, theirs],
  },
  snapshotId: {
    peers: BOTH,
    reason: "a snapshot's ID is opaque: each network counts its own (Hardhat counts also the snapshots its own tooling takes)",
    normalise: whole("snapshotId"),
  },
  filterId: {
    peers: ["anvil"],
    reason: "a filter's ID is opaque: anvil's are random, nativekit's count from 0x1 as Hardhat's",
    normalise: whole("filterId"),
  },
} satisfies Record<string, Difference>;

export type DifferenceName = keyof typeof DIFFERENCES;

/** The results earlier steps of a script kept, by their `as` name, on one backend. */
export type Saved = Readonly<Record<string, unknown>>;

/** One call of a script. */
export interface Step {
  method: string;
  /** The parameters, or a function of the results kept so far on the backend it runs on. */
  params?: unknown[] | ((saved: Saved) => unknown[]);
  /** Keep the result under this name. */
  as?: string;
  /** The differences this step's answer is normalised for. */
  differ?: readonly DifferenceName[];
  /** Run on these peers only (default: every peer of the harness). */
  only?: readonly PeerName[];
  /**
   * What is compared of a result, when not the result itself: a value derived from it and from
   * the results kept (a block's time after an earlier block's). Errors are compared as they are.
   */
  observe?: (result: unknown, saved: Saved) => unknown;
}

/** A mark for a JSON path, for messages. */
function at(path: string[]): string {
  return path.length === 0 ? "(the answer)" : path.join(".");
}

/** Where `a` and `b` differ, in order (at most `limit` places). */
export function differences(a: unknown, b: unknown, limit = 1, path: string[] = []): { path: string; ours: unknown; theirs: unknown }[] {
  if (a === b) return [];
  const found: { path: string; ours: unknown; theirs: unknown }[] = [];
  const add = (more: { path: string; ours: unknown; theirs: unknown }[]) => found.push(...more.slice(0, limit - found.length));
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [{ path: at([...path, "length"]), ours: a.length, theirs: b.length }];
    for (let i = 0; i < a.length && found.length < limit; i++) add(differences(a[i], b[i], limit, [...path, String(i)]));
    return found;
  }
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      if (found.length >= limit) break;
      const [x, y] = [(a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]];
      if (!(k in a) || !(k in b)) add([{ path: at([...path, k]), ours: k in a ? x : "(absent)", theirs: k in b ? y : "(absent)" }]);
      else add(differences(x, y, limit, [...path, k]));
    }
    return found;
  }
  return [{ path: at(path), ours: a, theirs: b }];
}

const SURVEY = process.env.DIFFERENTIAL_SURVEY === "1";

/** nativekit and the peers it is compared with; runs scripts on all of them. */
export class Differential {
  private readonly saved = new Map<BackendName, Record<string, unknown>>();

  constructor(
    readonly nativekit: Backend,
    readonly peers: readonly Backend[],
  ) {}

  /** Every backend, nativekit first. */
  get backends(): Backend[] {
    return [this.nativekit, ...this.peers];
  }

  /** A result kept by `as` on a backend. */
  kept(backend: BackendName, name: string): unknown {
    return this.saved.get(backend)?.[name];
  }

  /**
   * Runs `steps` in order, each on every backend before the next, and compares each peer's
   * answer with nativekit's after the step's named normalisations: fails at the first answer
   * that differs, naming the step, the path and both values.
   */
  async run(steps: readonly Step[]): Promise<void> {
    for (const backend of this.backends) this.saved.set(backend.name, {});
    for (const [i, step] of steps.entries()) {
      const peers = this.peers.filter((p) => step.only === undefined || step.only.includes(p.name as PeerName));
      const answers = new Map<BackendName, Answer>();
      for (const backend of [this.nativekit, ...peers]) {
        const saved = this.saved.get(backend.name)!;
        const params = typeof step.params === "function" ? step.params(saved) : (step.params ?? []);
        const answer = await backend.call(step.method, params);
        answers.set(backend.name, answer.error === undefined && step.observe !== undefined ? { result: step.observe(answer.result, saved) } : answer);
        if (step.as !== undefined) saved[step.as] = answer.error !== undefined ? answer.error : answer.result;
      }
      for (const peer of peers) {
        const name = peer.name as PeerName;
        let ours = answers.get("nativekit")!;
        let theirs = answers.get(name)!;
        for (const d of step.differ ?? []) {
          const difference: Difference = DIFFERENCES[d];
          if (difference.peers.includes(name)) [ours, theirs] = difference.normalise(ours, theirs, name);
        }
        const where = `step ${i} ${step.method}${step.as === undefined ? "" : ` (${step.as})`}, nativekit vs ${name}`;
        if (SURVEY) {
          // DIFFERENTIAL_SURVEY=1: every difference of every step, printed, none failing (to find them all at once).
          for (const found of differences(ours, theirs, 50)) console.log(`${where}, at ${found.path}: ${JSON.stringify(found.ours)} vs ${JSON.stringify(found.theirs)}`);
          continue;
        }
        const [found] = differences(ours, theirs);
        if (found !== undefined) {
          expect.fail(`${where}, at ${found.path}: ${JSON.stringify(found.ours)} vs ${JSON.stringify(found.theirs)}\n  nativekit: ${JSON.stringify(answers.get("nativekit"))}\n  ${name}: ${JSON.stringify(answers.get(name))}`);
        }
      }
    }
  }

  /** evm_snapshot on every backend; `restore` reverts each to it. */
  async snapshot(): Promise<{ restore(): Promise<void> }> {
    const ids = new Map<BackendName, unknown>();
    for (const backend of this.backends) ids.set(backend.name, (await backend.call("evm_snapshot", [])).result);
    return {
      restore: async () => {
        for (const backend of this.backends) {
          const answer = await backend.call("evm_revert", [ids.get(backend.name)]);
          expect(answer.result, `${backend.name}: evm_revert`).to.equal(true);
        }
      },
    };
  }

  async stop(): Promise<void> {
    for (const backend of this.backends) await backend.stop();
  }
}
