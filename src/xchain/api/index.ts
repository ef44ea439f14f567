/** The exchange chain's JSON-RPC APIs on the rpc toolkit: the chain's service (/ext/bc/X) and the VM's static service (/ext/vm/xvm). */
import type { Keystore } from "../../keystore/keystore";
import { RpcApi } from "../../rpc";
import type { ExchangeChain } from "../vm/chain";
import { createExchangeQueryApi } from "./queries";
import { createExchangeWalletApi } from "./wallet";

/*
 * As the reference node serves them (avalanchego vms/avm/service.go and static_service.go at
 * the last version with the keystore APIs), every method under both names xvm.<m> and avm.<m>.
 * Parameters are named (an object); integers may be JSON numbers or decimal strings; results
 * use the node's field names with uint64 values as decimal strings. Errors: -32602 for a
 * missing or malformed parameter (naming it), -32000 for what the chain or the keystore
 * refuses, with the node's wording (and, for rejected transactions, data {rule, nodeMessage}),
 * -32601 for an unknown method.
 */

/**
 * The exchange chain's JSON-RPC service (path /ext/bc/X): the query methods and the methods of
 * keystore users, who authenticate against `keystore` and use their keys for this chain.
 * Mount its `.dispatch`; `.methods` lists what it serves.
 */
export function createExchangeChainApi(chain: ExchangeChain, keystore: Keystore): RpcApi {
  return new RpcApi().include(createExchangeQueryApi(chain)).include(createExchangeWalletApi(chain, keystore));
}

export { createExchangeQueryApi, EXCHANGE_CHAIN_NAMESPACES, MAX_PAGE_SIZE, MAX_UTXO_ADDRESSES } from "./queries";
export { createExchangeWalletApi, MAX_KEYSTORE_ADDRESSES } from "./wallet";
export { createStaticXvmApi } from "./static";
export { queryErrors, walletErrors, txRejected, malformedTx } from "./errors";
export { ExchangeChainParams, type MinterSet } from "./params";
