/** The exchange chain's static API: `buildGenesis`, the genesis bytes of a chain's assets (no chain needed). */
import { BYTE_ENCODINGS, type ByteEncoding } from "../bytes";
import type { Endpoint } from "../call";
import type { Args } from "../internal";
import { compact, type JsonObject, type JsonValue } from "../json";
import type { EncodedBytes, RequestOptions } from "../types";
import { holdersParam, type InitialHolder, type MinterSet, minterSetsParam } from "./asset-fields";

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

/** Genesis bytes for the exchange chain; `staticApi` is the endpoint at `/ext/vm/xvm` (or `avm`). */
export function buildGenesis(staticApi: Endpoint, parameters: BuildGenesisParameters, options?: RequestOptions): Promise<GenesisBytes> {
  // The request's encoding applies to the memos and to the returned bytes.
  let encoding: ByteEncoding | undefined;
  return staticApi.call(
    "buildGenesis",
    (args) => {
      const networkID = args.integer(args.object(parameters).networkID, "networkID", 0, 0xffff_ffff);
      const data = args.object(parameters.genesisData, "genesisData");
      encoding = args.encoding(parameters.encoding, "encoding", BYTE_ENCODINGS);
      if (encoding === undefined && Object.values(data).some((asset) => asset?.memo instanceof Uint8Array)) {
        encoding = "hex";
      }
      const genesisData: { [alias: string]: JsonValue } = {};
      for (const [alias, asset] of Object.entries(data)) genesisData[alias] = genesisAssetParam(args, asset, alias, encoding);
      return compact({ networkID, genesisData, encoding });
    },
    (r) => ({
      bytes: r.get("bytes").string(),
      encoding: r.encodingMember(BYTE_ENCODINGS, encoding ?? "cb58"),
    }),
    options,
  );
}

function genesisAssetParam(args: Args, asset: GenesisAsset, alias: string, encoding: ByteEncoding | undefined): JsonObject {
  const at = `genesisData.${alias}`;
  args.object(asset, at);
  const state = args.object(asset.initialState, `${at}.initialState`) as Record<string, unknown>;
  const initialState: { [type: string]: JsonValue } = {};
  for (const [type, entries] of Object.entries(state)) {
    initialState[type] =
      type === "fixedCap"
        ? holdersParam(args, entries, `${at}.initialState.fixedCap`)
        : minterSetsParam(args, entries, `${at}.initialState.${type}`);
  }
  return compact({
    name: args.string(asset.name, `${at}.name`),
    symbol: args.string(asset.symbol, `${at}.symbol`),
    denomination: args.optionalInteger(asset.denomination, `${at}.denomination`, 0, 255),
    memo: asset.memo === undefined ? undefined : args.bytes(asset.memo, `${at}.memo`, encoding).text,
    initialState,
  });
}
