import type { TypeId } from "./type-ids";

/*
 * Structures of the exchange chain (transactions, UTXOs and their parts) as the codec reads
 * and writes them (encode.ts, decode.ts). Amounts and locktimes (uint64) are bigints; every
 * other integer is a number.
 */

/** The only codec version the exchange chain uses. */
export const CODEC_VERSION = 0;
/** Transaction, asset, chain and UTXO IDs. */
export const ID_LENGTH = 32;
/** Address short IDs: ripemd160(sha256(compressed public key)). */
export const SHORT_ID_LENGTH = 20;
/** Recoverable secp256k1 signatures [r || s || v]. */
export const SIGNATURE_LENGTH = 65;
/** The reference codec refuses to decode (and encode) more than 256 KiB. */
export const MAX_CODEC_SIZE = 256 * 1024;
/** The reference node's mempool refuses transactions above 64 KiB. */
export const MAX_MEMPOOL_TX_SIZE = 64 * 1024;

// ---------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------

/** Who may spend an output: `threshold` of `addresses` (20-byte short IDs), after `locktime` (Unix seconds). */
export interface OutputOwners {
  locktime: bigint;
  threshold: number;
  addresses: Uint8Array[];
}

/** Signature indices into the owners' addresses of the spent output. */
export interface Input {
  signatureIndices: number[];
}

/** Fields of a secp256k1fx transfer output (without its type ID, as embedded in a mint operation). */
export interface Secp256k1TransferOutputBody extends OutputOwners {
  amount: bigint;
}

/** Fields of an nftfx transfer output (without its type ID, as embedded in a transfer operation). */
export interface NftTransferOutputBody extends OutputOwners {
  groupId: number;
  payload: Uint8Array;
}

export interface Secp256k1TransferOutput extends Secp256k1TransferOutputBody {
  typeId: typeof TypeId.Secp256k1TransferOutput;
}
export interface Secp256k1MintOutput extends OutputOwners {
  typeId: typeof TypeId.Secp256k1MintOutput;
}
export interface NftMintOutput extends OutputOwners {
  typeId: typeof TypeId.NftMintOutput;
  groupId: number;
}
export interface NftTransferOutput extends NftTransferOutputBody {
  typeId: typeof TypeId.NftTransferOutput;
}
export interface PropertyMintOutput extends OutputOwners {
  typeId: typeof TypeId.PropertyMintOutput;
}
export interface PropertyOwnedOutput extends OutputOwners {
  typeId: typeof TypeId.PropertyOwnedOutput;
}

/** Any output a UTXO or an initial state can hold. */
export type Output =
  | Secp256k1TransferOutput
  | Secp256k1MintOutput
  | NftMintOutput
  | NftTransferOutput
  | PropertyMintOutput
  | PropertyOwnedOutput;

export interface Secp256k1TransferInput extends Input {
  typeId: typeof TypeId.Secp256k1TransferInput;
  amount: bigint;
}

export interface Secp256k1MintOperation {
  typeId: typeof TypeId.Secp256k1MintOperation;
  mintInput: Input;
  mintOutput: OutputOwners;
  transferOutput: Secp256k1TransferOutputBody;
}
export interface NftMintOperation {
  typeId: typeof TypeId.NftMintOperation;
  mintInput: Input;
  groupId: number;
  payload: Uint8Array;
  outputs: OutputOwners[];
}
export interface NftTransferOperation {
  typeId: typeof TypeId.NftTransferOperation;
  input: Input;
  output: NftTransferOutputBody;
}
export interface PropertyMintOperation {
  typeId: typeof TypeId.PropertyMintOperation;
  mintInput: Input;
  mintOutput: OutputOwners;
  ownedOutput: OutputOwners;
}
export interface PropertyBurnOperation extends Input {
  typeId: typeof TypeId.PropertyBurnOperation;
}

export type FxOperation =
  | Secp256k1MintOperation
  | NftMintOperation
  | NftTransferOperation
  | PropertyMintOperation
  | PropertyBurnOperation;

export type CredentialTypeId =
  | typeof TypeId.Secp256k1Credential
  | typeof TypeId.NftCredential
  | typeof TypeId.PropertyCredential;

/** Signatures (65 bytes each) matching, in order, the signature indices of one input or operation. */
export interface Credential {
  typeId: CredentialTypeId;
  signatures: Uint8Array[];
}

/** An output of a transaction: asset ID + a secp256k1fx transfer output. */
export interface TransferableOutput {
  assetId: Uint8Array;
  output: Secp256k1TransferOutput;
}

/** A reference to a UTXO: the transaction that produced it and the output's index. */
export interface UtxoId {
  txId: Uint8Array;
  outputIndex: number;
}

/** An input of a transaction: the UTXO spent, its asset ID and a secp256k1fx transfer input. */
export interface TransferableInput extends UtxoId {
  assetId: Uint8Array;
  input: Secp256k1TransferInput;
}

/** An operation of an OperationTx: an fx operation on UTXOs of one asset. */
export interface Operation {
  assetId: Uint8Array;
  utxoIds: UtxoId[];
  operation: FxOperation;
}

/** Outputs created for a new asset under one feature extension (0 secp256k1fx, 1 nftfx, 2 propertyfx). */
export interface InitialState {
  fxIndex: number;
  outputs: Output[];
}

/** Fields every exchange-chain transaction starts with. */
export interface BaseTxFields {
  networkId: number;
  blockchainId: Uint8Array;
  outputs: TransferableOutput[];
  inputs: TransferableInput[];
  memo: Uint8Array;
}

export interface BaseTx extends BaseTxFields {
  typeId: typeof TypeId.BaseTx;
}
export interface CreateAssetTx extends BaseTxFields {
  typeId: typeof TypeId.CreateAssetTx;
  name: string;
  symbol: string;
  denomination: number;
  initialStates: InitialState[];
}
export interface OperationTx extends BaseTxFields {
  typeId: typeof TypeId.OperationTx;
  operations: Operation[];
}
export interface ImportTx extends BaseTxFields {
  typeId: typeof TypeId.ImportTx;
  sourceChain: Uint8Array;
  importedInputs: TransferableInput[];
}
export interface ExportTx extends BaseTxFields {
  typeId: typeof TypeId.ExportTx;
  destinationChain: Uint8Array;
  exportedOutputs: TransferableOutput[];
}

export type UnsignedTx = BaseTx | CreateAssetTx | OperationTx | ImportTx | ExportTx;

/** A transaction with one credential per input (and per operation / imported input). */
export interface SignedTx {
  unsignedTx: UnsignedTx;
  credentials: Credential[];
}

/** An unspent output as the node stores and serves it. */
export interface Utxo extends UtxoId {
  assetId: Uint8Array;
  output: Output;
}
