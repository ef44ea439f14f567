import { decodeCb58, encodeCb58 } from "../encoding";
import type { NetworkIdentifiers } from "./constants";

/** The platform chain's ID on every network: the empty (all-zero) ID. */
export const PLATFORM_CHAIN_ID = "11111111111111111111111111111111LpoYY";

/** The three chains of the primary network, by their primary alias. */
export type ChainAlias = "X" | "C" | "P";

/**
 * The aliases of each chain: the reference node's (X/avm, C/evm, P/platform) and the seed's
 * namespaces (xvm, cvm). A chain is also named by its own cb58 ID.
 */
export const CHAIN_ALIASES: Readonly<Record<ChainAlias, readonly string[]>> = {
  X: ["X", "avm", "xvm"],
  C: ["C", "evm", "cvm"],
  P: ["P", "platform"],
};

export interface ChainEntry {
  alias: ChainAlias;
  /** cb58 blockchain ID. */
  id: string;
  /** The 32 bytes of the ID. */
  bytes: Uint8Array;
}

/**
 * The chains of a network and the names that reach them: what `info.getBlockchainID`, every
 * `sourceChain`/`destinationChain` parameter and every chain-prefixed address resolve through.
 */
export class ChainDirectory {
  private readonly byName = new Map<string, ChainEntry>();
  private readonly byHex = new Map<string, ChainEntry>();
  readonly chains: readonly ChainEntry[];

  constructor(network: NetworkIdentifiers) {
    const ids: Record<ChainAlias, string> = { X: network.xChainId, C: network.cChainId, P: PLATFORM_CHAIN_ID };
    this.chains = (Object.keys(ids) as ChainAlias[]).map((alias) => ({ alias, id: ids[alias], bytes: decodeCb58(ids[alias]) }));
    for (const entry of this.chains) {
      this.byName.set(entry.id, entry);
      for (const name of CHAIN_ALIASES[entry.alias]) this.byName.set(name, entry);
      this.byHex.set(Buffer.from(entry.bytes).toString("hex"), entry);
    }
  }

  /** The chain an alias ("X", "avm", "C", "P", ...) or cb58 ID names, if any. */
  lookup(aliasOrId: string): ChainEntry | undefined {
    return this.byName.get(aliasOrId);
  }

  /** The chain with these ID bytes, if it is one of the network's. */
  byId(id: Uint8Array): ChainEntry | undefined {
    return this.byHex.get(Buffer.from(id).toString("hex"));
  }

  /** The primary alias of a chain ID ("X", "C", "P"), or its cb58 ID if it is not the network's. */
  aliasOf(id: Uint8Array): string {
    return this.byId(id)?.alias ?? encodeCb58(id);
  }
}
