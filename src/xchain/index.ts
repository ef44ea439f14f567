/** The exchange chain (the reference node's X-Chain): codec, state and wallet, genesis, APIs. */
export * from "../utxo/codec";
export * from "./vm";
export * from "./genesis";
export { createExchangeChainApi, createStaticXvmApi, MAX_KEYSTORE_ADDRESSES, MAX_PAGE_SIZE, MAX_UTXO_ADDRESSES } from "./api";
