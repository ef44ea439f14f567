// Only the engine's defaults and types: every Hardhat command reads this config, and the engine,
// its accounts and their curve code load when the nativekit network starts (network-options.ts).
import { DEFAULT_BLOCK_GAS_LIMIT } from "../engine/defaults";
import type { EngineOptions, ForkingOptions, Hardfork } from "../engine";

/** Name of the in-process network the plugin adds. */
export const NATIVEKIT_NETWORK = "nativekit";
/** Placeholder URL: Hardhat needs one for a non-"hardhat" network; nothing ever connects to it. */
export const IN_PROCESS_URL = "http://nativekit.in-process.invalid";

/** Options under `nativekit` in hardhat.config.ts. Amounts accept bigint, number or decimal string. */
export interface NativekitUserConfig {
  /** Make `nativekit` the default network when the config names none (default true). */
  defaultNetwork?: boolean;
  chainId?: number;
  networkId?: number;
  hardfork?: Hardfork;
  accounts?:
    | { mnemonic?: string; path?: string; count?: number; balance?: bigint | number | string }
    | { privateKey: string; balance: bigint | number | string }[];
  /** Multi-coin balances at genesis: `account` is an address or an index into the accounts. */
  assetBalances?: { account: string | number; assetId: string; amount: bigint | number | string }[];
  deprecatedPrecompiles?: boolean;
  blockGasLimit?: bigint | number | string;
  minBaseFeePerGas?: bigint | number | string;
  automine?: boolean;
  allowUnlimitedContractSize?: boolean;
  /** Print console.log output from Solidity (default true). */
  loggingEnabled?: boolean;
  /** Reject a transaction that reverts, as Hardhat's network does (default true). */
  throwOnTransactionFailures?: boolean;
  /**
   * Gas limit hardhat-ethers gives a transaction that names none. Default: the block gas limit,
   * as on Hardhat's own network, so no `eth_estimateGas` precedes each transaction; `"auto"`
   * estimates every transaction first (what a live network needs).
   */
  gas?: "auto" | number;
  /**
   * Fork a remote contract chain (see the README's Forking section): its state at `blockNumber`
   * is read lazily and cached under `cacheDir` (default `<paths.cache>/nativekit-fork`); every
   * write stays local. The chain ID becomes the remote's unless `chainId` is set.
   */
  forking?: ForkingOptions;
  /**
   * For `npx hardhat nativekit:node`: a JSON genesis file (path from the project root) with the
   * platform chain's `initialMultisigAddresses`, as `nativekit node --genesis-file` takes it.
   * The in-process network has no platform chain: there it does not apply.
   */
  genesisFile?: string;
  /**
   * Hardhat 3: answer the in-process network from a worker thread (default false). The thread
   * starts when the run does and loads the engine on another core while Hardhat checks the
   * build, so the first answer comes sooner (0.18 against 0.36 s measured), but every request
   * then crosses threads (about 0.2 ms each): it pays for short runs (a script, a task) on a
   * machine with a core to spare, not for test suites (bench/README.md). Hardhat 2 always runs
   * the engine on its own thread.
   */
  workerThread?: boolean;
}

export interface NativekitConfig {
  defaultNetwork: boolean;
  /** `genesisFile` as given (the node task resolves it against the project root). */
  genesisFile: string | undefined;
  loggingEnabled: boolean;
  gas: "auto" | number;
  workerThread: boolean;
  engine: Omit<EngineOptions, "log" | "assetBalances"> & {
    assetBalances: { account: string | number; assetId: string; amount: bigint }[];
  };
}

function amount(value: bigint | number | string, where: string): bigint {
  try {
    if (typeof value === "number" && !Number.isSafeInteger(value)) throw new Error("not a safe integer");
    const parsed = BigInt(value);
    if (parsed < 0n) throw new Error("negative");
    return parsed;
  } catch {
    throw new Error(`nativekit config: ${where} must be a non-negative integer (bigint, number or decimal string), got ${String(value)}`);
  }
}

export function resolveNativekitConfig(user: NativekitUserConfig = {}): NativekitConfig {
  const accounts = user.accounts;
  return {
    defaultNetwork: user.defaultNetwork ?? true,
    genesisFile: genesisFileConfig(user.genesisFile),
    loggingEnabled: user.loggingEnabled ?? true,
    gas: transactionGas(user),
    workerThread: workerThreadConfig(user.workerThread),
    engine: {
      chainId: user.chainId,
      networkId: user.networkId,
      hardfork: user.hardfork,
      accounts: Array.isArray(accounts)
        ? accounts.map((a, i) => ({ privateKey: a.privateKey, balance: amount(a.balance, `accounts[${i}].balance`) }))
        : accounts === undefined
          ? undefined
          : { ...accounts, balance: accounts.balance === undefined ? undefined : amount(accounts.balance, "accounts.balance") },
      assetBalances: (user.assetBalances ?? []).map((b, i) => ({ ...b, amount: amount(b.amount, `assetBalances[${i}].amount`) })),
      deprecatedPrecompiles: user.deprecatedPrecompiles,
      blockGasLimit: user.blockGasLimit === undefined ? undefined : amount(user.blockGasLimit, "blockGasLimit"),
      minBaseFeePerGas: user.minBaseFeePerGas === undefined ? undefined : amount(user.minBaseFeePerGas, "minBaseFeePerGas"),
      automine: user.automine,
      allowUnlimitedContractSize: user.allowUnlimitedContractSize,
      throwOnTransactionFailures: user.throwOnTransactionFailures ?? true,
      forking: forkingConfig(user.forking),
    },
  };
}

function workerThreadConfig(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new Error(`nativekit config: workerThread must be true or false, got ${String(value)}`);
  return value;
}

function genesisFileConfig(file: unknown): string | undefined {
  if (file === undefined) return undefined;
  if (typeof file !== "string" || file === "") throw new Error("nativekit config: genesisFile must be the path of a JSON genesis file");
  return file;
}

function forkingConfig(forking: ForkingOptions | undefined): ForkingOptions | undefined {
  if (forking === undefined) return undefined;
  if (typeof forking !== "object" || forking === null || typeof forking.url !== "string") {
    throw new Error("nativekit config: forking.url must be the remote's JSON-RPC URL");
  }
  return { ...forking, ...(forking.blockNumber === undefined ? {} : { blockNumber: amount(forking.blockNumber, "forking.blockNumber") }) };
}

function transactionGas(user: NativekitUserConfig): "auto" | number {
  if (user.gas === "auto") return "auto";
  if (user.gas !== undefined) {
    if (!Number.isSafeInteger(user.gas) || user.gas <= 0) throw new Error(`nativekit config: gas must be "auto" or a positive integer, got ${String(user.gas)}`);
    return user.gas;
  }
  return Number(user.blockGasLimit === undefined ? DEFAULT_BLOCK_GAS_LIMIT : amount(user.blockGasLimit, "blockGasLimit"));
}
