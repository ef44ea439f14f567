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
 * chain's (nativekit's) names differ, both are offered: `exportAVAX`/`export`, `importAVAX`/`import`;
 * `getBlockchainID` resolves an alias ("X", "C", "P") like `info.getBlockchainID`.
 *
 * Each method is a named function of `./platform-chain/`, beside its parameter and result types
 * (blocks, transactions, accounts, multisig aliases, transfers, the network, fees); this file
 * holds the client's options and interface, and builds the client from them.
 */
import { checkTransport, Endpoint } from "./call";
import type {
  PlatformBalance,
  PlatformCredentialsParameters,
  PlatformExportKeyParameters,
  PlatformGetBalanceParameters,
  PlatformImportKeyParameters,
  PlatformUTXOsParameters,
} from "./platform-chain/accounts";
import { createAddress, exportKey, getBalance, getUTXOs, importKey, iterateUTXOs, listAddresses } from "./platform-chain/accounts";
import type { PlatformBlock, PlatformGetBlockByHeightParameters, PlatformGetBlockParameters } from "./platform-chain/blocks";
import { getBlock, getBlockByHeight, getHeight } from "./platform-chain/blocks";
import { getFeeConfig, getFeeState, type PlatformFeeConfig, type PlatformFeeState } from "./platform-chain/fees";
import type {
  CreateMultisigAliasParameters,
  CreateMultisigAliasResult,
  GetMultisigAliasParameters,
  MultisigAliasInfo,
} from "./platform-chain/multisig";
import { createMultisigAlias, getMultisigAlias } from "./platform-chain/multisig";
import { type Blockchain, type GetBlockchainStatusParameters, getBlockchainID, getBlockchains, getBlockchainStatus, getStakingAssetID } from "./platform-chain/network";
import type {
  PlatformGetTxParameters,
  PlatformGetTxStatusParameters,
  PlatformIssueTxParameters,
  PlatformTx,
  PlatformTxStatus,
} from "./platform-chain/transactions";
import { getTx, getTxStatus, issueTx } from "./platform-chain/transactions";
import { exportAVAX, importAVAX, type PlatformExportParameters, type PlatformImportParameters } from "./platform-chain/transfers";
import type { Transport } from "./transport";
import type { RequestOptions, TxIDChangeAddr, UTXOPage } from "./types";

export type {
  PlatformBalance,
  PlatformCredentialsParameters,
  PlatformExportKeyParameters,
  PlatformGetBalanceParameters,
  PlatformImportKeyParameters,
  PlatformUTXOsParameters,
} from "./platform-chain/accounts";
export type { PlatformBlock, PlatformGetBlockByHeightParameters, PlatformGetBlockParameters } from "./platform-chain/blocks";
export type { PlatformFeeConfig, PlatformFeeState } from "./platform-chain/fees";
export type {
  CreateMultisigAliasParameters,
  CreateMultisigAliasResult,
  GetMultisigAliasParameters,
  MultisigAliasInfo,
} from "./platform-chain/multisig";
export type { Blockchain, GetBlockchainStatusParameters } from "./platform-chain/network";
export type {
  PlatformGetTxParameters,
  PlatformGetTxStatusParameters,
  PlatformIssueTxParameters,
  PlatformTx,
  PlatformTxStatus,
} from "./platform-chain/transactions";
export { PLATFORM_TX_STATUSES } from "./platform-chain/transactions";
export type { PlatformExportParameters, PlatformImportParameters } from "./platform-chain/transfers";

export const PLATFORM_PATH = "/ext/bc/P";

export interface PlatformChainClientOptions {
  transport: Transport;
  /** Alias or blockchain ID in the path. Default `"P"`. */
  chain?: string;
}

