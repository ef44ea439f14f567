/**
 * Client of the contract chain: its extras (`cvm.*` at `/ext/bc/C/cvm`; `avax.*` at
 * `/ext/bc/C/avax` on real nodes, see {@link Naming}) for atomic transfers and keys, plus thin
 * helpers over the standard EVM JSON-RPC at `/ext/bc/C/rpc` for the chain's extra `eth_*`
 * methods.
 *
 * ```ts
 * const cvm = createContractChainClient({ transport });
 * const txID = await cvm.import({ credentials, to: "0x8db9…", sourceChain: "X" });
 * const { blockHeight } = await cvm.waitForAtomicTxStatus(txID);
 * const balance = await cvm.getAssetBalance("0x8db9…", assetID);
 * ```
 *
 * Same conventions as the exchange-chain client: API names for fields, `bigint` amounts (sent as
 * decimal strings), omitted optionals not sent, single-field results returned as the value.
 */
import { assetIdToCb58, type AssetIdInput, UINT256_MAX, UINT64_MAX } from "../encoding";
import { BYTE_ENCODINGS, type ByteEncoding } from "./bytes";
import { checkTransport, Endpoint, type WaitOptions } from "./call";
import { exportKey, importKey, issueTx } from "./chain-methods";
import type { Args, Reader } from "./internal";
import { compact } from "./json";
import { DEFAULT_CONTRACT_CHAIN, type Naming, namingScheme } from "./naming";
import type { Transport } from "./transport";
import type { Credentials, EncodedBytes, RequestOptions, UTXOIndex, UTXOPage } from "./types";
import { utxoPaging } from "./utxos";

/** Status of an atomic transaction on the contract chain. */
export type AtomicTxStatus = "Accepted" | "Processing" | "Dropped" | "Unknown";
export const ATOMIC_TX_STATUSES: readonly AtomicTxStatus[] = ["Accepted", "Processing", "Dropped", "Unknown"];

export interface CvmExportParameters {
  readonly credentials: Credentials;
  /** Exchange-chain address, e.g. `X-local1…`. */
  readonly to: string;
  readonly amount: bigint;
  /** ID, or the native asset's alias. */
  readonly assetID: string;
  /**
   * Base fee (wei per gas) to pay; the node's suggestion when omitted. Sent as a 0x hex quantity,
   * the form the reference node accepts (`*hexutil.Big`).
   */
  readonly baseFee?: bigint;
}

export interface CvmImportParameters {
  readonly credentials: Credentials;
  /** The 0x address to credit; the user's keys must own the atomic UTXOs (same key as the export's `to`). */
  readonly to: string;
  /** ID or alias of the chain the funds come from, e.g. `X`. */
  readonly sourceChain: string;
  /** As for export: 0x hex quantity, the node's suggestion when omitted. */
  readonly baseFee?: bigint;
}

export interface CvmGetUTXOsParameters {
  /** Addresses with the `C-` prefix. */
  readonly addresses: readonly string[];
  /** Required here: the chain the atomic UTXOs were exported from, e.g. `X`. */
  readonly sourceChain: string;
  readonly limit?: number;
  readonly startIndex?: UTXOIndex;
  readonly encoding?: ByteEncoding;
}

export type CvmIterateUTXOsParameters = CvmGetUTXOsParameters;

export interface GetAtomicTxParameters {
  readonly txID: string;
  readonly encoding?: ByteEncoding;
}

export interface AtomicTx {
  readonly tx: string;
  readonly encoding: ByteEncoding;
  /** Height of the block that accepted it; absent while not Accepted. */
  readonly blockHeight?: bigint;
}

export interface GetAtomicTxStatusParameters {
  readonly txID: string;
}

export interface AtomicTxStatusResult {
  readonly status: AtomicTxStatus;
  /** Present when Accepted. */
  readonly blockHeight?: bigint;
}

export interface CvmIssueTxParameters {
  readonly tx: EncodedBytes;
  readonly encoding?: ByteEncoding;
}

export interface CvmExportKeyParameters {
  readonly credentials: Credentials;
  /** 0x address. */
  readonly address: string;
}

export interface CvmExportKeyResult {
  /** `PrivateKey-…`. */
  readonly privateKey: string;
  /** The same key as 0x hex. */
  readonly privateKeyHex: string;
}

export interface CvmImportKeyParameters {
  readonly credentials: Credentials;
  /** `PrivateKey-…`. */
  readonly privateKey: string;
}

