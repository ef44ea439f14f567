/** The exchange chain (the reference node's X-Chain): codec, state and wallet, genesis, APIs. */
export * from "./codec";
export * from "./vm";
export * from "./genesis";
export { createExchangeChainDispatch, createStaticXvmDispatch, EXCHANGE_CHAIN_METHODS } from "./api";
