/** The platform chain's state machine (no transport): UTXOs, multisig aliases, blocks, issueTx with the rules, a wallet for keystore users. */
export { PlatformChain, type PlatformChainOptions, type AcceptedBlock, type AcceptedPTx, type PUtxoPage } from "./chain";
export { PTxRejectedError, type PTxRule, PWalletError, type PWalletProblem, AliasNotFoundError } from "./errors";
export { PlatformWallet, type PBuiltTx } from "./wallet";
export { verifyPTx, verifyCredential, isNewAlias, type PVerificationContext } from "./verify";
export { traverseOwners, matchKeys, MAX_SIGNATURES, OwnersError, type AliasLookup } from "./owners";
export { pTxToJson, pBlockToJson } from "./json";
