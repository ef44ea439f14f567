/**
 * @ethereumjs/rlp with a one-pass `encode` and `decode`: what the engine's bundle gives every
 * package in it that imports "@ethereumjs/rlp" (scripts/bundle-engine.js maps the name here; this
 * file's own import of it is the package).
 *
 * Why: in a Hardhat 3 test run, RLP was the engine's largest single module, about 18 ms of the
 * bundle's 144 ms of main-thread time (three profiled runs of the ERC-20 suite; see
 * bench/README.md), nearly all of it cold. The trie serialises every node it hashes, the state
 * cache every account it writes, and each block its transactions and receipts. The library's
 * encode makes each item's header and payload as arrays and concatenates them, level by level
 * (a branch node's 17 children, then the node); this one measures the whole input first and
 * writes it into one array.
 *
 * The bytes are the library's: byte strings (`Uint8Array`) are encoded here, and any other item
 * (a string, a number, a bigint, null) is handed to the library's encode, with its rules and its
 * errors. Like the library, a single byte string of one byte below 0x80 encodes as itself (the
 * same array, not a copy).
 *
 * `decode` reads a byte array in one pass by position, where the library copies each list's
 * payload before reading its items and reads lengths through hex strings; in the same profiles it
 * took about 5 ms, mostly the accounts the state cache holds encoded. It accepts exactly what the
 * library accepts and gives the same values (fresh copies of the bytes, nested arrays): anything
 * it does not read as well formed (a bad prefix, a length too short or with leading zeros, bytes
 * missing or left over), or nests lists deeper than its call stack allows, is handed to the
 * library's decode, which then reads it as it would have or throws its own error. Other
 * input (strings, numbers) and `stream` decoding are the library's. Everything else is the package's.
 */
import * as library from "@ethereumjs/rlp";

export * from "@ethereumjs/rlp";

/** What can be RLP-encoded: a byte string (or a value the library turns into one), or a list of them. */
export type RlpInput = library.Input;

/** Header bytes of an item whose payload is `length` bytes long. */
function headerLength(length: number): number {
  if (length < 56) return 1;
  let bytes = 0;
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes++;
  return 1 + bytes;
}

/** Writes the header of a payload of `length` bytes (offset 0x80 for a string, 0xc0 for a list) at `at`; the next position. */
function writeHeader(out: Uint8Array, at: number, length: number, offset: number): number {
  if (length < 56) {
    out[at] = offset + length;
    return at + 1;
  }
  const lengthBytes = headerLength(length) - 1;
  out[at] = offset + 55 + lengthBytes;
  for (let i = lengthBytes; i > 0; i--) {
    out[at + i] = length % 256;
    length = Math.floor(length / 256);
  }
  return at + 1 + lengthBytes;
}

/** A string's or list's encoded length, known before it is written. */
function stringLength(bytes: Uint8Array): number {
  return bytes.length === 1 && bytes[0]! < 0x80 ? 1 : headerLength(bytes.length) + bytes.length;
}

/**
 * The encoded length of `input`. Lists' payload lengths are pushed on `listLengths`, and items the
 * library encodes on `encodedByLibrary`, in the order `write` meets them.
 */
function measure(input: RlpInput, listLengths: number[], encodedByLibrary: Uint8Array[]): number {
  if (input instanceof Uint8Array) return stringLength(input);
  if (Array.isArray(input)) {
    const slot = listLengths.length;
    listLengths.push(0);
    let payload = 0;
    for (let i = 0; i < input.length; i++) payload += measure(input[i] as RlpInput, listLengths, encodedByLibrary);
    listLengths[slot] = payload;
    return headerLength(payload) + payload;
  }
  const encoded = library.encode(input);
  encodedByLibrary.push(encoded);
  return encoded.length;
}

/** Cursors into `measure`'s two lists, as `write` consumes them. */
interface Cursors {
  list: number;
  library: number;
}

function write(input: RlpInput, out: Uint8Array, at: number, listLengths: number[], encodedByLibrary: Uint8Array[], cursors: Cursors): number {
  if (input instanceof Uint8Array) {
    if (input.length === 1 && input[0]! < 0x80) {
      out[at] = input[0]!;
      return at + 1;
    }
    at = writeHeader(out, at, input.length, 0x80);
    out.set(input, at);
    return at + input.length;
  }
  if (Array.isArray(input)) {
    at = writeHeader(out, at, listLengths[cursors.list++]!, 0xc0);
    for (let i = 0; i < input.length; i++) at = write(input[i] as RlpInput, out, at, listLengths, encodedByLibrary, cursors);
    return at;
  }
  const encoded = encodedByLibrary[cursors.library++]!;
  out.set(encoded, at);
  return at + encoded.length;
}

