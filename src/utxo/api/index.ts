/** What the UTXO chains' JSON-RPC APIs share: parameter readers, the getUTXOs page, the keystore users' key methods. */
export { type ByteEncoding, decodeBytes, decodeId, encodingParam, txEncodingParam, txFormatParam, txIdParam } from "./params";
export { type AddressedChain, MAX_PAGE_SIZE, MAX_UTXO_ADDRESSES, UtxoChainParams, type UtxoListingChain, type UtxoPageRequest, utxoPageAnswer } from "./chain-params";
export { createAddress, exportKey, importKey, type KeyedChain, type KeystoreKeysContext, listAddresses, MAX_KEYSTORE_ADDRESSES, userKeys } from "./keystore-keys";
export { type IssuingChain, issueBuilt, issueSignedTx, malformedTx } from "./issue";
