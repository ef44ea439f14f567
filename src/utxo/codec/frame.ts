import { CodecError } from "./errors";
import { ByteReader } from "./reader";
import { CODEC_VERSION, MAX_CODEC_SIZE } from "./types";
import { ByteWriter } from "./writer";

/*
 * The frame every UTXO chain's codec puts around a whole value (the exchange chain's
 * structures, the platform chain's transactions and blocks, the contract chain's atomic
 * transactions): a uint16 codec version in front, the reference codec's size limit, and the
 * checks and wording of a value that cannot be encoded.
 */

/** A value that cannot be encoded: "cannot encode <path>: <problem>". */
export function encodeFail(path: string, problem: string): never {
  throw new CodecError(`cannot encode ${path}: ${problem}`, { path });
}

/** `value` must be an object (not null, not an array) to be encoded at `path`. */
export function checkObject(value: unknown, path: string): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    encodeFail(path, `expected an object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`);
  }
}

/** Encoded bytes of `what`, refused when above the reference codec's limit. */
export function checkEncodedSize(bytes: Uint8Array, what: string): Uint8Array {
  if (bytes.length > MAX_CODEC_SIZE) {
    throw new CodecError(`cannot encode ${what}: ${bytes.length} bytes exceed the reference codec's limit of ${MAX_CODEC_SIZE} bytes`, { path: what });
  }
  return bytes;
}

/** The codec version, then what `write` writes. */
export function encodeVersioned(write: (w: ByteWriter) => void, version: number = CODEC_VERSION): Uint8Array {
  const w = new ByteWriter();
  w.uint16(version, "codecVersion");
  write(w);
  return w.finish();
}

/** A reader of `bytes` (a whole `what`) past its codec version, which must be `version`; refuses bytes above the reference codec's limit. */
export function openVersioned(bytes: Uint8Array, what: string, version: number = CODEC_VERSION): ByteReader {
  const r = new ByteReader(bytes);
  if (bytes.length > MAX_CODEC_SIZE) {
    r.fail(what, `input is ${bytes.length} bytes, above the reference codec's limit of ${MAX_CODEC_SIZE} bytes`, 0);
  }
  const found = r.uint16(`${what}.codecVersion`);
  if (found !== version) r.fail(`${what}.codecVersion`, `unsupported codec version ${found} (expected ${version})`, 0);
  return r;
}
