/**
 * Client of the exchange chain API (`xvm.*` at `/ext/bc/X`; `avm.*` on real nodes, see
 * {@link Naming}).
 *
 * ```ts
 * const xvm = createExchangeChainClient({ transport: createTransport({ url: "http://127.0.0.1:9650" }) });
 * const { txID } = await xvm.send({ credentials, assetID: "AVAX", amount: 1_000n, to: "X-local1…" });
 * await xvm.waitForTxStatus(txID);
 * ```
 *
 * Conventions:
 * - parameters and result fields keep the API's names (`assetID`, `txID`, `changeAddr`);
 * - amounts are `bigint`, sent as decimal strings; counts (limit, pageSize, denomination,
 *   threshold, networkID) are numbers; every uint64 in a result is parsed into a `bigint`
 *   whether the node writes it as a string or a number;
 * - an optional parameter left `undefined` is not sent;
 * - a method whose result has one field returns that field's value (`createAddress` returns the
 *   address, `issueTx` the txID); the others return an object.
 *
 * Each method is a named function of `./exchange-chain/`, beside its parameter and result
 * types: keys, assets, transfers, balances, UTXOs, transactions and the static genesis API.
 * This file holds the client's options and interface, and builds the client from them.
 */
import type { ByteEncoding } from "./bytes";
import { checkTransport, Endpoint } from "./call";
import type { AssetBalance, BalanceResult, GetAllBalancesParameters, GetBalanceParameters } from "./exchange-chain/balances";
import { getAllBalances, getBalance } from "./exchange-chain/balances";
import type {
  AssetDescription,
  AssetIDChangeAddr,
  CreateFixedCapAssetParameters,
  CreateNFTAssetParameters,
  CreateVariableCapAssetParameters,
  GetAssetDescriptionParameters,
  MintNFTParameters,
  MintParameters,
} from "./exchange-chain/assets";
import { createFixedCapAsset, createNFTAsset, createVariableCapAsset, getAssetDescription, mint, mintNFT } from "./exchange-chain/assets";
import { type BuildGenesisParameters, buildGenesis, type GenesisBytes } from "./exchange-chain/genesis";
import type { CreateAddressParameters, ExportKeyParameters, ImportKeyParameters, ListAddressesParameters } from "./exchange-chain/keys";
import { createAddress, exportKey, importKey, listAddresses } from "./exchange-chain/keys";
import type {
  AddressTxsPage,
  GetAddressTxsParameters,
  GetTxParameters,
  GetTxResult,
  GetTxStatusParameters,
  IssueTxParameters,
  IterateAddressTxsParameters,
  WaitForTxStatusOptions,
  XvmTxStatus,
} from "./exchange-chain/transactions";
import { getAddressTxs, getTx, getTxStatus, issueTx, iterateAddressTxs, waitForTxStatus } from "./exchange-chain/transactions";
import type { ExportParameters, ImportParameters, SendMultipleParameters, SendParameters } from "./exchange-chain/transfers";
import { exportToChain, importFromChain, send, sendMultiple } from "./exchange-chain/transfers";
import { type GetUTXOsParameters, getUTXOs, type IterateUTXOsParameters, iterateUTXOs } from "./exchange-chain/utxos";
import { DEFAULT_EXCHANGE_CHAIN, type Naming, namingScheme } from "./naming";
import type { Transport } from "./transport";
import type { RequestOptions, TxIDChangeAddr, UTXOPage } from "./types";

