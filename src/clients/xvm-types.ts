/**
 * The exchange chain client's surface: the parameter and result types of its methods (with the
 * API's names: `assetID`, `txID`, `changeAddr`), its options and the {@link ExchangeChainClient}
 * interface. The implementation is in `./xvm`.
 */
import type { ByteEncoding } from "./bytes";
import type { WaitOptions } from "./call";
import type { JsonObject } from "./json";
import type { Naming } from "./naming";
import type { Transport } from "./transport";
import type {
  Credentials,
  EncodedBytes,
  RequestOptions,
  SpendOptions,
  TxIDChangeAddr,
  UTXOIndex,
  UTXOPage,
} from "./types";


/** Status of an exchange-chain transaction. */
export type XvmTxStatus = "Accepted" | "Processing" | "Rejected" | "Unknown";
export const XVM_TX_STATUSES: readonly XvmTxStatus[] = ["Accepted", "Processing", "Rejected", "Unknown"];

/** An initial holder of a fixed-cap asset. */
export interface InitialHolder {
  readonly address: string;
  readonly amount: bigint;
}

/** `threshold` of `minters` together may mint. */
export interface MinterSet {
  readonly minters: readonly string[];
  readonly threshold: number;
}

export interface CreateAddressParameters {
  readonly credentials: Credentials;
}

interface AssetHeader extends SpendOptions {
  readonly credentials: Credentials;
  /** Not necessarily unique. */
  readonly name: string;
  /** 0 to 4 characters, not necessarily unique. */
  readonly symbol: string;
}

export interface CreateFixedCapAssetParameters extends AssetHeader {
  /** Decimal places shown (0: 100 units show as 100; 2: as 1.00). Default 0. */
  readonly denomination?: number;
  readonly initialHolders: readonly InitialHolder[];
}

export interface CreateVariableCapAssetParameters extends AssetHeader {
  readonly denomination?: number;
  readonly minterSets: readonly MinterSet[];
}

export interface CreateNFTAssetParameters extends AssetHeader {
  readonly minterSets: readonly MinterSet[];
}

/** Result of the asset creation methods. */
export interface AssetIDChangeAddr {
  readonly assetID: string;
  readonly changeAddr: string;
}

export interface MintParameters extends SpendOptions {
  readonly credentials: Credentials;
  readonly amount: bigint;
  readonly assetID: string;
  readonly to: string;
}

export interface MintNFTParameters extends SpendOptions {
  readonly credentials: Credentials;
  readonly assetID: string;
  /**
   * At most 1024 bytes: a string already in `encoding`, or bytes, which the client encodes (in
   * `encoding`, or hex when none is given).
   */
  readonly payload: EncodedBytes;
  readonly to: string;
  readonly encoding?: ByteEncoding;
}

export interface SendParameters extends SpendOptions {
  readonly credentials: Credentials;
  /** In the asset's smallest unit (for the native asset, one billionth). */
  readonly amount: bigint;
  /** ID or alias. */
  readonly assetID: string;
  readonly to: string;
  /** At most 256 bytes. */
  readonly memo?: string;
}

export interface SendOutput {
  readonly assetID: string;
  readonly amount: bigint;
  readonly to: string;
}

export interface SendMultipleParameters extends SpendOptions {
  readonly credentials: Credentials;
  readonly outputs: readonly SendOutput[];
  readonly memo?: string;
}

export interface ExportParameters extends SpendOptions {
  readonly credentials: Credentials;
  /** Address on the destination chain, e.g. `C-local1…` (or `P-…`). */
  readonly to: string;
  readonly amount: bigint;
  /** ID, or the native asset's alias. */
  readonly assetID: string;
}

export interface ImportParameters {
  readonly credentials: Credentials;
  /** Must equal the `to` of the matching export. */
  readonly to: string;
  /** ID or alias of the chain the funds come from, e.g. `C` or `P`. */
  readonly sourceChain: string;
}

export interface ExportKeyParameters {
  readonly credentials: Credentials;
  readonly address: string;
}

export interface ImportKeyParameters {
  readonly credentials: Credentials;
  /** `PrivateKey-…`. */
  readonly privateKey: string;
}

export interface ListAddressesParameters {
  readonly credentials: Credentials;
}

