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
 *
 * Each method is a named function of `./contract-chain/`, beside its parameter and result types
 * (atomic transactions, keys, UTXOs, the EVM extras); this file holds the client's options and
 * interface, and builds the client from them.
 */
import type { AssetIdInput } from "../encoding";
import { checkTransport, Endpoint } from "./call";
import type {
  AtomicTx,
  AtomicTxStatusResult,
  CvmExportParameters,
  CvmImportParameters,
  CvmIssueTxParameters,
  GetAtomicTxParameters,
  GetAtomicTxStatusParameters,
  WaitForAtomicTxStatusOptions,
} from "./contract-chain/atomic";
import {
  exportToChain,
  getAtomicTx,
  getAtomicTxStatus,
  importFromChain,
  issueTx,
  waitForAtomicTxStatus,
} from "./contract-chain/atomic";
import { type BlockParameter, baseFee, getAssetBalance, maxPriorityFeePerGas } from "./contract-chain/evm";
import type { CvmExportKeyParameters, CvmExportKeyResult, CvmImportKeyParameters } from "./contract-chain/keys";
import { exportKey, importKey } from "./contract-chain/keys";
import { type CvmGetUTXOsParameters, type CvmIterateUTXOsParameters, getUTXOs, iterateUTXOs } from "./contract-chain/utxos";
import { DEFAULT_CONTRACT_CHAIN, type Naming, namingScheme } from "./naming";
import type { Transport } from "./transport";
import type { RequestOptions, UTXOPage } from "./types";

export type {
  AtomicTx,
  AtomicTxStatus,
  AtomicTxStatusResult,
  CvmExportParameters,
  CvmImportParameters,
  CvmIssueTxParameters,
  GetAtomicTxParameters,
  GetAtomicTxStatusParameters,
  WaitForAtomicTxStatusOptions,
} from "./contract-chain/atomic";
export type { BlockParameter } from "./contract-chain/evm";
export type { CvmExportKeyParameters, CvmExportKeyResult, CvmImportKeyParameters } from "./contract-chain/keys";
export type { CvmGetUTXOsParameters, CvmIterateUTXOsParameters } from "./contract-chain/utxos";
export { ATOMIC_TX_STATUSES } from "./contract-chain/atomic";

export interface ContractChainClientOptions {
  transport: Transport;
  /** Default `"nativekit"` (`cvm.*` at …/cvm); `"reference"` for real nodes (`avax.*` at …/avax). */
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
  return {
    naming: scheme.naming,
    path: extras.path,
    rpcPath: evm.path,
    export: (parameters, o) => exportToChain(extras, parameters, o),
    import: (parameters, o) => importFromChain(extras, parameters, o),
    getUTXOs: (parameters, o) => getUTXOs(extras, parameters, o),
    iterateUTXOs: (parameters, o) => iterateUTXOs(extras, parameters, o),
    getAtomicTx: (parameters, o) => getAtomicTx(extras, parameters, o),
    getAtomicTxStatus: (parameters, o) => getAtomicTxStatus(extras, parameters, o),
    issueTx: (parameters, o) => issueTx(extras, parameters, o),
    exportKey: (parameters, o) => exportKey(extras, parameters, o),
    importKey: (parameters, o) => importKey(extras, parameters, o),
    waitForAtomicTxStatus: (txID, o) => waitForAtomicTxStatus(extras, txID, o),
    getAssetBalance: (address, assetID, block, o) => getAssetBalance(evm, address, assetID, block, o),
    baseFee: (o) => baseFee(evm, o),
    maxPriorityFeePerGas: (o) => maxPriorityFeePerGas(evm, o),
  };
}
