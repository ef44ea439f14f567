/**
 * The UTXO-chain core the exchange chain, the platform chain and the contract chain's atomic
 * side compose: the shared codec (./codec), the UTXO set, the chain base (addresses, chain
 * lookup, the issue/accept/forward cycle, acceptance listeners, shared-memory effects), the JSON
 * shapes, and the API pieces (./api: parameter readers, getUTXOs, issueTx, keystore keys).
 */
export { type CommittedRecords, type CommonRejection, replaceEntries, UtxoChain, type UtxoChainIdentity, type UtxoPage, type UtxoPageOptions } from "./chain";
export { IssueForwarding } from "./forwarding";
export { baseTxToJson, FX_IDS, fxIdOfType, type Json, type JsonContext, outputToJson, ownersToJson, transferableInputToJson, transferableOutputToJson } from "./json";
export { dedupe, ownersOf, type StoredUtxo, storeUtxo, UtxoSet } from "./utxo-set";
