import { LocalNetwork, PATHS, type LocalNetworkOptions } from "../network/local-network";
import type { NativeProvider } from "../engine";
import type { Dispatch } from "./http-server";

/** The path of the contract chain's standard JSON-RPC. */
export const CONTRACT_CHAIN_RPC_PATH = PATHS.contractRpc;

export interface LocalNode {
  provider: NativeProvider;
  network: LocalNetwork;
  routes: Record<string, Dispatch>;
}

/** Builds the simulator behind the HTTP node: both chains, atomic memory, keystore, info. */
export async function createLocalNode(options: LocalNetworkOptions = {}): Promise<LocalNode> {
  const network = await LocalNetwork.create(options);
  return { provider: network.provider, network, routes: network.routes };
}
