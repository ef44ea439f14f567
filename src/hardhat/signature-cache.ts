/**
 * The in-process network's signatures, kept across test runs (src/crypto/signature-memo.ts says
 * why): `nativekit/signatures.bin` in the project's cache directory (Hardhat's `paths.cache`,
 * `cache/` by default), read when a run starts its first chain and written when the run ends, if
 * the run signed anything new. The file holds signer addresses, digests and signatures, never a key.
 *
 * A file that is not a whole, undamaged memo is not used (one larger than a full memo is not even
 * read): the run signs everything, and its own
 * memo replaces the file at the end (it is a cache: nothing in it is lost that signing cannot
 * make again). It is written beside and renamed over, so a run reading it never sees half a
 * file; two runs ending at once leave one of their memos. `NATIVEKIT_SIGNATURE_CACHE=0` turns it
 * off (no file is read or written).
 */
import * as fs from "node:fs";
import * as path from "node:path";

import { SIGNATURE_MEMO_LIMIT, SignatureMemo, signatureMemoBytes } from "../crypto/signature-memo";

/** This process's memos by file: every chain of a run shares one. */
const memos = new Map<string, SignatureMemo>();

/** The cache file under a project's cache directory. */
export function signatureCacheFile(cacheDirectory: string): string {
  return path.join(cacheDirectory, "nativekit", "signatures.bin");
}

/** Whether `NATIVEKIT_SIGNATURE_CACHE` turns the cache off. */
export function signatureCacheOff(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.NATIVEKIT_SIGNATURE_CACHE?.trim().toLowerCase();
  return value === "0" || value === "false" || value === "off";
}

/** The memo kept under `cacheDirectory` for this run (undefined without a directory, or when turned off). */
export function keptSignatures(cacheDirectory: string | undefined): SignatureMemo | undefined {
  if (cacheDirectory === undefined || signatureCacheOff()) return undefined;
  const file = signatureCacheFile(cacheDirectory);
  let memo = memos.get(file);
  if (memo === undefined) {
    const opened = readMemo(file);
    memos.set(file, opened);
    process.once("exit", () => writeMemo(opened, file));
    memo = opened;
  }
  return memo;
}

function readMemo(file: string): SignatureMemo {
  try {
    // Never more than a full memo is read: a larger file is not one this cache wrote.
    if (fs.statSync(file).size > signatureMemoBytes(SIGNATURE_MEMO_LIMIT)) return new SignatureMemo();
    return SignatureMemo.fromBytes(fs.readFileSync(file));
  } catch {
    // No file yet, or not a whole, undamaged memo.
    return new SignatureMemo();
  }
}

/** Writes the memo if the run added to it. A cache: a read-only directory only makes the next run sign. */
function writeMemo(memo: SignatureMemo, file: string): void {
  if (!memo.changed) return;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}`;
    fs.writeFileSync(partial, memo.toBytes());
    fs.renameSync(partial, file);
  } catch {
    // Left to sign again next time.
  }
}
