/**
 * nativekit: tools for contracts that use native assets on the contract chain.
 *
 * - `encoding`: cb58, asset IDs, exchange-chain addresses, keys, precompile inputs/outputs;
 * - `engine`: the faithful contract-chain simulator, usable in-process as an EIP-1193 provider;
 * - `node`: the same engine served over HTTP on the real node's paths.
 */
export * from "./encoding";
export * from "./engine";
export { createLocalNode, CONTRACT_CHAIN_RPC_PATH, type LocalNode } from "./node/local-node";
export { startHttpNode, providerDispatch, type HttpNode, type HttpNodeOptions } from "./node/http-server";
export { wrap, unwrap, wrapTransaction, unwrapTransaction, wrappedAssetId } from "./flows/wrapped";
