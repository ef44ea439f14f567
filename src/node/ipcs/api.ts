import type { ChainDirectory, ChainEntry } from "../../network/chains";
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
  return new RpcApi().namedMethods<IpcsContext>({ ipcs, chains }, {
    "ipcs.publishBlockchain": publishBlockchain,
    "ipcs.unpublishBlockchain": unpublishBlockchain,
    "ipcs.getPublishedBlockchains": getPublishedBlockchains,
  });
}

/** What the IPC methods use: the node's chain sockets, and its chains by alias. */
interface IpcsContext {
  readonly ipcs: ChainIpcs;
  readonly chains: ChainDirectory;
}

/** {blockchainID}: the chain's sockets, opened if they were not. */
async function publishBlockchain({ ipcs, chains }: IpcsContext, params: NamedParams): Promise<{ consensusURL: string; decisionsURL: string }> {
  const chain = chainOf(chains, params);
  try {
    const { consensusURL, decisionsURL } = await ipcs.publish(chain);
    return { consensusURL, decisionsURL };
  } catch (error) {
    throw serverError(`couldn't publish ${chain.id}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** {blockchainID}: the chain's sockets closed. */
async function unpublishBlockchain({ ipcs, chains }: IpcsContext, params: NamedParams): Promise<{ success: true }> {
  await ipcs.unpublish(chainOf(chains, params));
  return { success: true };
}

function getPublishedBlockchains({ ipcs }: IpcsContext): { chains: string[] } {
  return { chains: ipcs.publishedChains() };
}

/** The chain `blockchainID` names (an ID or an alias). */
function chainOf(chains: ChainDirectory, params: NamedParams): ChainEntry {
  const name = params.stringOr("blockchainID", "");
  const chain = chains.lookup(name);
  if (chain === undefined) throw serverError(`there is no ID with alias: ${name}`);
  return chain;
}
