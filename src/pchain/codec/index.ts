/** Binary codec of the platform chain: the reference node's base, import and export transactions, Camino's multisig alias transaction and credential, blocks, IDs and signatures. */
export { PTypeId, type PTypeIdName, pTypeIdName, describePTypeId } from "./type-ids";
export type {
  PBaseFields,
  PBaseTx,
  PImportTx,
  PExportTx,
  MultisigAlias,
  AliasWithNonce,
  MultisigAliasTx,
  PUnsignedTx,
  PSecpCredential,
  PMultisigCredential,
  PCredential,
  PSignedTx,
  PCommitBlock,
  PStandardBlock,
  PBlock,
} from "./types";
export {
  encodePUnsignedTx,
  encodePSignedTx,
  decodePSignedTx,
  decodePUnsignedTx,
  encodePBlock,
  decodePBlock,
  encodeAliasWithNonce,
  decodeAliasWithNonce,
} from "./codec";
export { type CredentialPlan, type SignedPTx, signPTx, type ParsedPTx, parsePTx, aliasIdFromTxId, genesisAliasId } from "./sign";
