/**
 * Where each API lives and what its methods are called.
 *
 * nativekit names the exchange-chain namespace `xvm` and the contract-chain extras `cvm` (its
 * node answers those names, and the reference names too); nodes of the reference
 * implementation call them `avm` and `avax`:
 *
 * | | `"nativekit"` (default) | `"reference"` |
 * |---|---|---|
 * | exchange chain | `xvm.*` at `/ext/bc/X` | `avm.*` at `/ext/bc/X` |
 * | exchange chain, static | `xvm.buildGenesis` at `/ext/vm/xvm` | `avm.buildGenesis` at `/ext/vm/avm` |
 * | contract chain extras | `cvm.*` at `/ext/bc/C/cvm` | `avax.*` at `/ext/bc/C/avax` |
 * | contract chain EVM | `eth_*` at `/ext/bc/C/rpc` | same |
 * | keystore, info | `keystore.*` at `/ext/keystore`, `info.*` at `/ext/info` | same |
 *
 * `"seed"` is the former name of `"nativekit"` (after the documents nativekit was built from),
 * still accepted.
 *
 * The paths themselves are the network's (`PATHS` in `src/network/paths.ts`).
 */
import { chainPath, PATHS } from "../network/paths";

/**
 * `"nativekit"`: xvm/cvm, the names nativekit uses; `"reference"`: avm/avax, the names nodes of
 * the reference implementation use. `"seed"`: deprecated, the same as `"nativekit"`.
 */
export type Naming = "nativekit" | "reference" | "seed";

/** The namings to choose from (the deprecated `"seed"` is accepted but not listed). */
export const NAMINGS: readonly Naming[] = ["nativekit", "reference"];

export const DEFAULT_NAMING: Naming = "nativekit";

/** Default alias of the exchange chain. */
export const DEFAULT_EXCHANGE_CHAIN = "X";
/** Default alias of the contract chain. */
export const DEFAULT_CONTRACT_CHAIN = "C";

export const KEYSTORE_PATH = PATHS.keystore;
export const INFO_PATH = PATHS.info;

/** Paths and method names under one naming. */
export interface NamingScheme {
  readonly naming: Naming;
  /** `xvm` or `avm`. */
  readonly exchangeNamespace: "xvm" | "avm";
  /** `cvm` or `avax`. */
  readonly contractNamespace: "cvm" | "avax";
  /** Path of the static exchange-chain API (buildGenesis): `/ext/vm/xvm` or `/ext/vm/avm`. */
  readonly exchangeStaticPath: "/ext/vm/xvm" | "/ext/vm/avm";
  /** `/ext/bc/<chain>`: the exchange chain API (both namings). */
  exchangeChainPath(chain?: string): string;
  /** `/ext/bc/<chain>/cvm` or `/ext/bc/<chain>/avax`: the contract chain extras. */
  contractChainPath(chain?: string): string;
  /** `/ext/bc/<chain>/rpc`: the contract chain's standard EVM JSON-RPC (both namings). */
  evmRpcPath(chain?: string): string;
  /** Full method name in the exchange-chain namespace, e.g. `xvm.send` / `avm.send`. */
  exchangeMethod(name: string): string;
  /** Full method name in the contract-chain namespace, e.g. `cvm.export` / `avax.export`. */
  contractMethod(name: string): string;
}

/**
 * The {@link NamingScheme} of `naming` (default `"nativekit"`); its `naming` is the one given,
 * so a client created with the deprecated `"seed"` still reports `"seed"`.
 */
export function namingScheme(naming: Naming = DEFAULT_NAMING): NamingScheme {
  if (naming !== "nativekit" && naming !== "reference" && naming !== "seed") {
    throw new TypeError(
      `naming must be "nativekit" (xvm/cvm) or "reference" (avm/avax), got ${JSON.stringify(naming)}`,
    );
  }
  const xvmNames = naming !== "reference";
  const exchangeNamespace = xvmNames ? "xvm" : "avm";
  const contractNamespace = xvmNames ? "cvm" : "avax";
  return {
    naming,
    exchangeNamespace,
    contractNamespace,
    exchangeStaticPath: xvmNames ? PATHS.exchangeStaticSeed : PATHS.exchangeStaticReference,
    exchangeChainPath: (chain = DEFAULT_EXCHANGE_CHAIN) => chainPath(checkChain(chain)),
    contractChainPath: (chain = DEFAULT_CONTRACT_CHAIN) => `${chainPath(checkChain(chain))}/${contractNamespace}`,
    evmRpcPath: (chain = DEFAULT_CONTRACT_CHAIN) => `${chainPath(checkChain(chain))}/rpc`,
    exchangeMethod: (name) => `${exchangeNamespace}.${name}`,
    contractMethod: (name) => `${contractNamespace}.${name}`,
  };
}

/** A chain alias (`X`, `C`) or a cb58 blockchain ID: letters and digits only. */
export function checkChain(chain: unknown): string {
  if (typeof chain !== "string" || !/^[A-Za-z0-9]+$/.test(chain)) {
    throw new TypeError(`chain must be an alias such as "X" or "C" or a cb58 blockchain ID, got ${JSON.stringify(chain)}`);
  }
  return chain;
}
