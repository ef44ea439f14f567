import { encodeOperation, encodeOutput, encodeTransferableOutput } from "./encode";
import type { Operation, Output, TransferableOutput, UtxoId } from "./types";

/*
 * The orders the reference node requires of a transaction's lists (addresses, inputs,
 * outputs, operations): use them with Array.prototype.sort to build valid transactions; the
 * syntactic rules (validate.ts) check them.
 */

/** Byte order (lexicographic, shorter first on a common prefix), as Go's bytes.Compare. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Order of addresses (short IDs) in an output: by bytes. */
export function compareShortIds(a: Uint8Array, b: Uint8Array): number {
  return compareBytes(a, b);
}

/** Order of UTXO references (inputs, operation UTXO IDs): by tx ID bytes, then output index. */
export function compareUtxoIds(a: UtxoId, b: UtxoId): number {
  return compareBytes(a.txId, b.txId) || a.outputIndex - b.outputIndex;
}

/** Order of transaction outputs: by asset ID, then by the encoded typed output. */
export function compareTransferableOutputs(a: TransferableOutput, b: TransferableOutput): number {
  return compareBytes(encodeTransferableOutput(a), encodeTransferableOutput(b));
}

/** Order of an initial state's outputs: by encoded typed output. */
export function compareOutputs(a: Output, b: Output): number {
  return compareBytes(encodeOutput(a), encodeOutput(b));
}

/** Order of an OperationTx's operations: by encoded operation. */
export function compareOperations(a: Operation, b: Operation): number {
  return compareBytes(encodeOperation(a), encodeOperation(b));
}

/** Index of the first element not strictly greater than its predecessor, or -1. */
export function firstNotAscending<T>(items: readonly T[], compare: (a: T, b: T) => number, strict: boolean): number {
  for (let i = 1; i < items.length; i++) {
    const c = compare(items[i - 1]!, items[i]!);
    if (strict ? c >= 0 : c > 0) return i;
  }
  return -1;
}
