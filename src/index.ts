/**
 * nativekit: tools for contracts that use native assets on the contract chain.
 *
 * - `encoding`: cb58, asset IDs, exchange-chain addresses, keys, precompile inputs/outputs;
 * - `engine`: the faithful contract-chain simulator, usable in-process as an EIP-1193 provider;
 * - `NodeChains`: one node's chains, atomic memory, keystore and APIs, served by `startNode` on
 *   the real node's paths;
 * - `clients`: typed clients for the node APIs (simulator or real node);
 * - flows: wrap/unwrap and cross-chain transfers on the public API.
 */
export * from "./encoding";
export * from "./engine";
export { createLocalNode, CONTRACT_CHAIN_RPC_PATH, type LocalNode, LocalNetwork, type LocalNetworkOptions } from "./node/package-aliases";
export { startHttpNode, providerDispatch, type HttpNode, type HttpNodeOptions } from "./node/http-server";
export { NodeChains, type NodeChainsOptions } from "./node/node-chains";
export { startNode, NodeStartError, type StartNodeOptions, type StartedNode, type ServedNode } from "./node/start-node";
export { PATHS } from "./network/paths";
export { LOCAL_NETWORK, LOCAL_TEST_KEY, type NetworkIdentifiers } from "./network/constants";
export { wrap, unwrap, wrapTransaction, unwrapTransaction, wrappedAssetId } from "./flows/wrapped";
export { formatAssetAmount } from "./flows/amounts";
export { exchangeToContract, contractToExchange, DEFAULT_IMPORT_FEE_TOP_UP, type CrossChainContext, type CrossChainResult } from "./flows/cross-chain";
export { createNodeClient, type NodeClient, type NodeClientOptions } from "./clients";
/** Every client, error class and type of the node APIs. */
export * as clients from "./clients";
/** The exchange chain: codec, state, wallet and API. */
export * as xchain from "./xchain";
/** The contract chain's atomic (cross-chain) transactions: codec, rules and API. */
export * as cchain from "./cchain";