export type {
  AssetDescription,
  AssetIDChangeAddr,
  CreateFixedCapAssetParameters,
  CreateNFTAssetParameters,
  CreateVariableCapAssetParameters,
  GetAssetDescriptionParameters,
  InitialHolder,
  MintNFTParameters,
  MintParameters,
  MinterSet,
} from "./exchange-chain/assets";
export type {
  AssetBalance,
  BalanceResult,
  GetAllBalancesParameters,
  GetBalanceParameters,
  UTXOID,
} from "./exchange-chain/balances";
export type { BuildGenesisParameters, GenesisAsset, GenesisBytes } from "./exchange-chain/genesis";
export type {
  CreateAddressParameters,
  ExportKeyParameters,
  ImportKeyParameters,
  ListAddressesParameters,
} from "./exchange-chain/keys";
export type {
  AddressTxsPage,
  GetAddressTxsParameters,
  GetTxParameters,
  GetTxResult,
  GetTxStatusParameters,
  IssueTxParameters,
  IterateAddressTxsParameters,
  TxEncoding,
  WaitForTxStatusOptions,
  XvmTxStatus,
} from "./exchange-chain/transactions";
export type {
  ExportParameters,
  ImportParameters,
  SendMultipleParameters,
  SendOutput,
  SendParameters,
} from "./exchange-chain/transfers";
export type { GetUTXOsParameters, IterateUTXOsParameters } from "./exchange-chain/utxos";
export { XVM_TX_STATUSES } from "./exchange-chain/transactions";

export interface ExchangeChainClientOptions {
  transport: Transport;
  /** Default `"nativekit"` (`xvm.*`); `"reference"` for real nodes (`avm.*`). */
  naming?: Naming;
  /** Alias or blockchain ID of the exchange chain. Default `"X"`. */
  chain?: string;
}

export interface ExchangeChainClient {
  readonly naming: Naming;
  /** The path the chain methods are posted to, e.g. `/ext/bc/X`. */
  readonly path: string;
  /** The path of `buildGenesis`, `/ext/vm/xvm` or `/ext/vm/avm`. */
  readonly staticPath: string;

  /** A new address controlled by the user. */
  createAddress(parameters: CreateAddressParameters, options?: RequestOptions): Promise<string>;
  createFixedCapAsset(parameters: CreateFixedCapAssetParameters, options?: RequestOptions): Promise<AssetIDChangeAddr>;
  createVariableCapAsset(
    parameters: CreateVariableCapAssetParameters,
    options?: RequestOptions,
  ): Promise<AssetIDChangeAddr>;
  createNFTAsset(parameters: CreateNFTAssetParameters, options?: RequestOptions): Promise<AssetIDChangeAddr>;
  mint(parameters: MintParameters, options?: RequestOptions): Promise<TxIDChangeAddr>;
  mintNFT(parameters: MintNFTParameters, options?: RequestOptions): Promise<TxIDChangeAddr>;
  send(parameters: SendParameters, options?: RequestOptions): Promise<TxIDChangeAddr>;
  sendMultiple(parameters: SendMultipleParameters, options?: RequestOptions): Promise<TxIDChangeAddr>;
  /** First step of a transfer to another chain; complete it with that chain's import. */
  export(parameters: ExportParameters, options?: RequestOptions): Promise<TxIDChangeAddr>;
  /** Completes a transfer from another chain; returns the txID. */
  import(parameters: ImportParameters, options?: RequestOptions): Promise<string>;
  /** The private key (`PrivateKey-…`) of one of the user's addresses. */
  exportKey(parameters: ExportKeyParameters, options?: RequestOptions): Promise<string>;
  /** Adds a key to the user; returns its address. */
  importKey(parameters: ImportKeyParameters, options?: RequestOptions): Promise<string>;
  listAddresses(parameters: ListAddressesParameters, options?: RequestOptions): Promise<string[]>;
  getAllBalances(parameters: GetAllBalancesParameters, options?: RequestOptions): Promise<AssetBalance[]>;
  getBalance(parameters: GetBalanceParameters, options?: RequestOptions): Promise<BalanceResult>;
  getAssetDescription(parameters?: GetAssetDescriptionParameters, options?: RequestOptions): Promise<AssetDescription>;
  /** One page of an address's transactions (needs transaction indexing on the node). */
  getAddressTxs(parameters: GetAddressTxsParameters, options?: RequestOptions): Promise<AddressTxsPage>;
  /** Every transaction ID of an address, page after page, each once. */
  iterateAddressTxs(parameters: IterateAddressTxsParameters, options?: RequestOptions): AsyncGenerator<string, void, undefined>;
  getTx(parameters: GetTxParameters<ByteEncoding>, options?: RequestOptions): Promise<GetTxResult<ByteEncoding>>;
  getTx(parameters: GetTxParameters<"json">, options?: RequestOptions): Promise<GetTxResult<"json">>;
  getTx(parameters: GetTxParameters, options?: RequestOptions): Promise<GetTxResult<ByteEncoding> | GetTxResult<"json">>;
  getTxStatus(parameters: GetTxStatusParameters, options?: RequestOptions): Promise<XvmTxStatus>;
  /** One page of UTXOs. */
  getUTXOs(parameters: GetUTXOsParameters, options?: RequestOptions): Promise<UTXOPage>;
  /** Every UTXO of the addresses, page after page, each once (pages may repeat UTXOs). */
  iterateUTXOs(parameters: IterateUTXOsParameters, options?: RequestOptions): AsyncGenerator<string, void, undefined>;
  /** Sends a signed transaction; returns its txID. */
  issueTx(parameters: IssueTxParameters, options?: RequestOptions): Promise<string>;
  /** Genesis bytes for the exchange chain (static API, no chain needed). */
  buildGenesis(parameters: BuildGenesisParameters, options?: RequestOptions): Promise<GenesisBytes>;
  /**
   * Polls `getTxStatus` until the transaction is Accepted. Throws {@link TxRejectedError} when it
   * is Rejected and {@link TxWaitTimeoutError} (with the last status) after `timeoutMs`.
   */
  waitForTxStatus(txID: string, options?: WaitForTxStatusOptions): Promise<"Accepted">;
}

