/**
 * The engine's options: what a caller may set, and the same with every default filled in and
 * checked, as the engine keeps them.
 */
import type { EventEmitter } from "node:events";
import { GENESIS_CONTRACT_ADDRESS } from "../encoding/precompile";
import type { StoreCacheSizes } from "./persistence/cache-sizes";
import type { DurableStore } from "../storage";
import type { SignatureMemo } from "../crypto/signature-memo";
import type { CoverageProbe } from "./coverage-probe";
import type { ExecutionRecorder } from "./execution-recorder";
import { fundedAccounts, type AccountsOption, type GenesisAccount } from "./accounts";
import { DEFAULT_BLOCK_GAS_LIMIT, DEFAULT_MIN_BASE_FEE, LOCAL_CHAIN_ID } from "./defaults";
import type { ForkingOptions } from "./fork/open-fork";
import { checkLimitOption } from "./log-limits";

/** The reference node's default `rpc-gas-cap`. */
export const DEFAULT_RPC_GAS_CAP = 50_000_000n;
/** The reference node's `rpc-evm-timeout` default: 5 s. */
export const DEFAULT_RPC_EVM_TIMEOUT_MS = 5_000;

export type { ForkingOptions, PrecompileMode } from "./fork/open-fork";

export type { AccountsOption, KeyAccountOptions, MnemonicAccountsOptions } from "./accounts";

/** A multi-coin balance present at genesis. */
export interface InitialAssetBalance {
  address: string;
  /** cb58 or 0x-prefixed 32-byte hex. */
  assetId: string;
  amount: bigint;
}

export type Hardfork = "shanghai" | "cancun";

export interface EngineOptions {
  /** EVM chain ID (eth_chainId). Default 43112, the reference node's local network. */
  chainId?: number;
  /** Network ID (net_version). Defaults to the chain ID, as on the reference node. */
  networkId?: number;
  hardfork?: Hardfork;
  accounts?: AccountsOption;
  /** Multi-coin balances at genesis. */
  assetBalances?: InitialAssetBalance[];
  /** Simulate the later upgrade in which both native-asset precompiles revert. */
  deprecatedPrecompiles?: boolean;
  blockGasLimit?: bigint;
  /** Base fee of the first block; also the floor the base fee never goes below. Default 25 gwei. */
  minBaseFeePerGas?: bigint;
  /** Mine a block for every transaction as it arrives (default true). */
  automine?: boolean;
  /** Unix seconds of the genesis block (default: now). */
  genesisTimestamp?: number;
  /** Fee recipient of every block. Default: the reference node's black-hole address, where fees burn. */
  coinbase?: string;
  allowUnlimitedContractSize?: boolean;
  /**
   * Reject eth_sendTransaction/eth_sendRawTransaction whose transaction reverts, after mining it
   * (Hardhat network's behaviour). A real node does not; default false.
   */
  throwOnTransactionFailures?: boolean;
  /** Reject eth_call failures with an error (default true, as every node does). */
  throwOnCallFailures?: boolean;
  /**
   * Replay a failed transaction or call (up to 1M gas, not an out-of-gas) to record the
   * instructions of its failing frames, which Solidity stack traces need (default false: the
   * Hardhat plugin's networks turn it on).
   */
  traceFailures?: boolean;
  /**
   * The most gas an eth_call or eth_estimateGas runs with, whatever the request asks (the
   * reference node's `rpc-gas-cap`, 50 000 000 by default; 0: no cap). A call that asks for more
   * runs with the cap, as the reference's does.
   */
  rpcGasCap?: bigint;
  /**
   * Longest an eth_call or eth_estimateGas may run, in milliseconds (the reference node's
   * `rpc-evm-timeout`, 5 s by default; 0: no limit). Past it the call answers "execution aborted
   * (timeout = 5s)".
   */
  rpcEvmTimeoutMs?: number;
  /**
   * eth_blockNumber, eth_chainId, eth_syncing, net_version, net_listening and
   * web3_clientVersion answer at once, not after the operation running (a long eth_call): the
   * HTTP node's way, like geth's. Default false: an in-process provider answers every request
   * in turn, as Hardhat's network does.
   */
  unqueuedReads?: boolean;
  /**
   * Most blocks one eth_getLogs or eth_getFilterLogs may span (the reference node's
   * `api-max-blocks-per-request`). Default: no limit, as Hardhat's network; the node sets one.
   */
  maxBlocksPerLogsRequest?: number;
  /** Most logs one eth_getLogs or eth_getFilterLogs may return. Default: no limit; the node sets one. */
  maxLogsPerRequest?: number;
  /** Lines for people (console.log from Solidity, warnings). Default: discard. */
  log?: (line: string) => void;
  /**
   * Where the chain is kept (a node's --db-dir, under the engine's own namespace). When it holds
   * a chain, the engine opens that chain instead of making a genesis block (and the genesis
   * options are not applied again); every block, edit, revert and reset is committed to it before
   * it is answered. Absent, the chain lives in memory only.
   */
  store?: DurableStore;
  /** With `store`: how much of the stored chain stays in memory (the node's --accepted-cache-size and --trie-clean-cache). */
  storeCaches?: StoreCacheSizes;
  /**
   * Fork a remote contract chain: its state at a pinned block is read lazily, every write stays
   * local. The chain ID is the remote's unless `chainId` is given.
   */
  forking?: ForkingOptions;
  /**
   * Collect the coverage hits of contracts compiled for coverage (Hardhat 3's --coverage) into
   * this probe. Absent, a call to the coverage address runs as any call does.
   */
  coverage?: CoverageProbe;
  /**
   * Signatures to give again and to keep (src/crypto/signature-memo.ts): eth_sendTransaction looks
   * up the signature of a transaction it signs with one of the node's keys here first, and keeps
   * the ones it makes. RFC 6979 signing is a pure function of key and digest, so the answers are
   * the same; a test run that repeats an earlier one's transactions signs none of them again.
   */
  signatureMemo?: SignatureMemo;
  /** Record each mined transaction and eth_call for gas statistics (Hardhat 3's --gas-stats). */
  executions?: ExecutionRecorder;
  /**
   * Listeners added to this emitter hear the ethereumjs events (`step`, `beforeMessage`,
   * `afterMessage`, `newContract`) of every EVM of the chain, for all it runs: transactions,
   * calls and estimates (they listen on the EVMs' own emitter: see evm-events.ts). ethereumjs
   * builds a step's event only while `step` has a listener, so a chain nobody listens to runs as
   * fast as one without. solidity-coverage listens to `step` (Hardhat 2).
   */
  evmEvents?: EventEmitter;
}

