/** What the exchange chain answers with: assets, accepted transactions, pages of UTXOs. */
import { type CreateAssetTx, FxIndex, type SignedTx, TypeId } from "../../utxo/codec";

export type { UtxoPage } from "../../utxo/chain";

export type AssetType = "fixedCap" | "variableCap" | "nonFungible" | "property";

export interface AssetInfo {
  id: Uint8Array;
  /** Primary alias (genesis assets only, e.g. "AVAX"). */
  alias: string | undefined;
  name: string;
  symbol: string;
  denomination: number;
  /**
   * nonFungible: created with an nftfx state; variableCap: created with secp256k1fx mint
   * outputs; property: propertyfx only; fixedCap otherwise.
   */
  type: AssetType;
  /** Feature extensions (0 secp256k1fx, 1 nftfx, 2 propertyfx) of the asset's initial states. */
  fxIndices: ReadonlySet<number>;
  /** The transaction that created it. */
  createTx: CreateAssetTx;
}

export interface AcceptedTx {
  id: Uint8Array;
  tx: SignedTx;
  bytes: Uint8Array;
  /** Position in acceptance order (genesis transactions first). */
  index: number;
  /** Acceptance time, Unix milliseconds. */
  acceptedAt: number;
  /** True for the genesis transactions. */
  genesis: boolean;
}

/** The asset a CreateAssetTx with ID `id` makes (its alias, a genesis asset's, is set apart). */
export function assetInfoOf(id: Uint8Array, tx: CreateAssetTx): AssetInfo {
  return {
    id,
    alias: undefined,
    name: tx.name,
    symbol: tx.symbol,
    denomination: tx.denomination,
    type: classify(tx),
    fxIndices: new Set(tx.initialStates.map((s) => s.fxIndex)),
    createTx: tx,
  };
}

/** The kind of asset a creation makes (see AssetInfo.type). */
export function classify(tx: CreateAssetTx): AssetType {
  const fxs = new Set(tx.initialStates.map((s) => s.fxIndex));
  if (fxs.has(FxIndex.Nft)) return "nonFungible";
  const secp = tx.initialStates.find((s) => s.fxIndex === FxIndex.Secp256k1);
  if (secp !== undefined && secp.outputs.some((o) => o.typeId === TypeId.Secp256k1MintOutput)) return "variableCap";
  if (secp === undefined && fxs.has(FxIndex.Property)) return "property";
  return "fixedCap";
}
