/** The exchange chain's state machine (no transport): UTXOs, assets, issueTx with the node's rules, the address index, a wallet for keystore users. */
export {
  ExchangeChain,
  type ExchangeChainOptions,
  type AssetInfo,
  type AssetType,
  type AcceptedTx,
  type UtxoPage,
} from "./chain";
export { PLATFORM_CHAIN_ID } from "../../network/chains";
export { TxRejectedError, type TxRule, type SemanticRule, WalletError, type WalletProblem, ExchangeStoreError } from "./errors";
export { ExchangeWallet, Keychain, type SpendOptions, type BuiltTx } from "./wallet";
export { txToJson, outputToJson, FX_IDS, type JsonContext } from "./json";
export { verifySemantics, type VerificationContext } from "./verify";
export { UtxoSet, type StoredUtxo, storeUtxo, ownersOf } from "../../utxo/utxo-set";
export { AddressTxIndex } from "./address-index";
