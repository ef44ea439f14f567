/**
 * The paths one node serves its chains' JSON-RPC on, under both the chains' aliases and their
 * IDs, as the reference node does: the contract chain (rpc, and its atomic side at cvm and avax),
 * the exchange chain and its static API, the keystore and the platform chain.
 */
import { createKeystoreApi } from "../keystore/api";
import { createExchangeChainApi, createStaticXvmApi } from "../xchain/api";
import { createContractChainAtomicApi } from "../cchain";
import { createPlatformChainApi } from "../pchain";
import { PLATFORM_CHAIN_ID } from "../network/chains";
import type { NetworkIdentifiers } from "../network/constants";
import { chainPath, PATHS } from "../network/paths";
import type { NativeProvider } from "../engine";
import type { Dispatch, OpenSession } from "../rpc/types";
import type { OpenedChains } from "./node-chains";

/** Every chain's JSON-RPC path and its dispatch; `staged` when the chains commit through one staging of a data directory. */
export function chainRoutes(network: NetworkIdentifiers, chains: OpenedChains, staged: boolean): Record<string, Dispatch> {
  const { provider, keystore, exchange, platform, atomics } = chains;
  const atomic = createContractChainAtomicApi({ atomics, keystore });
  // One acceptance at a time across the chains when they share a staging: an exchange-chain
  // commit made while a contract-chain block is half-staged would write part of it.
  const oneAtATime = (dispatch: Dispatch): Dispatch => (staged ? (method, params) => provider.engine.serialize(() => dispatch(method, params)) : dispatch);
  const exchangeDispatch = oneAtATime(createExchangeChainApi(exchange, keystore).dispatch);
  const platformDispatch = oneAtATime(createPlatformChainApi(platform, keystore).dispatch);
  const staticDispatch = createStaticXvmApi().dispatch;
  // Connectionless (HTTP): eth_subscribe is refused there; WebSocket sessions get their own.
  const rpc = provider.dispatch;
  return {
    [PATHS.contractRpc]: rpc,
    [PATHS.contractCvm]: atomic.dispatch,
    [PATHS.contractAvax]: atomic.dispatch,
    [`/ext/bc/${network.cChainId}/rpc`]: rpc,
    [`/ext/bc/${network.cChainId}/cvm`]: atomic.dispatch,
    [`/ext/bc/${network.cChainId}/avax`]: atomic.dispatch,
    [PATHS.exchange]: exchangeDispatch,
    [`/ext/bc/${network.xChainId}`]: exchangeDispatch,
    [PATHS.exchangeStaticSeed]: staticDispatch,
    [PATHS.exchangeStaticReference]: staticDispatch,
    [PATHS.keystore]: createKeystoreApi(keystore).dispatch,
    [chainPath("P")]: platformDispatch,
    [chainPath(PLATFORM_CHAIN_ID)]: platformDispatch,
  };
}

/** The contract chain's WebSocket paths: its JSON-RPC plus eth_subscribe, one session per connection. */
export function contractChainWsRoutes(network: NetworkIdentifiers, provider: NativeProvider): Record<string, OpenSession> {
  return {
    [PATHS.contractWs]: provider.openSession,
    [`/ext/bc/${network.cChainId}/ws`]: provider.openSession,
  };
}
