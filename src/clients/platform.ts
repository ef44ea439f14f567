/**
 * Client of the platform chain API (`platform.*` at `/ext/bc/P`), the same under both namings.
 *
 * ```ts
 * const platform = createPlatformChainClient({ transport: createTransport({ url: "http://127.0.0.1:9650" }) });
 * const { txID } = await platform.exportAVAX({ credentials, to: "X-local1…", amount: 10n ** 9n });
 * const { alias } = await platform.createMultisigAlias({ credentials, addresses: ["P-local1…", "P-local1…"], threshold: 2 });
 * ```
 *
 * Conventions as in `./xvm`: amounts are bigints sent as decimal strings, uint64 results are
 * bigints, a one-field result is returned as its value. Where the reference and the exchange
 * chain's (seed's) names differ, both are offered: `exportAVAX`/`export`, `importAVAX`/`import`;
 * `getBlockchainID` resolves an alias ("X", "C", "P") like `info.getBlockchainID`.
 */
import { checkTransport, Endpoint } from "./call";
import { exportKey, importKey, issueTx } from "./chain-methods";
import type { Reader } from "./internal";
import { compact, type JsonObject } from "./json";
import type { Credentials, EncodedBytes, RequestOptions, SpendOptions, TxIDChangeAddr, UTXOIndex, UTXOPage } from "./types";
import type { ByteEncoding } from "./bytes";
import type { Transport } from "./transport";
import { utxoPaging } from "./utxos";

export const PLATFORM_PATH = "/ext/bc/P";
export const PLATFORM_TX_STATUSES = ["Committed", "Aborted", "Processing", "Dropped", "Unknown"] as const;
export type PlatformTxStatus = (typeof PLATFORM_TX_STATUSES)[number];

export interface PlatformChainClientOptions {
  transport: Transport;
  /** Alias or blockchain ID in the path. Default `"P"`. */
  chain?: string;
}

export interface PlatformBalance {
  balance: bigint;
  unlocked: bigint;
  lockedStakeable: bigint;
  lockedNotStakeable: bigint;
  utxoIDs: { txID: string; outputIndex: number }[];
}

export interface MultisigAliasInfo {
  memo: string;
  locktime: bigint;
  threshold: number;
  addresses: string[];
}

export interface Blockchain {
  id: string;
  name: string;
  subnetID: string;
  vmID: string;
}

/** platform.getFeeConfig: the dynamic fee config (ACP-103) the chain runs since Etna. */
export interface PlatformFeeConfig {
  /** Gas per unit of each dimension (the node writes them as an array in this order). */
  weights: { bandwidth: bigint; dbRead: bigint; dbWrite: bigint; compute: bigint };
  maxCapacity: bigint;
  maxPerSecond: bigint;
  targetPerSecond: bigint;
  minPrice: bigint;
  excessConversionConstant: bigint;
}

/** platform.getFeeState: the last accepted block's gas capacity and excess, the gas price (nAVAX) and the block's time (RFC 3339). */
export interface PlatformFeeState {
  capacity: bigint;
  excess: bigint;
  price: bigint;
  timestamp: string;
}

export interface PlatformUTXOsParameters {
  readonly addresses: readonly string[];
  readonly limit?: number;
  readonly startIndex?: UTXOIndex;
  readonly sourceChain?: string;
  readonly encoding?: ByteEncoding;
}

