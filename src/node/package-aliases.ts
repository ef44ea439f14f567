/**
 * Names the package exported before a node's start had one way (`startNode`) and its chains a
 * name saying what they are (`NodeChains`); kept so code written against them still runs.
 */
import type { NativeProvider } from "../engine";
import { PATHS } from "../network/paths";
import type { Dispatch } from "../rpc/types";
import { NodeChains, type NodeChainsOptions } from "./node-chains";

/** @deprecated The name of {@link NodeChains} before: one node's chains and APIs (not a network). */
export const LocalNetwork = NodeChains;
/** @deprecated See {@link NodeChains}. */
export type LocalNetwork = NodeChains;
/** @deprecated See {@link NodeChainsOptions}. */
export type LocalNetworkOptions = NodeChainsOptions;

/** The path of the contract chain's standard JSON-RPC. */
export const CONTRACT_CHAIN_RPC_PATH = PATHS.contractRpc;

/** @deprecated What `createLocalNode` answers: the chains, with their provider and routes beside them. */
export interface LocalNode {
  provider: NativeProvider;
  network: NodeChains;
  routes: Record<string, Dispatch>;
}

/** @deprecated Use `NodeChains.create`, or `startNode` to serve them. */
export async function createLocalNode(options: NodeChainsOptions = {}): Promise<LocalNode> {
  const network = await NodeChains.create(options);
  return { provider: network.provider, network, routes: network.routes };
}
