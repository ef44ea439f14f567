import { LocalNetwork, type LocalNetworkOptions } from "./local-network";
import { PATHS } from "../network/paths";
import type { NativeProvider } from "../engine";
import type { Dispatch } from "../rpc/types";

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