/** A block: a tag, a number or a 32-byte block hash. */
export type BlockParameter = "latest" | "pending" | "earliest" | "safe" | "finalized" | bigint | number | `0x${string}`;

export type WaitForAtomicTxStatusOptions = WaitOptions<AtomicTxStatus>;

export interface ContractChainClientOptions {
  transport: Transport;
  /** Default `"seed"` (`cvm.*` at …/cvm); `"reference"` for real nodes (`avax.*` at …/avax). */
  naming?: Naming;
  /** Alias or blockchain ID of the contract chain. Default `"C"`. */
  chain?: string;
}

export interface ContractChainClient {
  readonly naming: Naming;
  /** Path of the extras, e.g. `/ext/bc/C/cvm`. */
  readonly path: string;
  /** Path of the standard EVM JSON-RPC, e.g. `/ext/bc/C/rpc`. */
  readonly rpcPath: string;

  /** First step of a transfer to the exchange chain; returns the txID. */
  export(parameters: CvmExportParameters, options?: RequestOptions): Promise<string>;
  /** Completes a transfer from another chain; returns the txID. */
  import(parameters: CvmImportParameters, options?: RequestOptions): Promise<string>;
  /** One page of atomic UTXOs exported to this chain from `sourceChain`. */
  getUTXOs(parameters: CvmGetUTXOsParameters, options?: RequestOptions): Promise<UTXOPage>;
  /** Every such UTXO, page after page, each once. */
  iterateUTXOs(parameters: CvmIterateUTXOsParameters, options?: RequestOptions): AsyncGenerator<string, void, undefined>;
  getAtomicTx(parameters: GetAtomicTxParameters, options?: RequestOptions): Promise<AtomicTx>;
  getAtomicTxStatus(parameters: GetAtomicTxStatusParameters, options?: RequestOptions): Promise<AtomicTxStatusResult>;
  /** Sends a signed atomic transaction; returns its txID. */
  issueTx(parameters: CvmIssueTxParameters, options?: RequestOptions): Promise<string>;
  exportKey(parameters: CvmExportKeyParameters, options?: RequestOptions): Promise<CvmExportKeyResult>;
  /** Adds a key to the user; returns its 0x address. */
  importKey(parameters: CvmImportKeyParameters, options?: RequestOptions): Promise<string>;
  /**
   * Polls `getAtomicTxStatus` until Accepted (resolves with the block height). Throws
   * {@link TxRejectedError} when Dropped and {@link TxWaitTimeoutError} after `timeoutMs`;
   * Processing and Unknown keep it waiting.
   */
  waitForAtomicTxStatus(txID: string, options?: WaitForAtomicTxStatusOptions): Promise<AtomicTxStatusResult>;

  /** `eth_getAssetBalance`: balance of a native asset (not the native coin) held by `address`. */
  getAssetBalance(address: string, assetID: AssetIdInput, block?: BlockParameter, options?: RequestOptions): Promise<bigint>;
  /** `eth_baseFee`: base fee of the next block, in wei. */
  baseFee(options?: RequestOptions): Promise<bigint>;
  /** `eth_maxPriorityFeePerGas`: priority fee needed for inclusion, in wei. */
  maxPriorityFeePerGas(options?: RequestOptions): Promise<bigint>;
}

