/**
 * The syntactic rules of the contract chain's atomic transactions (the node's Verify), checked
 * without any state, in the node's order:
 *
 *   ImportTx  >= 1 imported input, network and blockchain IDs, >= 1 EVM output, source chain
 *             another chain of the primary network, every output/input valid, inputs sorted
 *             and unique by UTXO, outputs sorted and unique by (address, asset).
 *   ExportTx  >= 1 exported output, IDs, destination chain, EVM inputs valid, exported outputs
 *             sorted, EVM inputs sorted and unique by (address, asset).
 *
 * With the Banff rule (`AtomicContext.nativeOnly`) only the native coin may cross.
 */
import { encodeCb58, equalBytes } from "../encoding";
import {
  type Secp256k1TransferOutput,
  type TransferableInput,
  TxValidationError,
  compareTransferableOutputs,
  compareUtxoIds,
  validateInputSignatureIndices,
  validateOutputOwners,
} from "../utxo/codec";
import { AtomicTypeId, type UnsignedAtomicTx, type UnsignedExportTx, type UnsignedImportTx, compareEvmInputs, compareEvmOutputs } from "./atomic-codec";
import { type AtomicContext, P_CHAIN_ID, isPeerChain } from "./context";
import { fail } from "./errors";

function isZero(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0);
}

function firstNotAscending<T>(items: readonly T[], compare: (a: T, b: T) => number, strict: boolean): number {
  for (let i = 1; i < items.length; i++) {
    const c = compare(items[i - 1]!, items[i]!);
    if (strict ? c >= 0 : c > 0) return i;
  }
  return -1;
}

/** secp256k1fx rules of a transfer output (the node's TransferOutput.Verify): its message, or undefined. */
export function transferOutputProblem(output: Secp256k1TransferOutput, path: string): string | undefined {
  if (output.amount === 0n) return "output has no value";
  try {
    validateOutputOwners(output, path);
  } catch (error) {
    if (error instanceof TxValidationError) return error.nodeMessage;
    throw error;
  }
  return undefined;
}

/** secp256k1fx rules of a transfer input (the node's TransferInput.Verify): its message, or undefined. */
export function transferInputProblem(input: TransferableInput, path: string): string | undefined {
  if (input.input.amount === 0n) return "input has no value";
  try {
    validateInputSignatureIndices(input.input, `${path}.input`);
  } catch (error) {
    if (error instanceof TxValidationError) return error.nodeMessage;
    throw error;
  }
  return undefined;
}

/** Both kinds: issued on this network, for this chain. */
function verifyNetworkAndChain(tx: UnsignedAtomicTx, ctx: AtomicContext): void {
  if (tx.networkId !== ctx.networkId) {
    fail("wrong-network-id", `tx was issued with a different network ID (tx: ${tx.networkId}, this network: ${ctx.networkId})`);
  }
  if (!equalBytes(tx.blockchainId, ctx.chainId)) {
    fail("wrong-chain-id", `tx has wrong chain ID (blockchainID ${encodeCb58(tx.blockchainId)} is not this chain's ${encodeCb58(ctx.chainId)})`);
  }
}

