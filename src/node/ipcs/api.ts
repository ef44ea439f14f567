import type { ChainDirectory } from "../../network/chains";
import { RpcApi, serverError, type NamedParams } from "../../rpc";
import type { ChainIpcs } from "./chain-ipcs";

/**
 * The IPC API of the node (path /ext/ipcs; avalanchego `api/ipcs/service.go`, present up to
 * v1.11): `ipcs.publishBlockchain{blockchainID}` -> `{consensusURL, decisionsURL}`,
 * `ipcs.unpublishBlockchain{blockchainID}` -> `{success: true}` (also for a chain not
 * published), `ipcs.getPublishedBlockchains` -> `{chains}`. A chain is named by its cb58 ID or an
 * alias (X, avm, C, evm, P, platform); anything else is the node's alias error
 * "there is no ID with alias: <name>".
 */
export function createIpcsApi(ipcs: ChainIpcs, chains: ChainDirectory): RpcApi {
  const chainOf = (p: NamedParams) => {
    const name = p.stringOr("blockchainID", "");
    const chain = chains.lookup(name);
    if (chain === undefined) throw serverError(`there is no ID with alias: ${name}`);
    return chain;
  };
  return new RpcApi({ namespaces: ["ipcs"] })
    .named("publishBlockchain", async (p) => {
      const chain = chainOf(p);
      try {
        const { consensusURL, decisionsURL } = await ipcs.publish(chain);
        return { consensusURL, decisionsURL };
      } catch (error) {
        throw serverError(`couldn't publish ${chain.id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    })
    .named("unpublishBlockchain", async (p) => {
      await ipcs.unpublish(chainOf(p));
      return { success: true };
    })
    .named("getPublishedBlockchains", () => ({ chains: ipcs.publishedChains() }));
}
