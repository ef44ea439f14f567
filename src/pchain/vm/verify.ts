import { encodeCb58, equalBytes, shortIdFromPublicKey, UINT64_MAX } from "../../encoding";
import {
  compareTransferableOutputs,
  compareUtxoIds,
  decodeUtxo,
  MAX_MEMO_SIZE,
  type OutputOwners,
  recoverPublicKey,
  SignatureError,
  type TransferableInput,
  type TransferableOutput,
  TxValidationError,
  type Utxo,
  utxoId,
  validateInputSignatureIndices,
  validateOutputOwners,
} from "../../utxo/codec";
import { type ParsedPTx, type PCredential, PTypeId, type PUnsignedTx } from "../codec";
import type { FeeQuote } from "../fees";
import { PTxRejectedError } from "./errors";
import { type AliasLookup, OwnersError, traverseOwners } from "./owners";

/*
 * The platform chain's rules for a transaction, syntactic (avalanchego platformvm txs
 * SyntacticVerify, Camino's MultisigAliasTx) then against the state (the executor's flow
 * check and the Camino fx's multisig credential check). One simplification: every output and
 * input is in the native asset with a plain secp256k1fx output (no stakeable/deposit locks).
 */

export interface PVerificationContext {
  networkId: number;
  chainId: Uint8Array;
  feeAssetId: Uint8Array;
  /** What the transaction must burn in the block it would go into (static or dynamic rule, see fees/). */
  fee: FeeQuote;
  /** Chain time, Unix seconds (for locktimes). */
  now: bigint;
  getUtxo(inputId: Uint8Array): Utxo | undefined;
  isPeerChain(chainId: Uint8Array): boolean;
  /** UTXO bytes exported to this chain from `sourceChain`, if still there. */
  getAtomicUtxo(sourceChain: Uint8Array, inputId: Uint8Array): Uint8Array | undefined;
  lookupAlias: AliasLookup;
  formatAddress(shortId: Uint8Array): string;
}

/** What a verified transaction spends: UTXOs of this chain and UTXOs taken from shared memory. */
export interface VerifiedSpend {
  consumed: Utxo[];
  imported: Utxo[];
}

function reject(rule: PTxRejectedError["rule"], nodeMessage: string, detail?: string): never {
  throw new PTxRejectedError(rule, nodeMessage, detail);
}

function checkOwners(owners: OutputOwners, path: string): void {
  try {
    validateOutputOwners(owners, path);
  } catch (error) {
    if (error instanceof TxValidationError) reject("bad-owners", error.nodeMessage, error.message);
    throw error;
  }
}

function checkIndices(indices: number[], path: string): void {
  try {
    validateInputSignatureIndices({ signatureIndices: indices }, path);
  } catch (error) {
    if (error instanceof TxValidationError) reject("signature-indices-not-sorted-unique", error.nodeMessage, error.message);
    throw error;
  }
}

function checkOutputs(outputs: TransferableOutput[], ctx: PVerificationContext, path: string): void {
  outputs.forEach((out, i) => {
    if (!equalBytes(out.assetId, ctx.feeAssetId)) reject("not-native-asset", "asset ID mismatch", `${path}[${i}] holds asset ${encodeCb58(out.assetId)}; the platform chain holds only the native asset`);
    if (out.output.amount === 0n) reject("output-no-value", "output has no value", `${path}[${i}]`);
    checkOwners(out.output, `${path}[${i}].output`);
    if (i > 0 && compareTransferableOutputs(outputs[i - 1]!, out) > 0) reject("outputs-not-sorted", "outputs not sorted", `${path}[${i}] sorts before ${path}[${i - 1}]`);
  });
}

function checkInputs(inputs: TransferableInput[], ctx: PVerificationContext, path: string): void {
  inputs.forEach((input, i) => {
    if (!equalBytes(input.assetId, ctx.feeAssetId)) reject("not-native-asset", "asset ID mismatch", `${path}[${i}] spends asset ${encodeCb58(input.assetId)}; the platform chain holds only the native asset`);
    if (input.input.amount === 0n) reject("output-no-value", "input has no value", `${path}[${i}]`);
    checkIndices(input.input.signatureIndices, `${path}[${i}].input`);
    if (i > 0 && compareUtxoIds(inputs[i - 1]!, input) >= 0) reject("inputs-not-sorted-unique", "inputs not sorted and unique", `${path}[${i}]`);
  });
}

