/**
 * The exchange chain's asset methods: creating fixed-cap, variable-cap and NFT assets, minting
 * them, and describing an asset.
 */
import { BYTE_ENCODINGS, type ByteEncoding } from "../bytes";
import type { Endpoint } from "../call";
import { readTxIDChangeAddr } from "../chain-methods";
import type { Reader } from "../internal";
import { compact } from "../json";
import type { Credentials, EncodedBytes, RequestOptions, SpendOptions, TxIDChangeAddr } from "../types";
import { denominationParam, holdersParam, type InitialHolder, type MinterSet, minterSetsParam } from "./asset-fields";

export type { InitialHolder, MinterSet } from "./asset-fields";

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

function readAssetIDChangeAddr(r: Reader): AssetIDChangeAddr {
  return { assetID: r.get("assetID").string(), changeAddr: r.get("changeAddr").string() };
}

export function createFixedCapAsset(
  chain: Endpoint,
  parameters: CreateFixedCapAssetParameters,
  options?: RequestOptions,
): Promise<AssetIDChangeAddr> {
  return chain.call(
    "createFixedCapAsset",
    (args) =>
      compact({
        name: args.string(args.object(parameters).name, "name"),
        symbol: args.string(parameters.symbol, "symbol"),
        denomination: denominationParam(args, parameters.denomination),
        initialHolders: holdersParam(args, parameters.initialHolders, "initialHolders"),
        ...args.spend(parameters),
        ...args.credentials(parameters.credentials),
      }),
    readAssetIDChangeAddr,
    options,
  );
}

export function createVariableCapAsset(
  chain: Endpoint,
  parameters: CreateVariableCapAssetParameters,
  options?: RequestOptions,
): Promise<AssetIDChangeAddr> {
  return chain.call(
    "createVariableCapAsset",
    (args) =>
      compact({
        name: args.string(args.object(parameters).name, "name"),
        symbol: args.string(parameters.symbol, "symbol"),
        denomination: denominationParam(args, parameters.denomination),
        minterSets: minterSetsParam(args, parameters.minterSets, "minterSets"),
        ...args.spend(parameters),
        ...args.credentials(parameters.credentials),
      }),
    readAssetIDChangeAddr,
    options,
  );
}

export function createNFTAsset(
  chain: Endpoint,
  parameters: CreateNFTAssetParameters,
  options?: RequestOptions,
): Promise<AssetIDChangeAddr> {
  return chain.call(
    "createNFTAsset",
    (args) =>
      compact({
        name: args.string(args.object(parameters).name, "name"),
        symbol: args.string(parameters.symbol, "symbol"),
        minterSets: minterSetsParam(args, parameters.minterSets, "minterSets"),
        ...args.spend(parameters),
        ...args.credentials(parameters.credentials),
      }),
    readAssetIDChangeAddr,
    options,
  );
}

export function mint(chain: Endpoint, parameters: MintParameters, options?: RequestOptions): Promise<TxIDChangeAddr> {
  return chain.call(
    "mint",
    (args) =>
      compact({
        amount: args.uint64(args.object(parameters).amount, "amount"),
        assetID: args.string(parameters.assetID, "assetID"),
        to: args.string(parameters.to, "to"),
        ...args.spend(parameters),
        ...args.credentials(parameters.credentials),
      }),
    readTxIDChangeAddr,
    options,
  );
}

export function mintNFT(chain: Endpoint, parameters: MintNFTParameters, options?: RequestOptions): Promise<TxIDChangeAddr> {
  return chain.call(
    "mintNFT",
    (args) => {
      args.object(parameters);
      const payload = args.bytes(parameters.payload, "payload", args.encoding(parameters.encoding, "encoding", BYTE_ENCODINGS));
      return compact({
        assetID: args.string(parameters.assetID, "assetID"),
        payload: payload.text,
        to: args.string(parameters.to, "to"),
        encoding: payload.encoding,
        ...args.spend(parameters),
        ...args.credentials(parameters.credentials),
      });
    },
    readTxIDChangeAddr,
    options,
  );
}

export function getAssetDescription(
  chain: Endpoint,
  parameters: GetAssetDescriptionParameters = {},
  options?: RequestOptions,
): Promise<AssetDescription> {
  return chain.call(
    "getAssetDescription",
    // Sent even when empty: "when empty the native asset is returned".
    (args) => ({ assetID: args.optionalString(args.object(parameters).assetID, "assetID") ?? "" }),
    (r) => ({
      assetID: r.first("assetID", "assetId").string(),
      name: r.get("name").string(),
      symbol: r.maybe("symbol")?.string() ?? "",
      denomination: r.get("denomination").count(),
    }),
    options,
  );
}