export interface GetAllBalancesParameters {
  readonly address: string;
  /** Reference nodes only: also count UTXOs shared with other addresses. */
  readonly includePartial?: boolean;
}

/** One entry of `getAllBalances`. */
export interface AssetBalance {
  /** Asset ID or alias. */
  readonly asset: string;
  readonly balance: bigint;
}

export interface GetBalanceParameters {
  readonly address: string;
  readonly assetID: string;
  /** Reference nodes only: also count UTXOs shared with other addresses. */
  readonly includePartial?: boolean;
}

export interface UTXOID {
  readonly txID: string;
  readonly outputIndex: number;
}

export interface BalanceResult {
  readonly balance: bigint;
  /** The UTXOs making up the balance; empty when the node does not list them. */
  readonly utxoIDs: readonly UTXOID[];
}

export interface GetAssetDescriptionParameters {
  /** ID or alias; omitted or empty: the native asset. */
  readonly assetID?: string;
}

export interface AssetDescription {
  readonly assetID: string;
  readonly name: string;
  /** Empty when the asset has none. */
  readonly symbol: string;
  readonly denomination: number;
}

export interface GetAddressTxsParameters {
  readonly address: string;
  /** ID or alias: only transactions changing the balance of this asset. */
  readonly assetID: string;
  /** The `cursor` of the previous page; omitted for the first page. */
  readonly cursor?: bigint;
  /** Default 1024. */
  readonly pageSize?: number;
}

export interface AddressTxsPage {
  readonly txIDs: readonly string[];
  /** Pass as `cursor` to get the next page. */
  readonly cursor: bigint;
}

export type IterateAddressTxsParameters = GetAddressTxsParameters;

/** Encodings of `getTx`: the byte encodings, or `json` for a decoded transaction object. */
export type TxEncoding = ByteEncoding | "json";

export interface GetTxParameters<E extends TxEncoding = TxEncoding> {
  readonly txID: string;
  /** Default cb58. */
  readonly encoding?: E;
}

/** Result of `getTx`: bytes in cb58 or hex, or with `json` the transaction as an object. */
export type GetTxResult<E extends TxEncoding = ByteEncoding> = E extends "json"
  ? { readonly tx: JsonObject; readonly encoding: "json" }
  : { readonly tx: string; readonly encoding: ByteEncoding };

export interface GetTxStatusParameters {
  readonly txID: string;
}

export interface GetUTXOsParameters {
  readonly addresses: readonly string[];
  /** At most 1024 (also the default); larger values act as 1024. */
  readonly limit?: number;
  /** The `endIndex` of the previous page. */
  readonly startIndex?: UTXOIndex;
  /** Set to get the atomic UTXOs exported from that chain to this one. */
  readonly sourceChain?: string;
  readonly encoding?: ByteEncoding;
}

export type IterateUTXOsParameters = GetUTXOsParameters;

export interface IssueTxParameters {
  /** The signed transaction: a string in `encoding`, or bytes (encoded by the client, hex by default). */
  readonly tx: EncodedBytes;
  readonly encoding?: ByteEncoding;
}

/** A genesis asset: `initialState` names one asset type. */
export interface GenesisAsset {
  readonly name: string;
  /** 0 to 4 characters. */
  readonly symbol: string;
  readonly denomination?: number;
  /**
   * Bytes: a string in the request's `encoding`, or a Uint8Array (encoded by the client; the
   * request then uses hex when no encoding is given).
   */
  readonly memo?: EncodedBytes;
  readonly initialState:
    | { readonly fixedCap: readonly InitialHolder[] }
    | { readonly variableCap: readonly MinterSet[] }
    | { readonly nonFungible: readonly MinterSet[] }
    | { readonly limitedTransfer: readonly MinterSet[] };
}

export interface BuildGenesisParameters {
  readonly networkID: number;
  /** Unique asset alias -> asset. */
  readonly genesisData: Readonly<Record<string, GenesisAsset>>;
  readonly encoding?: ByteEncoding;
}

export interface GenesisBytes {
  readonly bytes: string;
  readonly encoding: ByteEncoding;
}

export type WaitForTxStatusOptions = WaitOptions<XvmTxStatus>;

// ---------------------------------------------------------------- the client: options and interface

export interface ExchangeChainClientOptions {
  transport: Transport;
  /** Default `"seed"` (`xvm.*`); `"reference"` for real nodes (`avm.*`). */
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