export interface PlatformChainClient {
  readonly path: string;
  getHeight(options?: RequestOptions): Promise<bigint>;
  getBlock(parameters: { blockID: string; encoding?: "hex" | "json" }, options?: RequestOptions): Promise<{ block: string | JsonObject; encoding: string }>;
  getBlockByHeight(parameters: { height: bigint | number; encoding?: "hex" | "json" }, options?: RequestOptions): Promise<{ block: string | JsonObject; encoding: string }>;
  getTx(parameters: { txID: string; encoding?: "hex" | "json" }, options?: RequestOptions): Promise<{ tx: string | JsonObject; encoding: string }>;
  getTxStatus(parameters: { txID: string }, options?: RequestOptions): Promise<PlatformTxStatus>;
  getUTXOs(parameters: PlatformUTXOsParameters, options?: RequestOptions): Promise<UTXOPage>;
  /** Every UTXO (its encoded bytes), page after page. */
  iterateUTXOs(parameters: PlatformUTXOsParameters, options?: RequestOptions): AsyncIterable<string>;
  getBalance(parameters: { addresses: readonly string[] }, options?: RequestOptions): Promise<PlatformBalance>;
  issueTx(parameters: { tx: EncodedBytes; encoding?: ByteEncoding }, options?: RequestOptions): Promise<string>;
  getMultisigAlias(parameters: { address: string }, options?: RequestOptions): Promise<MultisigAliasInfo>;
  createMultisigAlias(parameters: { credentials: Credentials; addresses: readonly string[]; threshold: number; memo?: string; alias?: string } & SpendOptions, options?: RequestOptions): Promise<{ txID: string; alias: string }>;
  createAddress(parameters: { credentials: Credentials }, options?: RequestOptions): Promise<string>;
  listAddresses(parameters: { credentials: Credentials }, options?: RequestOptions): Promise<string[]>;
  importKey(parameters: { credentials: Credentials; privateKey: string }, options?: RequestOptions): Promise<string>;
  exportKey(parameters: { credentials: Credentials; address: string }, options?: RequestOptions): Promise<string>;
  exportAVAX(parameters: { credentials: Credentials; to: string; amount: bigint; targetChain?: string } & SpendOptions, options?: RequestOptions): Promise<TxIDChangeAddr>;
  /** The exchange chain's name for {@link exportAVAX}. */
  export(parameters: { credentials: Credentials; to: string; amount: bigint; targetChain?: string } & SpendOptions, options?: RequestOptions): Promise<TxIDChangeAddr>;
  importAVAX(parameters: { credentials: Credentials; to: string; sourceChain: string } & SpendOptions, options?: RequestOptions): Promise<TxIDChangeAddr>;
  /** The exchange chain's name for {@link importAVAX}. */
  import(parameters: { credentials: Credentials; to: string; sourceChain: string } & SpendOptions, options?: RequestOptions): Promise<TxIDChangeAddr>;
  getBlockchains(options?: RequestOptions): Promise<Blockchain[]>;
  getBlockchainStatus(parameters: { blockchainID: string }, options?: RequestOptions): Promise<string>;
  /** The ID of the chain named "X", "C" or "P" (or a name of getBlockchains, e.g. "X-Chain"). */
  getBlockchainID(alias: string, options?: RequestOptions): Promise<string>;
  getStakingAssetID(options?: RequestOptions): Promise<string>;
  getFeeConfig(options?: RequestOptions): Promise<PlatformFeeConfig>;
  /** A transaction's fee is its gas (complexity · weights) times `price`. */
  getFeeState(options?: RequestOptions): Promise<PlatformFeeState>;
}

const PLATFORM_CHAIN_ID = "11111111111111111111111111111111LpoYY";