/** Creates an exchange-chain client over `transport`. */
export function createExchangeChainClient(options: ExchangeChainClientOptions): ExchangeChainClient {
  const transport = checkTransport("createExchangeChainClient", options.transport);
  const scheme = namingScheme(options.naming);
  const namespace = scheme.exchangeNamespace;
  const chain = new Endpoint(transport, scheme.exchangeChainPath(options.chain ?? DEFAULT_EXCHANGE_CHAIN), namespace);
  /** The static API: `buildGenesis`, which needs no chain. */
  const staticApi = new Endpoint(transport, scheme.exchangeStaticPath, namespace);
  return {
    naming: scheme.naming,
    path: chain.path,
    staticPath: staticApi.path,
    createAddress: (parameters, o) => createAddress(chain, parameters, o),
    createFixedCapAsset: (parameters, o) => createFixedCapAsset(chain, parameters, o),
    createVariableCapAsset: (parameters, o) => createVariableCapAsset(chain, parameters, o),
    createNFTAsset: (parameters, o) => createNFTAsset(chain, parameters, o),
    mint: (parameters, o) => mint(chain, parameters, o),
    mintNFT: (parameters, o) => mintNFT(chain, parameters, o),
    send: (parameters, o) => send(chain, parameters, o),
    sendMultiple: (parameters, o) => sendMultiple(chain, parameters, o),
    export: (parameters, o) => exportToChain(chain, parameters, o),
    import: (parameters, o) => importFromChain(chain, parameters, o),
    exportKey: (parameters, o) => exportKey(chain, parameters, o),
    importKey: (parameters, o) => importKey(chain, parameters, o),
    listAddresses: (parameters, o) => listAddresses(chain, parameters, o),
    getAllBalances: (parameters, o) => getAllBalances(chain, parameters, o),
    getBalance: (parameters, o) => getBalance(chain, parameters, o),
    getAssetDescription: (parameters, o) => getAssetDescription(chain, parameters, o),
    getAddressTxs: (parameters, o) => getAddressTxs(chain, parameters, o),
    iterateAddressTxs: (parameters, o) => iterateAddressTxs(chain, parameters, o),
    getTx: ((parameters: GetTxParameters, o?: RequestOptions) => getTx(chain, parameters, o)) as ExchangeChainClient["getTx"],
    getTxStatus: (parameters, o) => getTxStatus(chain, parameters, o),
    getUTXOs: (parameters, o) => getUTXOs(chain, parameters, o),
    iterateUTXOs: (parameters, o) => iterateUTXOs(chain, parameters, o),
    issueTx: (parameters, o) => issueTx(chain, parameters, o),
    buildGenesis: (parameters, o) => buildGenesis(staticApi, parameters, o),
    waitForTxStatus: (txID, o) => waitForTxStatus(chain, txID, o),
  };
}
