/**
 * Type IDs of the exchange chain's codec. The reference node's linear codec numbers types in
 * the order they are registered: the five transaction types first, then the types of each
 * feature extension ("fx") in the chain's fx order (secp256k1fx, nftfx, propertyfx), five
 * types each.
 */
export const TypeId = {
  BaseTx: 0,
  CreateAssetTx: 1,
  OperationTx: 2,
  ImportTx: 3,
  ExportTx: 4,
  Secp256k1TransferInput: 5,
  Secp256k1MintOutput: 6,
  Secp256k1TransferOutput: 7,
  Secp256k1MintOperation: 8,
  Secp256k1Credential: 9,
  NftMintOutput: 10,
  NftTransferOutput: 11,
  NftMintOperation: 12,
  NftTransferOperation: 13,
  NftCredential: 14,
  PropertyMintOutput: 15,
  PropertyOwnedOutput: 16,
  PropertyMintOperation: 17,
  PropertyBurnOperation: 18,
  PropertyCredential: 19,
} as const;

export type TypeIdName = keyof typeof TypeId;

/** The name a chain's table of type IDs gives `typeId` (undefined when it names none). */
export function typeIdNameIn<Name extends string>(table: Readonly<Record<Name, number>>, typeId: number): Name | undefined {
  for (const [name, id] of Object.entries(table)) if (id === typeId) return name as Name;
  return undefined;
}

/** Name of a type ID (undefined for IDs the chain does not register). */
export function typeIdName(typeId: number): TypeIdName | undefined {
  return typeIdNameIn(TypeId, typeId);
}

/** Index of each feature extension in the chain's fx list (used by InitialState.fxIndex). */
export const FxIndex = {
  Secp256k1: 0,
  Nft: 1,
  Property: 2,
} as const;

export type FxIndexValue = (typeof FxIndex)[keyof typeof FxIndex];

/** Number of feature extensions of the exchange chain (InitialState.fxIndex must be below it). */
export const NUM_FXS = 3;

/** Feature extension that registered a type ID (undefined for transaction types and unknown IDs). */
export function fxIndexOfTypeId(typeId: number): FxIndexValue | undefined {
  if (typeId >= 5 && typeId <= 9) return FxIndex.Secp256k1;
  if (typeId >= 10 && typeId <= 14) return FxIndex.Nft;
  if (typeId >= 15 && typeId <= 19) return FxIndex.Property;
  return undefined;
}

// ---------------------------------------------------------------------------------------
// Allowed type IDs per position (the Go interface each field is declared with), shared by
// the encoder and the decoder
// ---------------------------------------------------------------------------------------

export const UNSIGNED_TX_TYPES = [TypeId.BaseTx, TypeId.CreateAssetTx, TypeId.OperationTx, TypeId.ImportTx, TypeId.ExportTx] as const;
export const STATE_OUTPUT_TYPES = [
  TypeId.Secp256k1TransferOutput,
  TypeId.Secp256k1MintOutput,
  TypeId.NftMintOutput,
  TypeId.NftTransferOutput,
  TypeId.PropertyMintOutput,
  TypeId.PropertyOwnedOutput,
] as const;
export const TRANSFERABLE_OUTPUT_TYPES = [TypeId.Secp256k1TransferOutput] as const;
export const TRANSFERABLE_INPUT_TYPES = [TypeId.Secp256k1TransferInput] as const;
export const OPERATION_TYPES = [
  TypeId.Secp256k1MintOperation,
  TypeId.NftMintOperation,
  TypeId.NftTransferOperation,
  TypeId.PropertyMintOperation,
  TypeId.PropertyBurnOperation,
] as const;
export const CREDENTIAL_TYPES = [TypeId.Secp256k1Credential, TypeId.NftCredential, TypeId.PropertyCredential] as const;

/** The allowed type IDs with their names, for messages: "7 (Secp256k1TransferOutput), ...". */
export function listTypes(allowed: readonly number[]): string {
  return allowed.map((id) => `${id} (${typeIdName(id)})`).join(", ");
}

/** A type ID as messages name it: "type ID 7 (Secp256k1TransferOutput)" or "unknown type ID 99". */
export function describeTypeId(typeId: number): string {
  const name = typeIdName(typeId);
  return name === undefined ? `unknown type ID ${typeId}` : `type ID ${typeId} (${name})`;
}