export function createPlatformChainClient(options: PlatformChainClientOptions): PlatformChainClient {
  const transport = checkTransport("createPlatformChainClient", options.transport);
  const chain = new Endpoint(transport, `/ext/bc/${options.chain ?? "P"}`, "platform");
  const utxos = utxoPaging<PlatformUTXOsParameters>(chain, false);
  const txIDChangeAddr = (r: Reader): TxIDChangeAddr => ({ txID: r.get("txID").string(), changeAddr: r.get("changeAddr").string() });
  const block = (name: "getBlock" | "getBlockByHeight") => (parameters: { blockID?: string; height?: bigint | number; encoding?: "hex" | "json" }, o?: RequestOptions) =>
    chain.call(
      name,
      (args) => compact({ blockID: parameters.blockID, height: parameters.height === undefined ? undefined : args.uint64(parameters.height, "height"), encoding: parameters.encoding }),
      (r) => ({ block: r.get("encoding").string() === "json" ? r.get("block").object() : r.get("block").string(), encoding: r.get("encoding").string() }),
      o,
    );
  const exportAVAX: PlatformChainClient["exportAVAX"] = (p, o) =>
    chain.call(
      "exportAVAX",
      (args) => compact({ ...args.credentials(args.object(p).credentials), to: args.string(p.to, "to"), amount: args.uint64(p.amount, "amount"), targetChain: p.targetChain, ...args.spend(p) }),
      txIDChangeAddr,
      o,
    );
  const importAVAX: PlatformChainClient["importAVAX"] = (p, o) =>
    chain.call(
      "importAVAX",
      (args) => compact({ ...args.credentials(args.object(p).credentials), to: args.string(p.to, "to"), sourceChain: args.string(p.sourceChain, "sourceChain"), ...args.spend(p) }),
      txIDChangeAddr,
      o,
    );
  const getBlockchains: PlatformChainClient["getBlockchains"] = (o) =>
    chain.call(
      "getBlockchains",
      () => ({}),
      (r) => r.get("blockchains").array().map((b) => ({ id: b.get("id").string(), name: b.get("name").string(), subnetID: b.get("subnetID").string(), vmID: b.get("vmID").string() })),
      o,
    );

  return {
    path: chain.path,
    getHeight: (o) => chain.call("getHeight", () => ({}), (r) => r.get("height").uint64(), o),
    getBlock: (p, o) => block("getBlock")(p, o),
    getBlockByHeight: (p, o) => block("getBlockByHeight")(p, o),
    getTx: (p, o) =>
      chain.call(
        "getTx",
        (args) => compact({ txID: args.string(args.object(p).txID, "txID"), encoding: p.encoding }),
        (r) => ({ tx: r.get("encoding").string() === "json" ? r.get("tx").object() : r.get("tx").string(), encoding: r.get("encoding").string() }),
        o,
      ),
    getTxStatus: (p, o) => chain.call("getTxStatus", (args) => ({ txID: args.string(args.object(p).txID, "txID") }), (r) => r.get("status").oneOf(PLATFORM_TX_STATUSES), o),
    getUTXOs: utxos.getUTXOs,
    iterateUTXOs: utxos.iterateUTXOs,
    getBalance: (p, o) =>
      chain.call(
        "getBalance",
        (args) => ({ addresses: args.stringArray(args.object(p).addresses, "addresses", { nonEmpty: true }) }),
        (r) => ({
          balance: r.get("balance").uint64(),
          unlocked: r.get("unlocked").uint64(),
          lockedStakeable: r.get("lockedStakeable").uint64(),
          lockedNotStakeable: r.get("lockedNotStakeable").uint64(),
          utxoIDs: r.get("utxoIDs").array().map((u) => ({ txID: u.get("txID").string(), outputIndex: u.get("outputIndex").count() })),
        }),
        o,
      ),
    issueTx: (p, o) => issueTx(chain, p, o),
    getMultisigAlias: (p, o) =>
      chain.call(
        "getMultisigAlias",
        (args) => ({ address: args.string(args.object(p).address, "address") }),
        (r) => ({ memo: r.get("memo").string(), locktime: r.get("locktime").uint64(), threshold: Number(r.get("threshold").uint64()), addresses: r.get("addresses").stringArray() }),
        o,
      ),
    createMultisigAlias: (p, o) =>
      chain.call(
        "createMultisigAlias",
        (args) =>
          compact({
            ...args.credentials(args.object(p).credentials),
            addresses: args.stringArray(p.addresses, "addresses", { nonEmpty: true }),
            threshold: args.integer(p.threshold, "threshold", 1, 0xffff_ffff),
            memo: args.optionalString(p.memo, "memo"),
            alias: args.optionalString(p.alias, "alias"),
            ...args.spend(p),
          }),
        (r) => ({ txID: r.get("txID").string(), alias: r.get("alias").string() }),
        o,
      ),
    createAddress: (p, o) => chain.call("createAddress", (args) => args.credentials(args.object(p).credentials), (r) => r.get("address").string(), o),
    listAddresses: (p, o) => chain.call("listAddresses", (args) => args.credentials(args.object(p).credentials), (r) => r.get("addresses").stringArray(), o),
    importKey: (p, o) => importKey(chain, p, o),
    exportKey: (p, o) => exportKey(chain, p, (r) => r.get("privateKey").string(), o),
    exportAVAX,
    export: exportAVAX,
    importAVAX,
    import: importAVAX,
    getBlockchains,
    getBlockchainStatus: (p, o) => chain.call("getBlockchainStatus", (args) => ({ blockchainID: args.string(args.object(p).blockchainID, "blockchainID") }), (r) => r.get("status").string(), o),
    getBlockchainID: async (alias, o) => {
      if (alias === "P" || alias === "platform") return PLATFORM_CHAIN_ID;
      const names: Record<string, string> = { X: "X-Chain", avm: "X-Chain", xvm: "X-Chain", C: "C-Chain", evm: "C-Chain", cvm: "C-Chain" };
      const wanted = names[alias] ?? alias;
      const found = (await getBlockchains(o)).find((b) => b.name === wanted || b.id === alias);
      if (found === undefined) throw new RangeError(`no blockchain named ${JSON.stringify(alias)} on the primary network`);
      return found.id;
    },
    getStakingAssetID: (o) => chain.call("getStakingAssetID", () => ({}), (r) => r.get("assetID").string(), o),
    getFeeConfig: (o) =>
      chain.call(
        "getFeeConfig",
        () => ({}),
        (r) => {
          const weights = r.get("weights").array();
          if (weights.length !== 4) r.get("weights").fail("an array of 4 weights [bandwidth, dbRead, dbWrite, compute]");
          const [bandwidth, dbRead, dbWrite, compute] = weights.map((w) => w.uint64()) as [bigint, bigint, bigint, bigint];
          return {
            weights: { bandwidth, dbRead, dbWrite, compute },
            maxCapacity: r.get("maxCapacity").uint64(),
            maxPerSecond: r.get("maxPerSecond").uint64(),
            targetPerSecond: r.get("targetPerSecond").uint64(),
            minPrice: r.get("minPrice").uint64(),
            excessConversionConstant: r.get("excessConversionConstant").uint64(),
          };
        },
        o,
      ),
    getFeeState: (o) =>
      chain.call(
        "getFeeState",
        () => ({}),
        (r) => ({ capacity: r.get("capacity").uint64(), excess: r.get("excess").uint64(), price: r.get("price").uint64(), timestamp: r.get("timestamp").string() }),
        o,
      ),
  };
}
