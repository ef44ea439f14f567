/** How the tracers write values: 0x quantities, 64-digit words, lowercase addresses, and memory read by a trace. */
import { type Address, bytesToUnprefixedHex } from "@ethereumjs/util";

/** Past this, a slice of memory is not read: the instruction cannot pay to expand the memory that far. */
const MAX_SLICE = 32 * 1024 * 1024;

export function hexQuantity(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/** A 256-bit word as 64 hex digits, without 0x. */
export function word64(value: bigint): string {
  return value.toString(16).padStart(64, "0");
}

export function lowerAddress(address: Address): string {
  return `0x${bytesToUnprefixedHex(address.bytes)}`;
}

/**
 * Memory from `offset`, `size` bytes long, as an instruction about to run will read it: zero
 * past what the memory holds yet (the instruction expands it). Empty for a size no instruction
 * could pay for.
 */
export function memorySlice(memory: Uint8Array, offset: bigint, size: bigint): Uint8Array {
  if (size > BigInt(MAX_SLICE) || offset > BigInt(MAX_SLICE)) return new Uint8Array(0);
  const out = new Uint8Array(Number(size));
  const start = Number(offset);
  if (start < memory.length) out.set(memory.subarray(start, Math.min(memory.length, start + out.length)));
  return out;
}
