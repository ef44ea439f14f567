/**
 * How much of each resource a platform-chain transaction uses (its complexity), computed from
 * its structure as the reference node does since Etna (avalanchego vms/platformvm/txs/fee
 * complexity.go; avalanchejs 5's getTxComplexity gives the same numbers):
 *
 * - every transaction: the codec version, type ID, network ID, chain ID, the lengths of its
 *   outputs, inputs, memo and credentials, in bandwidth (58 bytes);
 * - each output: asset ID, type ID, amount, locktime, threshold, address count (60 bytes) and
 *   20 per address; one write;
 * - each input (and imported input): UTXO ID, asset ID, type IDs of the input and of its
 *   credential, amount, the counts of indices and signatures (92 bytes), then 69 bytes (index
 *   and signature) and 200 µs of compute per signature, counted from the input's signature
 *   indices; one read and one write;
 * - the memo's bytes; an import adds the source chain and its inputs' count (36 bytes) and its
 *   imported inputs; an export the destination chain and its outputs' count (36) and its
 *   exported outputs.
 *
 * Camino's MultisigAliasTx has no reference complexity; the simulator counts it as the
 * reference counts an owner change (TransferSubnetOwnershipTx): its base, the alias's bytes
 * (ID, memo, owners with their type ID), the authorisation with its type ID and signatures (and
 * its credential's type ID on an update), one read (the alias) and one write. Camino's
 * BaseTx counts as the reference's BaseTx.
 */
import type { TransferableInput, TransferableOutput } from "../../utxo/codec";
import { type MultisigAliasTx, type PBaseFields, PTypeId, type PUnsignedTx } from "../codec";
import { addDimensions, type Dimensions, dimensions } from "./dimensions";

const ID_LEN = 32n;
const SHORT_ID_LEN = 20n;
const INT_LEN = 4n;
const LONG_LEN = 8n;
const CODEC_VERSION_LEN = 2n;
const SIGNATURE_LEN = 65n;

const OUTPUT_BANDWIDTH = ID_LEN + INT_LEN; // asset ID, output type ID
const OWNERS_BANDWIDTH = LONG_LEN + INT_LEN + INT_LEN; // locktime, threshold, address count
const TRANSFER_OUTPUT_BANDWIDTH = LONG_LEN + OWNERS_BANDWIDTH; // amount, owners
const INPUT_BANDWIDTH = ID_LEN + INT_LEN + ID_LEN + INT_LEN + INT_LEN; // tx ID, output index, asset ID, input type ID, credential type ID
const SECP_INPUT_BANDWIDTH = INT_LEN + INT_LEN; // index count, signature count
const TRANSFER_INPUT_BANDWIDTH = LONG_LEN + SECP_INPUT_BANDWIDTH; // amount, indices
const SIGNATURE_BANDWIDTH = INT_LEN + SIGNATURE_LEN; // index, signature
/** secp256k1 signature verification, about 200 µs. */
const SIGNATURE_COMPUTE = 200n;

/** What every transaction's common fields cost before its outputs, inputs and memo. */
export const INTRINSIC_BASE_TX_COMPLEXITY: Dimensions = dimensions({
  bandwidth: CODEC_VERSION_LEN + INT_LEN + INT_LEN + ID_LEN + INT_LEN + INT_LEN + INT_LEN + INT_LEN,
});
export const INTRINSIC_IMPORT_TX_COMPLEXITY: Dimensions = dimensions({ bandwidth: INTRINSIC_BASE_TX_COMPLEXITY.bandwidth + ID_LEN + INT_LEN });
export const INTRINSIC_EXPORT_TX_COMPLEXITY: Dimensions = dimensions({ bandwidth: INTRINSIC_BASE_TX_COMPLEXITY.bandwidth + ID_LEN + INT_LEN });
/** The simulator's own: an alias change as an owner change (one read, one write). */
export const INTRINSIC_MULTISIG_ALIAS_TX_COMPLEXITY: Dimensions = dimensions({ bandwidth: INTRINSIC_BASE_TX_COMPLEXITY.bandwidth, dbRead: 1, dbWrite: 1 });

/** Outputs: their bytes and one write each. */
export function outputComplexity(outputs: readonly TransferableOutput[]): Dimensions {
  return addDimensions(
    ...outputs.map((out) =>
      dimensions({ bandwidth: OUTPUT_BANDWIDTH + TRANSFER_OUTPUT_BANDWIDTH + BigInt(out.output.addresses.length) * SHORT_ID_LEN, dbWrite: 1 }),
    ),
  );
}

/** Inputs with their credentials' signatures: bytes, one read and one write each, signature checks. */
export function inputComplexity(inputs: readonly TransferableInput[]): Dimensions {
  return addDimensions(
    ...inputs.map((input) => {
      const signatures = BigInt(input.input.signatureIndices.length);
      return dimensions({ bandwidth: INPUT_BANDWIDTH + TRANSFER_INPUT_BANDWIDTH + signatures * SIGNATURE_BANDWIDTH, dbRead: 1, dbWrite: 1, compute: signatures * SIGNATURE_COMPUTE });
    }),
  );
}

/** An authorisation (a secp256k1fx Input) with its signatures, without its type ID. */
export function authComplexity(signatureIndices: readonly number[]): Dimensions {
  const signatures = BigInt(signatureIndices.length);
  return dimensions({ bandwidth: SECP_INPUT_BANDWIDTH + signatures * SIGNATURE_BANDWIDTH, compute: signatures * SIGNATURE_COMPUTE });
}

/** Owners (secp256k1fx OutputOwners), without their type ID. */
export function ownerComplexity(addresses: number): Dimensions {
  return dimensions({ bandwidth: OWNERS_BANDWIDTH + BigInt(addresses) * SHORT_ID_LEN });
}

function baseFieldsComplexity(tx: PBaseFields): Dimensions {
  return addDimensions(outputComplexity(tx.outputs), inputComplexity(tx.inputs), dimensions({ bandwidth: tx.memo.length }));
}

function multisigAliasComplexity(tx: MultisigAliasTx): Dimensions {
  const update = tx.alias.id.some((b) => b !== 0); // an all-zero ID creates a new alias
  const aliasBandwidth = SHORT_ID_LEN + INT_LEN + BigInt(tx.alias.memo.length) + INT_LEN; // ID, memo length, memo, owners type ID
  return addDimensions(
    INTRINSIC_MULTISIG_ALIAS_TX_COMPLEXITY,
    baseFieldsComplexity(tx),
    dimensions({ bandwidth: aliasBandwidth + INT_LEN + (update ? INT_LEN : 0n) }), // auth type ID (and its credential's)
    ownerComplexity(tx.alias.owners.addresses.length),
    authComplexity(tx.auth.signatureIndices),
  );
}

/** The complexity of an unsigned transaction, credentials included (counted from the inputs' signature indices). */
export function txComplexity(tx: PUnsignedTx): Dimensions {
  switch (tx.typeId) {
    case PTypeId.BaseTx:
    case PTypeId.CaminoBaseTx:
      return addDimensions(INTRINSIC_BASE_TX_COMPLEXITY, baseFieldsComplexity(tx));
    case PTypeId.ImportTx:
      return addDimensions(INTRINSIC_IMPORT_TX_COMPLEXITY, baseFieldsComplexity(tx), inputComplexity(tx.importedInputs));
    case PTypeId.ExportTx:
      return addDimensions(INTRINSIC_EXPORT_TX_COMPLEXITY, baseFieldsComplexity(tx), outputComplexity(tx.exportedOutputs));
    case PTypeId.MultisigAliasTx:
      return multisigAliasComplexity(tx);
  }
}
