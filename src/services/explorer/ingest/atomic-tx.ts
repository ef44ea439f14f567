/**
 * The contract chain's atomic transactions (its import and export of UTXOs from and to the
 * other chains), read from their signed bytes as rows of `transactions`. The format, from the
 * reference contract-chain VM's atomic codec (codec version 0, linear encoding):
 *
 *   ImportTx (type 0)  networkID u32, blockchainID [32], sourceChain [32],
 *                      importedInputs []TransferableInput, outs []{address [20], amount u64, assetID [32]}
 *   ExportTx (type 1)  networkID u32, blockchainID [32], destinationChain [32],
 *                      ins []{address [20], amount u64, assetID [32], nonce u64}, exportedOutputs []TransferableOutput
 *   signed             codec version u16, unsigned tx, credentials []{type 9, signatures [][65]}
 *
 * The secp256k1fx parts are the exchange chain's (type IDs 5 input, 7 output, 9 credential).
 * A block's `extData` holds such transactions: since Apricot phase 5 a list (codec version,
 * uint32 count, then each transaction without a version of its own), before it one
 * transaction. A transaction's ID and signed hash always cover the codec version: in a list,
 * the list's version stands in front of each.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeCb58 } from "../../../encoding";
import { ByteReader, type TransferableInput, type TransferableOutput, TypeId } from "../../../utxo/codec";
import type { ExplorerContext } from "../context";
import { credentialRows, hexOf, inputRows, nativeFee, outputRow } from "./outputs";
import type { TransactionRow } from "./rows";

function readInput(r: ByteReader): TransferableInput {
  const txId = r.fixedBytes(32, "txID");
  const outputIndex = r.uint32("outputIndex");
  const assetId = r.fixedBytes(32, "assetID");
  const typeId = r.uint32("input.typeID");
  if (typeId !== TypeId.Secp256k1TransferInput) r.fail("input.typeID", `expected 5, got ${typeId}`);
  const amount = r.uint64("input.amount");
  const signatureIndices = Array.from({ length: r.count("input.sigIndices") }, () => r.uint32("sigIndex"));
  return { txId, outputIndex, assetId, input: { typeId: TypeId.Secp256k1TransferInput, amount, signatureIndices } };
}

function readOutput(r: ByteReader): TransferableOutput {
  const assetId = r.fixedBytes(32, "assetID");
  const typeId = r.uint32("output.typeID");
  if (typeId !== TypeId.Secp256k1TransferOutput) r.fail("output.typeID", `expected 7, got ${typeId}`);
  const amount = r.uint64("output.amount");
  const locktime = r.uint64("output.locktime");
  const threshold = r.uint32("output.threshold");
  const addresses = Array.from({ length: r.count("output.addresses") }, () => r.fixedBytes(20, "address"));
  return { assetId, output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime, threshold, addresses } };
}

const list = <T>(r: ByteReader, path: string, read: () => T): T[] => Array.from({ length: r.count(path) }, read);

const CODEC_VERSION_BYTES = new Uint8Array(2);

/** `bytes[start, end)`, with the codec version in front when the transaction has none of its own. */
function versioned(bytes: Uint8Array, start: number, end: number, ownVersion: boolean): Uint8Array {
  if (ownVersion) return bytes.subarray(start, end);
  const out = new Uint8Array(2 + end - start);
  out.set(CODEC_VERSION_BYTES);
  out.set(bytes.subarray(start, end), 2);
  return out;
}

/** Reads one signed atomic transaction at the reader's position (`ownVersion`: it starts with the codec version); answers its row. */
function readAtomicTx(context: ExplorerContext, r: ByteReader, bytes: Uint8Array, ownVersion: boolean, acceptedAt: number, blockId: string | null): TransactionRow {
  const start = r.offset;
  if (ownVersion) r.uint16("codecVersion");
  const typeId = r.uint32("typeID");
  if (typeId !== 0 && typeId !== 1) r.fail("typeID", `expected 0 (ImportTx) or 1 (ExportTx), got ${typeId}`);
  r.uint32("networkID");
  r.fixedBytes(32, "blockchainID");
  const otherChain = encodeCb58(r.fixedBytes(32, typeId === 0 ? "sourceChain" : "destinationChain"));
  const chainId = context.chains.C;
  let imported: TransferableInput[] = [];
  let exported: TransferableOutput[] = [];
  let evmSide: { amount: bigint; assetId: string }[];
  if (typeId === 0) {
    imported = list(r, "importedInputs", () => readInput(r));
    evmSide = list(r, "outs", () => {
      r.fixedBytes(20, "address");
      const amount = r.uint64("amount");
      return { amount, assetId: encodeCb58(r.fixedBytes(32, "assetID")) };
    });
  } else {
    evmSide = list(r, "ins", () => {
      r.fixedBytes(20, "address");
      const amount = r.uint64("amount");
      const assetId = encodeCb58(r.fixedBytes(32, "assetID"));
      r.uint64("nonce");
      return { amount, assetId };
    });
    exported = list(r, "exportedOutputs", () => readOutput(r));
  }
  const unsignedEnd = r.offset;
  const credentials = list(r, "credentials", () => {
    const credentialType = r.uint32("credential.typeID");
    if (credentialType !== TypeId.Secp256k1Credential) r.fail("credential.typeID", `expected 9, got ${credentialType}`);
    return { signatures: list(r, "signatures", () => r.fixedBytes(65, "signature")) };
  });
  const signed = versioned(bytes, start, r.offset, ownVersion);
  const txId = sha256(signed);
  const inputs = inputRows(imported);
  const outputs = exported.map((o, i) => outputRow(context, { txId, outputIndex: i, chainId: otherChain, createdOnChainId: chainId }, o.assetId, o.output));
  const fee = typeId === 0 ? nativeFee(context, inputs, evmSide) : nativeFee(context, evmSide, outputs);
  return {
    id: encodeCb58(txId),
    chainId,
    type: typeId === 0 ? "import" : "export",
    memo: "",
    txFee: fee,
    genesis: false,
    acceptedAt,
    blockId,
    sourceChainId: typeId === 0 ? otherChain : null,
    destinationChainId: typeId === 1 ? otherChain : null,
    bytes: hexOf(signed),
    inputs,
    outputs,
    credentials: credentialRows(context, sha256(versioned(bytes, start, unsignedEnd, ownVersion)), credentials),
    assets: [],
  };
}

/** One signed atomic transaction's bytes (as `cvm.getAtomicTx` answers them) as a row. */
export function decodeAtomicTx(context: ExplorerContext, bytes: Uint8Array, acceptedAt: number, blockId: string | null): TransactionRow {
  const r = new ByteReader(bytes);
  const row = readAtomicTx(context, r, bytes, true, acceptedAt, blockId);
  r.end("atomic transaction");
  return row;
}

/** The atomic transactions of a block's `extData` (a list since Apricot phase 5, else one). */
export function decodeExtData(context: ExplorerContext, extData: Uint8Array, acceptedAt: number, blockId: string): TransactionRow[] {
  if (extData.length === 0) return [];
  try {
    const r = new ByteReader(extData);
    r.uint16("codecVersion");
    const count = r.count("txs");
    const rows: TransactionRow[] = [];
    for (let i = 0; i < count; i++) rows.push(readAtomicTx(context, r, extData, false, acceptedAt, blockId));
    r.end("extData");
    return rows;
  } catch {
    return [decodeAtomicTx(context, extData, acceptedAt, blockId)];
  }
}
