/**
 * The measured workloads. Each drives a peer only through JSON-RPC (`JsonRpcHttpClient`),
 * one request in flight, and checks the resulting state afterwards so a peer cannot score
 * by doing nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";

import { Interface, keccak256, toUtf8Bytes } from "ethers";

import { NATIVE_ASSET_CALL_ADDRESS, encodeNativeAssetCallInput } from "../src/encoding/precompile";
import { REPO_ROOT, sleep } from "./peers";
import type { JsonRpcHttpClient } from "./rpc-client";

/** First account of the standard test mnemonic, unlocked on both peers. */
export const ACCOUNT0 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";

/** Fixed gas for each transfer, so neither peer spends time estimating. */
const TRANSFER_GAS = 100_000n;
/** Fixed gas for deployments. */
const DEPLOY_GAS = 3_000_000n;
/** Fixed gas for deposit and withdraw transactions. */
const WRAP_GAS = 200_000n;

interface Artifact {
  abi: ConstructorParameters<typeof Interface>[0];
  bytecode: string;
}

function loadArtifact(relative: string): Artifact {
  const file = path.join(REPO_ROOT, "artifacts", relative);
  if (!fs.existsSync(file)) {
    throw new Error(`artifact ${path.relative(REPO_ROOT, file)} not found: run "npx hardhat compile" first`);
  }
  return JSON.parse(fs.readFileSync(file, "utf8")) as Artifact;
}

interface Receipt {
  status: string;
  contractAddress: string | null;
  blockNumber: string;
  logs: { address: string; topics: string[] }[];
}

const q = (n: bigint | number): string => "0x" + n.toString(16);

/** Sums of timings, in ms. */
export interface LatencyStats {
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

function latencyStats(samples: number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (f: number) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))] ?? 0;
  return {
    meanMs: sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length),
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    maxMs: sorted[sorted.length - 1] ?? 0,
  };
}

/** Sends a transaction from ACCOUNT0 and waits for its receipt; fails unless it succeeded. */
class Sender {
  /** Receipt polls that returned null (automine should make this 0). */
  extraReceiptPolls = 0;

  constructor(private readonly client: JsonRpcHttpClient) {}

  async send(tx: { to?: string; data: string; gas: bigint }, what: string): Promise<Receipt> {
    const hash = await this.client.call<string>("eth_sendTransaction", [
      { from: ACCOUNT0, ...(tx.to === undefined ? {} : { to: tx.to }), data: tx.data, gas: q(tx.gas) },
    ]);
    let receipt: Receipt | null = null;
    for (let polls = 0; ; polls++) {
      receipt = await this.client.call<Receipt | null>("eth_getTransactionReceipt", [hash]);
      if (receipt !== null) break;
      this.extraReceiptPolls++;
      if (polls > 10_000) throw new Error(`${what}: no receipt for ${hash} after ${polls} polls`);
      // Automine should have mined it already; back off a little if not.
      await sleep(polls < 10 ? 0 : 1);
    }
    if (receipt.status !== "0x1") throw new Error(`${what}: transaction ${hash} failed (status ${receipt.status})`);
    return receipt;
  }

  async deploy(artifact: Artifact, args: readonly unknown[], what: string): Promise<string> {
    const iface = new Interface(artifact.abi);
    const data = artifact.bytecode + iface.encodeDeploy(args).slice(2);
    const receipt = await this.send({ data, gas: DEPLOY_GAS }, what);
    if (receipt.contractAddress === null) throw new Error(`${what}: the receipt has no contract address`);
    return receipt.contractAddress;
  }
}

async function checkAccount0(client: JsonRpcHttpClient): Promise<void> {
  const accounts = await client.call<string[]>("eth_accounts");
  if (accounts[0]?.toLowerCase() !== ACCOUNT0) {
    throw new Error(`the first unlocked account is ${accounts[0]}, expected ${ACCOUNT0} (the standard test mnemonic)`);
  }
}

/** A phase of transfers timed as a whole. */
export interface TransferPhase {
  transfers: number;
  seconds: number;
  /** transfers / seconds (0 when there were none). */
  perSecond: number;
  /**
   * Mean ms per transfer of each consecutive group of COLD_CURVE_GROUP transfers, in order (a
   * last, smaller group included): how fast the peer settles, JIT warm-up included.
   */
  curveMs: number[];
}

/** Transfers per point of a phase's curve (TransferPhase.curveMs). */
export const COLD_CURVE_GROUP = 50;

function curveOf(latencies: readonly number[]): number[] {
  const curve: number[] = [];
  for (let i = 0; i < latencies.length; i += COLD_CURVE_GROUP) {
    const group = latencies.slice(i, i + COLD_CURVE_GROUP);
    curve.push(group.reduce((sum, x) => sum + x, 0) / group.length);
  }
  return curve;
}

export interface TransferResult {
  /** The first transfers on the fresh peer, right after the token's deployment: the cold figure. */
  cold: TransferPhase;
  /** Untimed transfers after the cold ones, until the JIT of the peer has settled (their wall time is kept). */
  warmup: number;
  warmupSeconds: number;
  /** The timed transfers (the warm figure), summed over their batches. */
  transfers: number;
  seconds: number;
  perSecond: number;
  latency: LatencyStats;
  extraReceiptPolls: number;
  /** Each timed batch, in the order it ran: how many transfers, in how many seconds. */
  batches: { transfers: number; seconds: number }[];
  /** What was checked after the run. */
  verified: string;
}