/** RLP-encodes `input`: the library's bytes, written once. */
export function encode(input: RlpInput): Uint8Array {
  if (input instanceof Uint8Array) {
    if (input.length === 1 && input[0]! < 0x80) return input;
    const out = new Uint8Array(headerLength(input.length) + input.length);
    out.set(input, writeHeader(out, 0, input.length, 0x80));
    return out;
  }
  if (!Array.isArray(input)) return library.encode(input);
  const listLengths: number[] = [];
  const encodedByLibrary: Uint8Array[] = [];
  const out = new Uint8Array(measure(input, listLengths, encodedByLibrary));
  write(input, out, 0, listLengths, encodedByLibrary, { list: 0, library: 0 });
  return out;
}

/** Where the item `readItem` last read ends: one decode runs at a time, to completion. */
let position = 0;

/**
 * A length written in `count` big-endian bytes at `at`; undefined where the library refuses it
 * (a leading zero) or a double could not hold it exactly (more than 6 bytes: no input is that long).
 */
function readLength(input: Uint8Array, at: number, count: number): number | undefined {
  if (count > 6 || input[at] === 0) return undefined;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + input[at + i]!;
  return length;
}

/**
 * The item at `at`, within `end` (its list's end, or the input's), setting `position` after it; or
 * undefined when the library would refuse it, each test below mirroring one of its checks.
 */
function readItem(input: Uint8Array, at: number, end: number): Uint8Array | library.NestedUint8Array | undefined {
  const first = input[at]!;
  if (first <= 0x7f) {
    position = at + 1;
    return input.slice(at, at + 1);
  }
  if (first <= 0xb7) {
    const length = first - 0x80;
    if (at + 1 + length > end) return undefined;
    // A single byte below 0x80 is its own encoding: the library refuses it with a prefix.
    if (length === 1 && input[at + 1]! < 0x80) return undefined;
    position = at + 1 + length;
    return input.slice(at + 1, at + 1 + length);
  }
  if (first <= 0xbf) {
    const lengthBytes = first - 0xb7;
    if (at + 1 + lengthBytes > end) return undefined;
    const length = readLength(input, at + 1, lengthBytes);
    if (length === undefined || length <= 55) return undefined;
    const start = at + 1 + lengthBytes;
    if (start + length > end) return undefined;
    position = start + length;
    return input.slice(start, start + length);
  }
  let start: number;
  let listEnd: number;
  if (first <= 0xf7) {
    start = at + 1;
    listEnd = start + first - 0xc0;
  } else {
    const lengthBytes = first - 0xf7;
    if (at + 1 + lengthBytes > end) return undefined;
    const length = readLength(input, at + 1, lengthBytes);
    if (length === undefined || length < 56) return undefined;
    start = at + 1 + lengthBytes;
    listEnd = start + length;
  }
  if (listEnd > end) return undefined;
  const items: (Uint8Array | library.NestedUint8Array)[] = [];
  for (let next = start; next < listEnd; next = position) {
    const item = readItem(input, next, listEnd);
    if (item === undefined) return undefined;
    items.push(item);
  }
  position = listEnd;
  return items as library.NestedUint8Array;
}

/** RLP-decodes `input`: the library's values, read in one pass. */
export function decode(input: RlpInput, stream?: false): Uint8Array | library.NestedUint8Array;
export function decode(input: RlpInput, stream?: true): library.Decoded;
export function decode(input: RlpInput, stream = false): Uint8Array | library.NestedUint8Array | library.Decoded {
  if (stream || !(input instanceof Uint8Array) || input.length === 0) return library.decode(input, stream as true);
  let value: Uint8Array | library.NestedUint8Array | undefined;
  try {
    value = readItem(input, 0, input.length);
  } catch {
    // Lists nested deeper than this reader's call stack allows (readItem refuses everything else
    // by returning undefined): the library reads them, or fails, as it would have.
    return library.decode(input);
  }
  // Refused, or bytes left over: the library's decode says why.
  if (value === undefined || position !== input.length) return library.decode(input);
  return value;
}

/** The package's `RLP` object, with this encode and decode. */
export const RLP = { encode, decode };