/** Syntactic rules; returns how many credentials the spending part needs (inputs, imported inputs). */
function verifySyntax(tx: PUnsignedTx, credentials: PCredential[], ctx: PVerificationContext): number {
  if (tx.networkId !== ctx.networkId) reject("wrong-network-id", "wrong network ID", `expected ${ctx.networkId}, got ${tx.networkId}`);
  if (!equalBytes(tx.blockchainId, ctx.chainId)) reject("wrong-chain-id", "wrong chain ID", `expected the platform chain ${encodeCb58(ctx.chainId)}, got ${encodeCb58(tx.blockchainId)}`);
  if (tx.memo.length > MAX_MEMO_SIZE) reject("memo-too-large", "memo exceeds maximum length", `${tx.memo.length} > ${MAX_MEMO_SIZE}`);
  checkOutputs(tx.outputs, ctx, "outputs");
  checkInputs(tx.inputs, ctx, "inputs");
  let spending = tx.inputs.length;
  if (tx.typeId === PTypeId.ImportTx) {
    if (tx.importedInputs.length === 0) reject("no-import-inputs", "tx has no imported inputs");
    checkInputs(tx.importedInputs, ctx, "importedInputs");
    spending += tx.importedInputs.length;
  } else if (tx.typeId === PTypeId.ExportTx) {
    if (tx.exportedOutputs.length === 0) reject("no-export-outputs", "tx has no outputs to export");
    checkOutputs(tx.exportedOutputs, ctx, "exportedOutputs");
  } else if (tx.typeId === PTypeId.MultisigAliasTx) {
    const { alias } = tx;
    if (alias.memo.length > MAX_MEMO_SIZE) reject("bad-alias", "failed to verify alias or auth", `msig alias memo is larger (${alias.memo.length} bytes) than max of ${MAX_MEMO_SIZE} bytes`);
    checkOwners(alias.owners, "alias.owners");
    if (alias.owners.threshold === 0) reject("bad-alias", "failed to verify alias or auth", "an alias needs a threshold of at least 1");
    checkIndices(tx.auth.signatureIndices, "auth");
  }
  const expected = spending + (tx.typeId === PTypeId.MultisigAliasTx && !isNewAlias(tx.alias.id) ? 1 : 0);
  if (credentials.length !== expected) {
    reject("wrong-number-of-credentials", "unexpected number of credentials", `got ${credentials.length}, need ${expected} (one per input and imported input${expected > spending ? ", then the alias owners' authorisation" : ""})`);
  }
  credentials.forEach((cred, i) => {
    if (cred.typeId === PTypeId.MultisigCredential) checkIndices(cred.sigIdxs, `credentials[${i}].sigIdxs`);
  });
  return spending;
}

/** True for the all-zero alias ID of a transaction that creates a new alias. */
export function isNewAlias(id: Uint8Array): boolean {
  return id.every((b) => b === 0);
}

/**
 * Checks that `credential` authorises spending what `owners` own, Camino style: the
 * signatures, in order, come from the walk's signer slots named by the indices (the
 * credential's sigIdxs for a MultisigCredential, else the input's), meeting every threshold.
 */
export function verifyCredential(hash: Uint8Array, inputIndices: number[], credential: PCredential, owners: OutputOwners, ctx: PVerificationContext, where: string): void {
  const indices = credential.typeId === PTypeId.MultisigCredential ? credential.sigIdxs : inputIndices;
  if (indices.length !== credential.signatures.length) {
    reject("signers-mismatch", "input expected a different number of signers than provided in the credential", `${where}: ${indices.length} indices, ${credential.signatures.length} signatures`);
  }
  const signers = credential.signatures.map((signature, k) => {
    try {
      return shortIdFromPublicKey(recoverPublicKey(hash, signature));
    } catch (error) {
      if (error instanceof SignatureError) reject("invalid-signature", error.nodeMessage ?? "invalid signature", `${where}.signatures[${k}]: ${error.message}`);
      throw error;
    }
  });
  let result: { met: boolean; verified: number };
  try {
    result = traverseOwners(owners, ctx.lookupAlias, (address, slot, verified) => verified < indices.length && indices[verified] === slot && equalBytes(signers[verified]!, address));
  } catch (error) {
    if (error instanceof OwnersError) reject("threshold-not-met", error.message, where);
    throw error;
  }
  if (!result.met) {
    const by = signers.map((s, k) => `${ctx.formatAddress(s)} at slot ${indices[k]}`).join(", ");
    reject("threshold-not-met", "unable to spend this UTXO", `${where}: the signatures (${by || "none"}) do not meet the owners' threshold ${owners.threshold}`);
  }
  if (result.verified < indices.length) reject("too-many-signers", "input has more signers than expected", `${where}: ${indices.length} signatures, ${result.verified} used`);
}