/** The syntactic rules of an ImportTx. */
export function verifyImportSyntax(tx: UnsignedImportTx, ctx: AtomicContext): void {
  if (tx.importedInputs.length === 0) fail("no-import-inputs", "tx has no imported inputs");
  verifyNetworkAndChain(tx, ctx);
  if (tx.outs.length === 0) fail("no-evm-outputs", "tx has no EVM outputs");
  if (!isPeerChain(ctx, tx.sourceChain)) {
    fail("wrong-chain-id", `tx has wrong chain ID (source chain ${encodeCb58(tx.sourceChain)} is not another chain of this network)`);
  }
  tx.outs.forEach((out, i) => {
    if (out.amount === 0n) fail("invalid-output", `EVM Output failed verification: output has no value (outs[${i}])`);
    if (isZero(out.assetId)) fail("invalid-output", `EVM Output failed verification: empty asset ID is not valid (outs[${i}])`);
    if (ctx.nativeOnly && !equalBytes(out.assetId, ctx.nativeAssetId)) fail("non-native-asset", "import output cannot contain non-AVAX in Banff");
  });
  tx.importedInputs.forEach((input, i) => {
    const path = `importedInputs[${i}]`;
    const problem = isZero(input.assetId) ? "empty asset ID is not valid" : transferInputProblem(input, path);
    if (problem !== undefined) fail("invalid-input", `atomic input failed verification: ${problem} (${path})`);
    if (ctx.nativeOnly && !equalBytes(input.assetId, ctx.nativeAssetId)) fail("non-native-asset", "import input cannot contain non-AVAX in Banff");
  });
  const badInput = firstNotAscending(tx.importedInputs, compareUtxoIds, true);
  if (badInput >= 0) fail("inputs-not-sorted-unique", `inputs not sorted and unique (importedInputs[${badInput}] is not after [${badInput - 1}] by UTXO ID)`);
  const badOutput = firstNotAscending(tx.outs, compareEvmOutputs, true);
  if (badOutput >= 0) {
    fail("outputs-not-sorted-unique", `outputs not sorted and unique (outs[${badOutput}] is not after [${badOutput - 1}] by address, then asset ID)`);
  }
}

/** The syntactic rules of an ExportTx. */
export function verifyExportSyntax(tx: UnsignedExportTx, ctx: AtomicContext): void {
  if (tx.exportedOutputs.length === 0) fail("no-export-outputs", "tx has no export outputs");
  verifyNetworkAndChain(tx, ctx);
  if (!isPeerChain(ctx, tx.destinationChain)) {
    fail("wrong-chain-id", `tx has wrong chain ID (destination chain ${encodeCb58(tx.destinationChain)} is not another chain of this network)`);
  }
  tx.ins.forEach((input, i) => {
    if (input.amount === 0n) fail("invalid-input", `input has no value (ins[${i}])`);
    if (isZero(input.assetId)) fail("invalid-input", `empty asset ID is not valid (ins[${i}])`);
    if (ctx.nativeOnly && !equalBytes(input.assetId, ctx.nativeAssetId)) fail("non-native-asset", "export input cannot contain non-AVAX in Banff");
  });
  tx.exportedOutputs.forEach((out, i) => {
    const path = `exportedOutputs[${i}]`;
    const problem = isZero(out.assetId) ? "empty asset ID is not valid" : transferOutputProblem(out.output, `${path}.output`);
    if (problem !== undefined) fail("invalid-output", `${problem} (${path})`);
    if (!equalBytes(out.assetId, ctx.nativeAssetId) && equalBytes(tx.destinationChain, P_CHAIN_ID)) {
      fail("wrong-chain-id", "tx has wrong chain ID (only the native coin can be exported to the platform chain)");
    }
    if (ctx.nativeOnly && !equalBytes(out.assetId, ctx.nativeAssetId)) fail("non-native-asset", "export output cannot contain non-AVAX in Banff");
  });
  const badOutput = firstNotAscending(tx.exportedOutputs, compareTransferableOutputs, false);
  if (badOutput >= 0) {
    fail("outputs-not-sorted", `tx outputs not sorted (exportedOutputs[${badOutput}] sorts before [${badOutput - 1}] by asset ID, then output bytes)`);
  }
  const badInput = firstNotAscending(tx.ins, compareEvmInputs, true);
  if (badInput >= 0) fail("inputs-not-sorted-unique", `inputs not sorted and unique (ins[${badInput}] is not after [${badInput - 1}] by address, then asset ID)`);
}

/** The node's syntactic rules (Verify) of an unsigned atomic transaction; throws the first AtomicTxError, in the node's order. */
export function verifyAtomicTxSyntax(tx: UnsignedAtomicTx, ctx: AtomicContext): void {
  if (tx.typeId === AtomicTypeId.ImportTx) verifyImportSyntax(tx, ctx);
  else verifyExportSyntax(tx, ctx);
}
