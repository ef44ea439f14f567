import { bytesToHex, encodeCb58 } from "../../encoding";
import { baseTxToJson, type Json, ownersToJson } from "../../utxo/json";
import { sha256 } from "@noble/hashes/sha2.js";
import { encodePSignedTx, type PBlock, type PCredential, PTypeId, type PSignedTx } from "../codec";

/*
 * The JSON form of platform-chain transactions and blocks (getTx / getBlock with encoding
 * "json"), after the reference node's json tags: {unsignedTx: {networkID, blockchainID,
 * outputs, inputs, memo, …}, credentials: [{signatures}], id}; Camino's multisig credential
 * adds sigIdxs, its alias tx multisigAlias {id, memo, owners} and auth. As on the exchange
 * chain here, uint64 values are decimal strings. The shapes the UTXO chains share (outputs in
 * the secp256k1fx MarshalJSON's sorted key order, inputs, base, import and export fields) are
 * src/utxo/json.ts's.
 */

type Format = (shortId: Uint8Array) => string;

function credential(c: PCredential): Json {
  const signatures = c.signatures.map((s) => bytesToHex(s));
  return c.typeId === PTypeId.MultisigCredential ? { signatures, sigIdxs: c.sigIdxs } : { signatures };
}

export function pTxToJson(signed: PSignedTx, txId: Uint8Array, format: Format): Json {
  const tx = signed.unsignedTx;
  const ctx = { formatAddress: format };
  const unsignedTx = baseTxToJson(tx, ctx);
  if (tx.typeId === PTypeId.MultisigAliasTx) {
    Object.assign(unsignedTx, {
      multisigAlias: { id: format(tx.alias.id), memo: bytesToHex(tx.alias.memo), owners: ownersToJson(tx.alias.owners, ctx) },
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