export { DEFAULT_BLOCK_GAS_LIMIT, DEFAULT_MIN_BASE_FEE, LOCAL_CHAIN_ID } from "./defaults";
/** The reference node burns fees by paying them to this address (the genesis contract's, 0x0100…00). */
export const BLACKHOLE_ADDRESS: string = GENESIS_CONTRACT_ADDRESS;

export interface ResolvedEngineOptions {
  chainId: number;
  networkId: number;
  hardfork: Hardfork;
  accounts: GenesisAccount[];
  assetBalances: InitialAssetBalance[];
  deprecatedPrecompiles: boolean;
  blockGasLimit: bigint;
  minBaseFeePerGas: bigint;
  automine: boolean;
  genesisTimestamp: number;
  coinbase: string;
  allowUnlimitedContractSize: boolean;
  throwOnTransactionFailures: boolean;
  throwOnCallFailures: boolean;
  traceFailures: boolean;
  rpcGasCap: bigint;
  rpcEvmTimeoutMs: number;
  unqueuedReads: boolean;
  maxBlocksPerLogsRequest: number | undefined;
  maxLogsPerRequest: number | undefined;
  log: (line: string) => void;
  forking: ForkingOptions | undefined;
  coverage: CoverageProbe | undefined;
  signatureMemo: SignatureMemo | undefined;
  executions: ExecutionRecorder | undefined;
  evmEvents: EventEmitter | undefined;
  storeCaches: StoreCacheSizes | undefined;
  /** Whether `chainId` / `deprecatedPrecompiles` were given (a fork takes the remote's otherwise). */
  explicit: { chainId: boolean; networkId: boolean; deprecatedPrecompiles: boolean };
}

/** The options with every default filled in, checked. */
export function resolveEngineOptions(opts: EngineOptions): ResolvedEngineOptions {
  const chainId = opts.chainId ?? LOCAL_CHAIN_ID;
  const options: ResolvedEngineOptions = {
    chainId,
    networkId: opts.networkId ?? chainId,
    hardfork: opts.hardfork ?? "cancun",
    accounts: fundedAccounts(opts.accounts),
    assetBalances: opts.assetBalances ?? [],
    deprecatedPrecompiles: opts.deprecatedPrecompiles ?? false,
    blockGasLimit: opts.blockGasLimit ?? DEFAULT_BLOCK_GAS_LIMIT,
    minBaseFeePerGas: opts.minBaseFeePerGas ?? DEFAULT_MIN_BASE_FEE,
    automine: opts.automine ?? true,
    genesisTimestamp: opts.genesisTimestamp ?? Math.floor(Date.now() / 1000),
    coinbase: opts.coinbase ?? BLACKHOLE_ADDRESS,
    allowUnlimitedContractSize: opts.allowUnlimitedContractSize ?? false,
    throwOnTransactionFailures: opts.throwOnTransactionFailures ?? false,
    throwOnCallFailures: opts.throwOnCallFailures ?? true,
    traceFailures: opts.traceFailures ?? false,
    rpcGasCap: opts.rpcGasCap ?? DEFAULT_RPC_GAS_CAP,
    rpcEvmTimeoutMs: checkTimeoutOption(opts.rpcEvmTimeoutMs),
    unqueuedReads: opts.unqueuedReads ?? false,
    maxBlocksPerLogsRequest: checkLimitOption(opts.maxBlocksPerLogsRequest, "maxBlocksPerLogsRequest"),
    maxLogsPerRequest: checkLimitOption(opts.maxLogsPerRequest, "maxLogsPerRequest"),
    log: opts.log ?? (() => {}),
    forking: opts.forking,
    coverage: opts.coverage,
    signatureMemo: opts.signatureMemo,
    executions: opts.executions,
    evmEvents: opts.evmEvents,
    storeCaches: opts.storeCaches,
    explicit: { chainId: opts.chainId !== undefined, networkId: opts.networkId !== undefined, deprecatedPrecompiles: opts.deprecatedPrecompiles !== undefined },
  };
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`chainId must be a positive integer, got ${chainId}`);
  return options;
}

/** A time limit in whole milliseconds, 0 for none; the reference's 5 s when not given. */
function checkTimeoutOption(value: number | undefined): number {
  if (value === undefined) return DEFAULT_RPC_EVM_TIMEOUT_MS;
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`rpcEvmTimeoutMs must be a whole number of milliseconds, 0 or more (0: no limit); got ${value}`);
  return value;
}
