/**
 * Bytecode as the compiler wrote it against bytecode as it runs: library addresses linked in,
 * immutables written by the constructor, constructor arguments after the creation code, and a
 * metadata hash at the end that changes with any change to the sources' text. Comparing the
 * two masks what deployment fills in and the metadata, so a contract is recognised by its code.
 */
import type { CompiledBytecode } from "./build-infos";

/** The compiler's hex as bytes; unlinked library placeholders (`__$…$__`) read as zeros. */
export function compiledBytes(object: string): Uint8Array {
  const hex = object.replace(/__\$[0-9a-fA-F]{34}\$__/g, "0".repeat(40));
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Byte ranges that differ between compiled and deployed code of the same contract. */
export function maskedRanges(bytecode: CompiledBytecode, bytes: Uint8Array, kind: "creation" | "runtime"): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const byLibrary of Object.values(bytecode.linkReferences)) {
    for (const references of Object.values(byLibrary)) for (const { start, length } of references) ranges.push([start, length]);
  }
  if (kind === "runtime") {
    for (const references of Object.values(bytecode.immutableReferences)) for (const { start, length } of references) ranges.push([start, length]);
  }
  const metadata = metadataRange(bytes);
  if (metadata !== undefined) ranges.push(metadata);
  return ranges;
}

/**
 * The CBOR metadata solc appends (its length in the last two bytes), as [start, length]; none
 * if the tail does not read as one.
 */
export function metadataRange(bytes: Uint8Array): [number, number] | undefined {
  if (bytes.length < 2) return undefined;
  const cborLength = (bytes[bytes.length - 2]! << 8) | bytes[bytes.length - 1]!;
  const start = bytes.length - 2 - cborLength;
  // A CBOR map of one to six entries (solc writes ipfs/bzzr, solc, experimental).
  if (start < 0 || cborLength === 0 || bytes[start]! < 0xa1 || bytes[start]! > 0xa6) return undefined;
  return [start, cborLength + 2];
}

/** Whether `code` begins with `compiled`, once the masked ranges are ignored. */
export function matchesCompiled(code: Uint8Array, compiled: Uint8Array, masked: ReadonlyArray<[number, number]>): boolean {
  if (code.length < compiled.length) return false;
  let next = 0;
  const sorted = [...masked].sort((a, b) => a[0] - b[0]);
  for (const [start, length] of sorted) {
    for (let i = next; i < start; i++) if (code[i] !== compiled[i]) return false;
    next = Math.max(next, start + length);
  }
  for (let i = next; i < compiled.length; i++) if (code[i] !== compiled[i]) return false;
  return true;
}

/** For each byte of code, the index of the instruction it belongs to (PUSH data counts with its PUSH). */
export function instructionIndexes(code: Uint8Array): Int32Array {
  const indexes = new Int32Array(code.length);
  let instruction = 0;
  for (let pc = 0; pc < code.length; instruction++) {
    const opcode = code[pc]!;
    const size = opcode >= 0x60 && opcode <= 0x7f ? opcode - 0x5e : 1;
    for (let i = 0; i < size && pc + i < code.length; i++) indexes[pc + i] = instruction;
    pc += size;
  }
  return indexes;
}

/** Whether the byte at `pc` starts a JUMPDEST instruction (not PUSH data that happens to be 0x5b). */
export function isJumpDestination(code: Uint8Array, indexes: Int32Array, pc: number): boolean {
  if (pc < 0 || pc >= code.length || code[pc] !== 0x5b) return false;
  return pc === 0 || indexes[pc - 1] !== indexes[pc];
}