/** How many transfers each phase of a TransferWorkload has. */
export interface TransferPlan {
  /** Timed as one phase, from the first transfer after the deployment (default 0). */
  cold?: number;
  /** Then run untimed (default 0). */
  warmup?: number;
  /** Then available to runBatch (default 0). */
  timed?: number;
}

/**
 * ERC-20 transfers on one peer: BenchToken deployed once, then transfers of 1 unit from
 * ACCOUNT0 to distinct fresh recipients, each sent and waited for before the next: first the
 * cold ones (timed together), then the warm-up, then the timed ones, which can run in several
 * batches so the benchmark can interleave the peers.
 */
export class TransferWorkload {
  private readonly sender: Sender;
  private readonly token: Interface;
  private readonly recipients: string[];
  private readonly calls: string[];
  private next = 0;
  private readonly latencies: number[] = [];
  private readonly batches: { transfers: number; seconds: number }[] = [];
  private readonly supply: bigint;
  private cold: TransferPhase = { transfers: 0, seconds: 0, perSecond: 0, curveMs: [] };
  private warmupSeconds = 0;

  private constructor(
    private readonly client: JsonRpcHttpClient,
    private readonly address: string,
    token: Interface,
    supply: bigint,
    private readonly warmup: number,
    total: number,
  ) {
    this.sender = new Sender(client);
    this.token = token;
    this.supply = supply;
    this.recipients = Array.from({ length: total }, (_, i) => "0xbe" + (i + 1).toString(16).padStart(38, "0"));
    this.calls = this.recipients.map((r) => token.encodeFunctionData("transfer", [r, 1n]));
  }

  /** Deploys the token, then runs the cold transfers (timed together) and the warm-up; `timed` more can follow. */
  static async prepare(client: JsonRpcHttpClient, plan: TransferPlan): Promise<TransferWorkload> {
    const cold = plan.cold ?? 0;
    const warmup = plan.warmup ?? 0;
    const timed = plan.timed ?? 0;
    await checkAccount0(client);
    const artifact = loadArtifact("contracts/test/BenchToken.sol/BenchToken.json");
    const supply = 10n ** 27n;
    const address = await new Sender(client).deploy(artifact, [supply], "BenchToken deployment");
    const workload = new TransferWorkload(client, address, new Interface(artifact.abi), supply, warmup, cold + warmup + timed);
    let started = performance.now();
    const coldLatencies: number[] = [];
    for (let i = 0; i < cold; i++) {
      const t0 = performance.now();
      await workload.transfer();
      coldLatencies.push(performance.now() - t0);
    }
    const coldSeconds = (performance.now() - started) / 1000;
    workload.cold = { transfers: cold, seconds: coldSeconds, perSecond: cold === 0 ? 0 : cold / coldSeconds, curveMs: curveOf(coldLatencies) };
    started = performance.now();
    for (let i = 0; i < warmup; i++) await workload.transfer();
    workload.warmupSeconds = (performance.now() - started) / 1000;
    workload.sender.extraReceiptPolls = 0;
    return workload;
  }

  /** The cold phase's figures (known once prepare() has resolved). */
  get coldPhase(): TransferPhase {
    return this.cold;
  }

  private async transfer(): Promise<void> {
    const i = this.next++;
    const call = this.calls[i];
    if (call === undefined) throw new Error(`transfer #${i}: the workload was prepared for ${this.calls.length} transfers`);
    const receipt = await this.sender.send({ to: this.address, data: call, gas: TRANSFER_GAS }, `transfer #${i}`);
    if (receipt.logs.length !== 1 || receipt.logs[0]!.address.toLowerCase() !== this.address.toLowerCase()) {
      throw new Error(`transfer #${i}: expected one Transfer log from the token, got ${JSON.stringify(receipt.logs)}`);
    }
  }

  /** Runs `count` timed transfers; returns their wall time in seconds. */
  async runBatch(count: number): Promise<number> {
    const started = performance.now();
    for (let k = 0; k < count; k++) {
      const t0 = performance.now();
      await this.transfer();
      this.latencies.push(performance.now() - t0);
    }
    const seconds = (performance.now() - started) / 1000;
    this.batches.push({ transfers: count, seconds });
    return seconds;
  }