export interface PlatformChainClient {
  readonly path: string;
  getHeight(options?: RequestOptions): Promise<bigint>;
  getBlock(parameters: PlatformGetBlockParameters, options?: RequestOptions): Promise<PlatformBlock>;
  getBlockByHeight(parameters: PlatformGetBlockByHeightParameters, options?: RequestOptions): Promise<PlatformBlock>;
  getTx(parameters: PlatformGetTxParameters, options?: RequestOptions): Promise<PlatformTx>;
  getTxStatus(parameters: PlatformGetTxStatusParameters, options?: RequestOptions): Promise<PlatformTxStatus>;
  getUTXOs(parameters: PlatformUTXOsParameters, options?: RequestOptions): Promise<UTXOPage>;
  /** Every UTXO (its encoded bytes), page after page. */
  iterateUTXOs(parameters: PlatformUTXOsParameters, options?: RequestOptions): AsyncIterable<string>;
  getBalance(parameters: PlatformGetBalanceParameters, options?: RequestOptions): Promise<PlatformBalance>;
  issueTx(parameters: PlatformIssueTxParameters, options?: RequestOptions): Promise<string>;
  getMultisigAlias(parameters: GetMultisigAliasParameters, options?: RequestOptions): Promise<MultisigAliasInfo>;
  createMultisigAlias(parameters: CreateMultisigAliasParameters, options?: RequestOptions): Promise<CreateMultisigAliasResult>;
  createAddress(parameters: PlatformCredentialsParameters, options?: RequestOptions): Promise<string>;
  listAddresses(parameters: PlatformCredentialsParameters, options?: RequestOptions): Promise<string[]>;
  importKey(parameters: PlatformImportKeyParameters, options?: RequestOptions): Promise<string>;
  exportKey(parameters: PlatformExportKeyParameters, options?: RequestOptions): Promise<string>;
  exportAVAX(parameters: PlatformExportParameters, options?: RequestOptions): Promise<TxIDChangeAddr>;
  /** The exchange chain's name for {@link exportAVAX}. */
  export(parameters: PlatformExportParameters, options?: RequestOptions): Promise<TxIDChangeAddr>;
  importAVAX(parameters: PlatformImportParameters, options?: RequestOptions): Promise<TxIDChangeAddr>;
  /** The exchange chain's name for {@link importAVAX}. */
  import(parameters: PlatformImportParameters, options?: RequestOptions): Promise<TxIDChangeAddr>;
  getBlockchains(options?: RequestOptions): Promise<Blockchain[]>;
  getBlockchainStatus(parameters: GetBlockchainStatusParameters, options?: RequestOptions): Promise<string>;
  /** The ID of the chain named "X", "C" or "P" (or a name of getBlockchains, e.g. "X-Chain"). */
  getBlockchainID(alias: string, options?: RequestOptions): Promise<string>;
  getStakingAssetID(options?: RequestOptions): Promise<string>;
  getFeeConfig(options?: RequestOptions): Promise<PlatformFeeConfig>;
  /** A transaction's fee is its gas (complexity · weights) times `price`. */
  getFeeState(options?: RequestOptions): Promise<PlatformFeeState>;
}

export function createPlatformChainClient(options: PlatformChainClientOptions): PlatformChainClient {
  const transport = checkTransport("createPlatformChainClient", options.transport);
  const chain = new Endpoint(transport, `/ext/bc/${options.chain ?? "P"}`, "platform");
  return {
    path: chain.path,
    getHeight: (o) => getHeight(chain, o),
    getBlock: (parameters, o) => getBlock(chain, parameters, o),
    getBlockByHeight: (parameters, o) => getBlockByHeight(chain, parameters, o),
    getTx: (parameters, o) => getTx(chain, parameters, o),
    getTxStatus: (parameters, o) => getTxStatus(chain, parameters, o),
    getUTXOs: (parameters, o) => getUTXOs(chain, parameters, o),
    iterateUTXOs: (parameters, o) => iterateUTXOs(chain, parameters, o),
    getBalance: (parameters, o) => getBalance(chain, parameters, o),
    issueTx: (parameters, o) => issueTx(chain, parameters, o),
    getMultisigAlias: (parameters, o) => getMultisigAlias(chain, parameters, o),
    createMultisigAlias: (parameters, o) => createMultisigAlias(chain, parameters, o),
    createAddress: (parameters, o) => createAddress(chain, parameters, o),
    listAddresses: (parameters, o) => listAddresses(chain, parameters, o),
    importKey: (parameters, o) => importKey(chain, parameters, o),
    exportKey: (parameters, o) => exportKey(chain, parameters, o),
    exportAVAX: (parameters, o) => exportAVAX(chain, parameters, o),
    export: (parameters, o) => exportAVAX(chain, parameters, o),
    importAVAX: (parameters, o) => importAVAX(chain, parameters, o),
    import: (parameters, o) => importAVAX(chain, parameters, o),
    getBlockchains: (o) => getBlockchains(chain, o),
    getBlockchainStatus: (parameters, o) => getBlockchainStatus(chain, parameters, o),
    getBlockchainID: (alias, o) => getBlockchainID(chain, alias, o),
    getStakingAssetID: (o) => getStakingAssetID(chain, o),
    getFeeConfig: (o) => getFeeConfig(chain, o),
    getFeeState: (o) => getFeeState(chain, o),
  };
}
