import { createNativeProvider, type EngineOptions, type NativeProvider } from "../engine";
import { providerDispatch, type Dispatch } from "./http-server";

/** The paths the local node serves, and what answers each. */
export const CONTRACT_CHAIN_RPC_PATH = "/ext/bc/C/rpc";

export interface LocalNode {
  provider: NativeProvider;
  routes: Record<string, Dispatch>;
}

/** Builds the simulator behind the HTTP node: the engine plus its routes. */
export async function createLocalNode(options: EngineOptions = {}): Promise<LocalNode> {
  const provider = await createNativeProvider(options);
  return { provider, routes: { [CONTRACT_CHAIN_RPC_PATH]: providerDispatch(provider) } };
}
