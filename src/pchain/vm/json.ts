import { bytesToHex, encodeCb58 } from "../../encoding";
import type { OutputOwners, TransferableInput, TransferableOutput } from "../../xchain/codec";
import { FX_IDS } from "../../xchain/vm/json";
import { sha256 } from "@noble/hashes/sha2.js";
import { encodePSignedTx, type PBlock, type PCredential, PTypeId, type PSignedTx } from "../codec";

/*
 * The JSON form of platform-chain transactions and blocks (getTx / getBlock with encoding
 * "json"), after the reference node's json tags: {unsignedTx: {networkID, blockchainID,
 * outputs, inputs, memo, …}, credentials: [{signatures}], id}; Camino's multisig credential
 * adds sigIdxs, its alias tx multisigAlias {id, memo, owners} and auth. As on the exchange
 * chain here, uint64 values are decimal strings.
 */

export type Json = Record<string, unknown>;
type Format = (shortId: Uint8Array) => string;

const SECP_FX = FX_IDS[0]!;

function owners(o: OutputOwners, format: Format): Json {
  return { addresses: o.addresses.map(format), locktime: o.locktime.toString(), threshold: o.threshold };
}

function output(out: TransferableOutput, format: Format): Json {
  return { assetID: encodeCb58(out.assetId), fxID: SECP_FX, output: { ...owners(out.output, format), amount: out.output.amount.toString() } };
}

function input(i: TransferableInput): Json {
  return { txID: encodeCb58(i.txId), outputIndex: i.outputIndex, assetID: encodeCb58(i.assetId), fxID: SECP_FX, input: { amount: i.input.amount.toString(), signatureIndices: i.input.signatureIndices } };
}

function credential(c: PCredential): Json {
  const signatures = c.signatures.map((s) => bytesToHex(s));
  return c.typeId === PTypeId.MultisigCredential ? { signatures, sigIdxs: c.sigIdxs } : { signatures };
}

export function pTxToJson(signed: PSignedTx, txId: Uint8Array, format: Format): Json {
  const tx = signed.unsignedTx;
  const unsignedTx: Json = {
    networkID: tx.networkId,
    blockchainID: encodeCb58(tx.blockchainId),
    outputs: tx.outputs.map((o) => output(o, format)),
    inputs: tx.inputs.map(input),
    memo: bytesToHex(tx.memo),
  };
  if (tx.typeId === PTypeId.ImportTx) Object.assign(unsignedTx, { sourceChain: encodeCb58(tx.sourceChain), importedInputs: tx.importedInputs.map(input) });
  if (tx.typeId === PTypeId.ExportTx) Object.assign(unsignedTx, { destinationChain: encodeCb58(tx.destinationChain), exportedOutputs: tx.exportedOutputs.map((o) => output(o, format)) });
  if (tx.typeId === PTypeId.MultisigAliasTx) {
    Object.assign(unsignedTx, {
      multisigAlias: { id: format(tx.alias.id), memo: bytesToHex(tx.alias.memo), owners: owners(tx.alias.owners, format) },
      auth: { signatureIndices: tx.auth.signatureIndices },
    });
  }
  return { unsignedTx, credentials: signed.credentials.map(credential), id: encodeCb58(txId) };
}

export function pBlockToJson(block: PBlock, id: Uint8Array, format: Format): Json {
  const common = { parentID: encodeCb58(block.parentId), height: block.height.toString(), id: encodeCb58(id) };
  if (block.typeId === PTypeId.ApricotCommitBlock) return common;
  return { time: block.time.toString(), ...common, txs: block.txs.map((tx) => pTxToJson(tx, sha256(encodePSignedTx(tx)), format)) };
}