function spend(hash: Uint8Array, input: TransferableInput, utxo: Utxo, credential: PCredential, ctx: PVerificationContext, where: string): bigint {
  if (!equalBytes(utxo.assetId, input.assetId)) reject("asset-mismatch", "attempting to consume an asset ID that doesn't match the UTXO's", where);
  const out = utxo.output;
  if (out.typeId !== PTypeId.Secp256k1TransferOutput) reject("asset-mismatch", "wrong utxo type", `${where} spends a UTXO of output type ${out.typeId}`);
  if (out.amount !== input.input.amount) reject("amount-mismatch", "utxo amount and input amount are not equal", `${where}: ${out.amount} != ${input.input.amount}`);
  if (out.locktime > ctx.now) reject("timelocked", "output is time locked", `${where}: locked until ${out.locktime}, now ${ctx.now}`);
  verifyCredential(hash, input.input.signatureIndices, credential, out, ctx, where);
  return out.amount;
}

function add(a: bigint, b: bigint): bigint {
  if (a + b > UINT64_MAX) reject("amount-overflow", "math overflow");
  return a + b;
}

/**
 * Verifies a parsed transaction against the rules and the state: each input spends an
 * existing UTXO with valid credentials, imported UTXOs are in shared memory, the native
 * asset spent covers the outputs plus the fee. Throws PTxRejectedError.
 */
export function verifyPTx(parsed: ParsedPTx, ctx: PVerificationContext): VerifiedSpend {
  const { unsignedTx: tx, credentials } = parsed.tx;
  verifySyntax(tx, credentials, ctx);
  const consumed: Utxo[] = [];
  const imported: Utxo[] = [];
  let total = 0n;
  tx.inputs.forEach((input, i) => {
    const utxo = ctx.getUtxo(utxoId(input.txId, input.outputIndex));
    if (utxo === undefined) reject("missing-utxo", "failed to read consumed UTXO", `inputs[${i}] spends ${encodeCb58(input.txId)}:${input.outputIndex}, which is not an unspent output of this chain`);
    total = add(total, spend(parsed.unsignedHash, input, utxo, credentials[i]!, ctx, `inputs[${i}]`));
    consumed.push(utxo);
  });
  if (tx.typeId === PTypeId.ImportTx) {
    if (!ctx.isPeerChain(tx.sourceChain)) reject("unknown-chain", "source chain is not another chain of this network", encodeCb58(tx.sourceChain));
    tx.importedInputs.forEach((input, i) => {
      const bytes = ctx.getAtomicUtxo(tx.sourceChain, utxoId(input.txId, input.outputIndex));
      if (bytes === undefined) reject("missing-atomic-utxo", "failed to get shared memory", `importedInputs[${i}]: ${encodeCb58(input.txId)}:${input.outputIndex} was never exported here or is already imported`);
      const utxo = decodeUtxo(bytes);
      total = add(total, spend(parsed.unsignedHash, input, utxo, credentials[tx.inputs.length + i]!, ctx, `importedInputs[${i}]`));
      imported.push(utxo);
    });
  }
  if (tx.typeId === PTypeId.ExportTx && !ctx.isPeerChain(tx.destinationChain)) reject("unknown-chain", "destination chain is not another chain of this network", encodeCb58(tx.destinationChain));
  const fee = ctx.fee.fee;
  let produced = fee;
  for (const out of tx.outputs) produced = add(produced, out.output.amount);
  if (tx.typeId === PTypeId.ExportTx) for (const out of tx.exportedOutputs) produced = add(produced, out.output.amount);
  if (total < produced) {
    if (ctx.fee.rule === "static") reject("insufficient-funds", "insufficient funds", `consumed ${total}, produced ${produced - fee} plus the fee ${fee}`);
    // The reference's flow check since Etna: the fee joins what is produced, and the shortfall is named.
    const { gas, price } = ctx.fee;
    throw new PTxRejectedError("insufficient-funds", "insufficient unlocked funds", `needs ${produced - total} more ${encodeCb58(ctx.feeAssetId)}`, {
      consumed: total.toString(),
      produced: (produced - fee).toString(),
      fee: fee.toString(),
      gas: gas.toString(),
      price: price.toString(),
    });
  }
  if (tx.typeId === PTypeId.MultisigAliasTx && !isNewAlias(tx.alias.id)) {
    const current = ctx.lookupAlias(tx.alias.id);
    if (current === undefined) reject("alias-not-found", "alias not found on state", ctx.formatAddress(tx.alias.id));
    try {
      verifyCredential(parsed.unsignedHash, tx.auth.signatureIndices, credentials[credentials.length - 1]!, current.alias.owners, ctx, "auth");
    } catch (error) {
      if (error instanceof PTxRejectedError) reject("alias-auth-failed", "alias credential isn't matching", error.message);
      throw error;
    }
  }
  return { consumed, imported };
}
