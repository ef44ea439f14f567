/**
 * The protocol layer: one JSON-RPC toolkit for every API the node serves. Framing (batches,
 * notifications, error objects), the error type and codes, the EIP-1193 and `Dispatch` types,
 * the method table (`RpcApi`) and the named-parameter reader of the node-style APIs.
 */
export * from "./errors";
export * from "./types";
export * from "./framing";
export { RpcApi, positionalParams, type Arity, type ErrorMapper, type NamedMethod, type PositionalMethod, type RpcApiOptions } from "./api";
export { NamedParams, describeValue, parseUint } from "./named-params";