/** Creates a contract-chain client over `transport`. */
export function createContractChainClient(options: ContractChainClientOptions): ContractChainClient {
  const transport = checkTransport("createContractChainClient", options.transport);
  const scheme = namingScheme(options.naming);
  const chain = options.chain ?? DEFAULT_CONTRACT_CHAIN;
  const extras = new Endpoint(transport, scheme.contractChainPath(chain), scheme.contractNamespace);
  const evm = new Endpoint(transport, scheme.evmRpcPath(chain));
  const utxos = utxoPaging<CvmGetUTXOsParameters>(extras, true);

  const baseFeeParam = (args: Args, value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "bigint") return args.type("baseFee", "a bigint (wei)", value);
    if (value < 0n || value > UINT256_MAX) throw new RangeError(`${args.method}: baseFee must be from 0 to 2^256-1, got ${value}`);
    return `0x${value.toString(16)}`;
  };
  const blockHeight = (r: Reader): { blockHeight?: bigint } => {
    const height = r.maybe("blockHeight");
    return height === undefined ? {} : { blockHeight: height.uint64() };
  };

  function getAtomicTxStatus(
    parameters: GetAtomicTxStatusParameters,
    requestOptions?: RequestOptions,
  ): Promise<AtomicTxStatusResult> {
    return extras.call(
      "getAtomicTxStatus",
      (args) => ({ txID: args.string(args.object(parameters).txID, "txID") }),
      (r) => ({ status: r.get("status").oneOf(ATOMIC_TX_STATUSES), ...blockHeight(r) }),
      requestOptions,
    );
  }

  return {
    naming: scheme.naming,
    path: extras.path,
    rpcPath: evm.path,

    export: (parameters, requestOptions) =>
      extras.call(
        "export",
        (args) =>
          compact({
            to: args.string(args.object(parameters).to, "to"),
            amount: args.uint64(parameters.amount, "amount"),
            assetID: args.string(parameters.assetID, "assetID"),
            baseFee: baseFeeParam(args, parameters.baseFee),
            ...args.credentials(parameters.credentials),
          }),
        (r) => r.get("txID").string(),
        requestOptions,
      ),

    import: (parameters, requestOptions) =>
      extras.call(
        "import",
        (args) =>
          compact({
            to: args.string(args.object(parameters).to, "to"),
            sourceChain: args.nonEmptyString(parameters.sourceChain, "sourceChain"),
            baseFee: baseFeeParam(args, parameters.baseFee),
            ...args.credentials(parameters.credentials),
          }),
        (r) => r.get("txID").string(),
        requestOptions,
      ),

    getUTXOs: utxos.getUTXOs,

    iterateUTXOs: utxos.iterateUTXOs,

    getAtomicTx: (parameters, requestOptions) =>
      extras.call(
        "getAtomicTx",
        (args) =>
          compact({
            txID: args.string(args.object(parameters).txID, "txID"),
            encoding: args.encoding(parameters.encoding, "encoding", BYTE_ENCODINGS),
          }),
        (r) => ({
          tx: r.get("tx").string(),
          encoding: r.encodingMember(BYTE_ENCODINGS, parameters.encoding ?? "cb58"),
          ...blockHeight(r),
        }),
        requestOptions,
      ),

    getAtomicTxStatus,

    issueTx: (parameters, requestOptions) => issueTx(extras, parameters, requestOptions),

    exportKey: (parameters, requestOptions) =>
      exportKey(extras, parameters, (r) => ({ privateKey: r.get("privateKey").string(), privateKeyHex: r.get("privateKeyHex").string() }), requestOptions),

    importKey: (parameters, requestOptions) => importKey(extras, parameters, requestOptions),

    waitForAtomicTxStatus: async (txID, waitOptions) =>
      extras.waitForStatus<AtomicTxStatus, AtomicTxStatusResult>({
        waiter: "waitForAtomicTxStatus",
        statusMethod: "getAtomicTxStatus",
        txID,
        poll: () => getAtomicTxStatus({ txID }, { signal: waitOptions?.signal }),
        accepted: "Accepted",
        failed: ["Dropped"],
        options: waitOptions,
      }),

    getAssetBalance: (address, assetID, block = "latest", requestOptions) =>
      evm.call(
        "eth_getAssetBalance",
        (args) => {
          args.string(address, "address");
          let id: string;
          try {
            id = assetIdToCb58(assetID);
          } catch (e) {
            throw new TypeError(`eth_getAssetBalance: assetID: ${e instanceof Error ? e.message : String(e)}`);
          }
          return [address, blockParam(args, block), id];
        },
        (r) => r.quantity(),
        requestOptions,
      ),

    baseFee: (requestOptions) => evm.call("eth_baseFee", () => [], (r) => r.quantity(), requestOptions),

    maxPriorityFeePerGas: (requestOptions) =>
      evm.call("eth_maxPriorityFeePerGas", () => [], (r) => r.quantity(), requestOptions),
  };
}

function blockParam(args: Args, block: unknown): string {
  if (typeof block === "bigint" || typeof block === "number") {
    const value = typeof block === "number" ? (Number.isSafeInteger(block) ? BigInt(block) : -1n) : block;
    if (value < 0n || value > UINT64_MAX) {
      throw new RangeError(`${args.method}: block number must be a non-negative integer below 2^64, got ${String(block)}`);
    }
    return `0x${value.toString(16)}`;
  }
  if (typeof block === "string") {
    if (["latest", "pending", "earliest", "safe", "finalized"].includes(block)) return block;
    if (/^0x[0-9a-fA-F]{64}$/.test(block)) return block;
    if (/^0x[0-9a-fA-F]{1,16}$/.test(block)) return block;
  }
  return args.type("block", "a block tag, number or 32-byte hash", block);
}
