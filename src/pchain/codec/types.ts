import type { BaseTxFields, OutputOwners, TransferableInput, TransferableOutput } from "../../utxo/codec";
import type { PTypeId } from "./type-ids";

/*
 * Structures of the platform chain as its codec reads and writes them. Outputs, inputs and
 * their owners are the secp256k1fx types the exchange chain also uses (same type IDs, same
 * bytes), so they are the exchange chain's structures.
 */

/** Fields every platform-chain transaction starts with (avax.BaseTx). */
/** The base fields, as on every UTXO chain. */
export type PBaseFields = BaseTxFields;

/** A plain transfer: the reference node's BaseTx (34) or Camino's (8200); same fields. */
export interface PBaseTx extends PBaseFields {
  typeId: typeof PTypeId.BaseTx | typeof PTypeId.CaminoBaseTx;
}

export interface PImportTx extends PBaseFields {
  typeId: typeof PTypeId.ImportTx;
  sourceChain: Uint8Array;
  importedInputs: TransferableInput[];
}

export interface PExportTx extends PBaseFields {
  typeId: typeof PTypeId.ExportTx;
  destinationChain: Uint8Array;
  exportedOutputs: TransferableOutput[];
}

/** A multisig alias (Camino multisig.Alias): an address standing for `threshold` of `owners`. */
export interface MultisigAlias {
  /** 20-byte alias address; all zeros in a transaction that creates a new alias. */
  id: Uint8Array;
  /** At most 256 bytes. */
  memo: Uint8Array;
  owners: OutputOwners;
}

/** An alias as the chain keeps it: `nonce` counts the updates of its owners. */
export interface AliasWithNonce {
  alias: MultisigAlias;
  nonce: bigint;
}

/**
 * Camino's MultisigAliasTx: creates an alias (empty ID; the new ID is ripemd160(txID)) or
 * replaces an alias's memo and owners. `auth` holds the signature indices of the update's
 * authorising credential (the last one), ignored for a new alias.
 */
export interface MultisigAliasTx extends PBaseFields {
  typeId: typeof PTypeId.MultisigAliasTx;
  alias: MultisigAlias;
  auth: { signatureIndices: number[] };
}

export type PUnsignedTx = PBaseTx | PImportTx | PExportTx | MultisigAliasTx;

export interface PSecpCredential {
  typeId: typeof PTypeId.Secp256k1Credential;
  signatures: Uint8Array[];
}

/** Camino's MultisigCredential: signatures plus the owner-traversal indices they sign for (overriding the input's). */
export interface PMultisigCredential {
  typeId: typeof PTypeId.MultisigCredential;
  signatures: Uint8Array[];
  sigIdxs: number[];
}

export type PCredential = PSecpCredential | PMultisigCredential;

export interface PSignedTx {
  unsignedTx: PUnsignedTx;
  credentials: PCredential[];
}

/** The block that holds the genesis state (the reference node's genesis block is an Apricot commit block). */
export interface PCommitBlock {
  typeId: typeof PTypeId.ApricotCommitBlock;
  parentId: Uint8Array;
  height: bigint;
}

/** A Banff standard block: time (Unix seconds), parent, height, transactions. */
export interface PStandardBlock {
  typeId: typeof PTypeId.BanffStandardBlock;
  time: bigint;
  parentId: Uint8Array;
  height: bigint;
  txs: PSignedTx[];
}

export type PBlock = PCommitBlock | PStandardBlock;
