import { encodeNodeBytes, EncodingError, parseBech32Address } from "../../encoding";
import { invalidParams, type NamedParams, RpcApi } from "../../rpc";
import { type ByteEncoding, decodeBytes, encodingParam } from "../../utxo/api";
import { buildGenesisAssets, encodeGenesisBytes, type GenesisAssetDefinition } from "../genesis";

/*
 * The static service of the exchange chain's VM (path /ext/vm/xvm, and /ext/vm/avm):
 * buildGenesis, which needs no chain.
 */

/**
 * xvm.buildGenesis and avm.buildGenesis. Builds the genesis bytes exactly as the reference
 * node's static service: one CreateAssetTx per alias (sorted by alias), fixedCap holders and
 * variableCap minter sets in one secp256k1fx initial state (sorted); a variableCap minter set's
 * threshold is always 1 there, whatever the request says.
 */
export function createStaticXvmApi(): RpcApi {
  return new RpcApi().named("avm.buildGenesis", buildGenesis).named("xvm.buildGenesis", buildGenesis);
}

/** networkID, genesisData, encoding → the genesis bytes in `encoding`. */
function buildGenesis(p: NamedParams): { bytes: string; encoding: ByteEncoding } {
  const networkId = Number(p.uint("networkID", 32, 0n));
  const encoding = encodingParam(p);
  const data = p.object("genesisData");
  const definitions = data === undefined ? [] : data.fieldNames().map((alias): [string, GenesisAssetDefinition] => [alias, definition(data, alias, encoding)]);
  return { bytes: encodeNodeBytes(encodeGenesisBytes(buildGenesisAssets(networkId, definitions)), encoding), encoding };
}

/** genesisData.<alias>: {name, symbol, denomination, memo, initialState}; null is the empty definition (as the node's JSON reads it). */
function definition(data: NamedParams, alias: string, encoding: ByteEncoding): GenesisAssetDefinition {
  const d = data.object(alias);
  if (d === undefined) return { name: "", symbol: "" };
  const name = d.stringOr("name", "");
  const symbol = d.stringOr("symbol", "");
  const denomination = Number(d.uint("denomination", 8, 0n));
  const memo = decodeBytes(d.stringOr("memo", ""), encoding, d.nameOf("memo"));
  const state = d.object("initialState");
  const initialState: NonNullable<GenesisAssetDefinition["initialState"]> = {};
  if (state !== undefined) {
    for (const type of state.fieldNames()) {
      if (type === "fixedCap") {
        initialState.fixedCap = state.objects(type).map((holder) => ({
          amount: holder.uint("amount", 64, 0n),
          address: genesisAddress(holder.string("address"), holder.nameOf("address")),
        }));
      } else if (type === "variableCap") {
        initialState.variableCap = state.objects(type).map((owners) => ({
          minters: owners.stringArray("minters").map((m, j) => genesisAddress(m, owners.nameOf(`minters[${j}]`))),
          threshold: Number(owners.uint("threshold", 32, 0n)),
        }));
      } else {
        throw invalidParams(`unknown asset type ${JSON.stringify(type)} in ${d.nameOf("initialState")} (the genesis builder takes fixedCap and variableCap)`);
      }
    }
  }
  return { name, symbol, denomination, memo, initialState: Object.keys(initialState).length === 0 ? undefined : initialState };
}

/** An address of the static service: bech32 without chain prefix ("local1..."). */
function genesisAddress(text: string, name: string): Uint8Array {
  try {
    return parseBech32Address(text).shortId;
  } catch (error) {
    if (error instanceof EncodingError) {
      const hint = text.includes("-") ? ' (the static endpoint takes addresses without chain prefix: "local1...", not "X-local1...")' : "";
      throw invalidParams(`problem parsing ${name}: ${error.detail}${hint}`);
    }
    throw error;
  }
}
