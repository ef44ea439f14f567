/**
 * What the explorer knows of the network it indexes, read from the node at start (info API:
 * network ID, the chains' IDs; the exchange chain: the native asset) and kept in the `chains`
 * table so the API can answer without the node. Every part of the explorer (ingest, API, pages)
 * receives it rather than asking the node again.
 */
export interface ExplorerContext {
  readonly networkId: number;
  /** The bech32 human-readable part of the network's addresses (`local`, `fuji`, `avax`, ...). */
  readonly hrp: string;
  /** The native asset's ID (cb58). */
  readonly nativeAssetId: string;
  /** The chains' IDs (cb58), by alias. */
  readonly chains: { readonly X: string; readonly P: string; readonly C: string };
}

export type ChainAlias = keyof ExplorerContext["chains"];

/** The alias of a chain ID of this network, or undefined for another chain. */
export function aliasOfChain(context: ExplorerContext, chainId: string): ChainAlias | undefined {
  for (const alias of ["X", "P", "C"] as const) if (context.chains[alias] === chainId) return alias;
  return undefined;
}
