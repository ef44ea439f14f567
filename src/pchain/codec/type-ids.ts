import { typeIdNameIn } from "../../utxo/codec";

/**
 * Type IDs of the platform chain's codec. The reference node (avalanchego
 * vms/platformvm/txs/codec.go) registers, in order: five Apricot block types (0-4), the
 * secp256k1fx types at the same IDs as the exchange chain (so UTXOs in shared memory decode
 * on both chains), the Apricot and Banff transaction types, then the four Banff block types
 * (29-32); Durango adds BaseTx at 34. Camino (caminogo, same file) registers its own types
 * from 8192 on, among them its BaseTx (8200), MultisigAliasTx (8201), MultisigCredential
 * (8204) and AliasWithNonce (8205).
 */
export const PTypeId = {
  ApricotCommitBlock: 2,
  ApricotStandardBlock: 3,
  Secp256k1TransferInput: 5,
  Secp256k1TransferOutput: 7,
  Secp256k1Credential: 9,
  Secp256k1Input: 10,
  Secp256k1OutputOwners: 11,
  ImportTx: 17,
  ExportTx: 18,
  BanffStandardBlock: 32,
  BaseTx: 34,
  CaminoBaseTx: 8200,
  MultisigAliasTx: 8201,
  MultisigCredential: 8204,
  AliasWithNonce: 8205,
} as const;

export type PTypeIdName = keyof typeof PTypeId;

/** Name of a type ID this simulator reads (undefined otherwise). */
export function pTypeIdName(typeId: number): PTypeIdName | undefined {
  return typeIdNameIn(PTypeId, typeId);
}

/** "type ID 17 (ImportTx)" or "type ID 12 (not supported by this simulator)". */
export function describePTypeId(typeId: number): string {
  const name = pTypeIdName(typeId);
  return `type ID ${typeId} (${name ?? "not supported by this simulator"})`;
}

export const P_TX_TYPES = [PTypeId.BaseTx, PTypeId.CaminoBaseTx, PTypeId.ImportTx, PTypeId.ExportTx, PTypeId.MultisigAliasTx] as const;
export const P_CREDENTIAL_TYPES = [PTypeId.Secp256k1Credential, PTypeId.MultisigCredential] as const;
export const P_BLOCK_TYPES = [PTypeId.ApricotCommitBlock, PTypeId.BanffStandardBlock] as const;