  /** Checks that every recipient so far holds exactly 1 and the sender the rest; sums up the batches. */
  async finish(): Promise<TransferResult> {
    const balanceOf = async (who: string): Promise<bigint> =>
      BigInt(await this.client.call<string>("eth_call", [{ to: this.address, data: this.token.encodeFunctionData("balanceOf", [who]) }, "latest"]));
    const done = this.next;
    for (let i = 0; i < done; i++) {
      const b = await balanceOf(this.recipients[i]!);
      if (b !== 1n) throw new Error(`verification failed: recipient #${i} ${this.recipients[i]} holds ${b}, expected 1`);
    }
    const rest = await balanceOf(ACCOUNT0);
    if (rest !== this.supply - BigInt(done)) {
      throw new Error(`verification failed: the sender holds ${rest}, expected ${this.supply - BigInt(done)}`);
    }
    const transfers = this.batches.reduce((n, b) => n + b.transfers, 0);
    const seconds = this.batches.reduce((t, b) => t + b.seconds, 0);
    return {
      cold: this.cold,
      warmup: this.warmup,
      warmupSeconds: this.warmupSeconds,
      transfers,
      seconds,
      perSecond: transfers === 0 ? 0 : transfers / seconds,
      latency: latencyStats(this.latencies),
      extraReceiptPolls: this.sender.extraReceiptPolls,
      batches: [...this.batches],
      verified: `${done} recipients hold 1 token each, sender holds supply - ${done}`,
    };
  }
}

export interface RoundTripResult {
  roundTrips: number;
  warmup: number;
  seconds: number;
  perSecond: number;
  latency: LatencyStats;
  extraReceiptPolls: number;
  assetId: string;
  verified: string;
}

/**
 * nativekit only: funds ACCOUNT0 with a native asset, deploys WrappedNativeAsset for it, then
 * runs `warmup` untimed and `count` timed round trips of deposit (through the nativeAssetCall
 * precompile) followed by withdraw, each transaction waited for.
 */
export async function runRoundTrips(client: JsonRpcHttpClient, count: number, warmup: number): Promise<RoundTripResult> {
  await checkAccount0(client);
  const assetId = keccak256(toUtf8Bytes("nativekit bench asset"));
  const initial = 10n ** 24n;
  const amount = 10n ** 18n;
  const assetBalance = async (who: string): Promise<bigint> =>
    BigInt(await client.call<string>("eth_getAssetBalance", [who, "latest", assetId]));

  await client.call("nativekit_setAssetBalance", [ACCOUNT0, assetId, q(initial)]);
  const before = await assetBalance(ACCOUNT0);
  if (before !== initial) throw new Error(`nativekit_setAssetBalance: the balance reads ${before}, expected ${initial}`);

  const artifact = loadArtifact("contracts/WrappedNativeAsset.sol/WrappedNativeAsset.json");
  const wrapper = new Interface(artifact.abi);
  const sender = new Sender(client);
  const address = await sender.deploy(artifact, ["Wrapped Bench Asset", "WBENCH", 18, BigInt(assetId)], "WrappedNativeAsset deployment");

  const depositData = encodeNativeAssetCallInput({
    to: address,
    assetId,
    amount,
    callData: wrapper.encodeFunctionData("deposit", []) as `0x${string}`,
  });
  const withdrawData = wrapper.encodeFunctionData("withdraw", [amount]);
  const read = async (fn: string, args: unknown[]): Promise<bigint> =>
    BigInt(await client.call<string>("eth_call", [{ to: address, data: wrapper.encodeFunctionData(fn, args) }, "latest"]));

  const expectLogs = (r: Receipt, what: string) => {
    // Transfer (mint or burn) and Deposit/Withdrawal, both from the wrapper.
    const own = r.logs.filter((l) => l.address.toLowerCase() === address.toLowerCase()).length;
    if (own < 2) throw new Error(`${what}: expected the wrapper's two events, got ${JSON.stringify(r.logs)}`);
  };
  const roundTrip = async (i: number, check: boolean): Promise<void> => {
    expectLogs(await sender.send({ to: NATIVE_ASSET_CALL_ADDRESS, data: depositData, gas: WRAP_GAS }, `deposit #${i}`), `deposit #${i}`);
    if (check) {
      const wrapped = await read("balanceOf", [ACCOUNT0]);
      const held = await assetBalance(address);
      if (wrapped !== amount || held !== amount) {
        throw new Error(`deposit #${i}: the depositor holds ${wrapped} wrapped and the wrapper ${held} of the asset, expected ${amount} each`);
      }
    }
    expectLogs(await sender.send({ to: address, data: withdrawData, gas: WRAP_GAS }, `withdraw #${i}`), `withdraw #${i}`);
  };

  for (let i = 0; i < warmup; i++) await roundTrip(i, i === 0);
  sender.extraReceiptPolls = 0;
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = warmup; i < warmup + count; i++) {
    const t0 = performance.now();
    await roundTrip(i, false);
    latencies.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;

  const after = await assetBalance(ACCOUNT0);
  const supply = await read("totalSupply", []);
  const left = await assetBalance(address);
  if (after !== initial || supply !== 0n || left !== 0n) {
    throw new Error(
      `verification failed: the account holds ${after} of the asset (expected ${initial}), ` +
        `the wrapper's supply is ${supply} and its asset balance ${left} (expected 0 and 0)`,
    );
  }

  return {
    roundTrips: count,
    warmup,
    seconds,
    perSecond: count / seconds,
    latency: latencyStats(latencies),
    extraReceiptPolls: sender.extraReceiptPolls,
    assetId,
    verified: `${warmup + count} deposits and withdrawals; account asset balance back to ${initial}, wrapper supply and asset balance 0`,
  };
}
