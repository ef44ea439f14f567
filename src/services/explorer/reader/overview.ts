/** The network and its chains (`/v2`), from the context the explorer was started with. */
import type { ChainAlias, ExplorerContext } from "../context";
import type { ChainRecord, OverviewRecord } from "../records";

const VM_OF: Record<ChainAlias, string> = { X: "avm", P: "pvm", C: "evm" };

export function chainRecord(context: ExplorerContext, alias: ChainAlias): ChainRecord {
  return {
    chainID: context.chains[alias],
    chainAlias: alias,
    vm: VM_OF[alias],
    nativeAssetID: context.nativeAssetId,
    avaxAssetID: context.nativeAssetId,
    networkID: context.networkId,
  };
}

export function overview(context: ExplorerContext): OverviewRecord {
  const chains: Record<string, ChainRecord> = {};
  for (const alias of ["X", "P", "C"] as const) chains[context.chains[alias]] = chainRecord(context, alias);
  return { network_id: context.networkId, chains };
}
