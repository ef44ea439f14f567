/**
 * A logs query's test of a block's logs bloom: a block whose 2048-bit bloom lacks every
 * address the query names, or every topic it names at one position, holds no matching log and
 * is skipped without reading its receipts. A value sets three bits of the bloom, each taken from
 * a pair of bytes of its keccak-256 (the yellow paper's M3:2048, as ethereumjs' Bloom writes it).
 */
import { keccak256 } from "./keccak";
import type { LogFilter } from "./types";

/** The three bits a value sets: byte offsets into the 256-byte bloom and the mask within each. */
interface BloomBits {
  readonly bytes: readonly [number, number, number];
  readonly masks: readonly [number, number, number];
}

function bloomBitsOf(value: Uint8Array): BloomBits {
  const hash = keccak256(value);
  const bytes: number[] = [];
  const masks: number[] = [];
  for (let i = 0; i < 6; i += 2) {
    const bit = ((hash[i]! << 8) | hash[i + 1]!) & 2047;
    bytes.push(255 - (bit >> 3));
    masks.push(1 << (bit & 7));
  }
  return { bytes: bytes as [number, number, number], masks: masks as [number, number, number] };
}

function holds(bloom: Uint8Array, { bytes, masks }: BloomBits): boolean {
  return (bloom[bytes[0]]! & masks[0]) !== 0 && (bloom[bytes[1]]! & masks[1]) !== 0 && (bloom[bytes[2]]! & masks[2]) !== 0;
}

/** A query's bloom test, or undefined when the query names no address and no topic (every block may match). */
export function bloomTestOf(filter: LogFilter): ((bloom: Uint8Array) => boolean) | undefined {
  const alternatives: BloomBits[][] = [];
  if (filter.addresses.length > 0) alternatives.push(filter.addresses.map(bloomBitsOf));
  for (const wanted of filter.topics) if (wanted !== undefined && wanted.length > 0) alternatives.push(wanted.map(bloomBitsOf));
  if (alternatives.length === 0) return undefined;
  return (bloom) => alternatives.every((anyOf) => anyOf.some((bits) => holds(bloom, bits)));
}
