/**
 * The fork's disk cache: every remote answer that cannot change (state and history at or before
 * the pinned block), one small JSON file per answer, so a second run of the same tests asks the
 * remote nothing it asked before and works offline. Files live under
 * `<cacheDir>/rpc_cache/<endpoint>/<chainId>/`: two endpoints, or two chains behind one
 * endpoint, never share answers. A file is written to a temporary name and renamed, so a reader
 * (another test process) sees a whole answer or none.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import fs from "node:fs";
import path from "node:path";

export class DiskCache {
  private readonly memory = new Map<string, unknown>();

  /** `directory` is this endpoint and chain's (see `cacheDirectory`); undefined: in memory only. */
  constructor(readonly directory: string | undefined) {}

  /** The answer stored for a call, or undefined. */
  get(method: string, params: readonly unknown[]): unknown {
    const key = cacheKey(method, params);
    if (this.memory.has(key) || this.directory === undefined) return this.memory.get(key);
    let text: string;
    try {
      text = fs.readFileSync(this.file(key), "utf8");
    } catch {
      return undefined;
    }
    try {
      const value = (JSON.parse(text) as { result: unknown }).result;
      this.memory.set(key, value);
      return value;
    } catch {
      return undefined; // a damaged file is asked again (and rewritten)
    }
  }

  put(method: string, params: readonly unknown[], result: unknown): void {
    const key = cacheKey(method, params);
    this.memory.set(key, result);
    if (this.directory === undefined) return;
    const file = this.file(key);
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      fs.writeFileSync(temporary, JSON.stringify({ method, params, result }));
      fs.renameSync(temporary, file);
    } catch {
      // A cache that cannot be written (read-only disk) costs speed, never correctness.
    }
  }

  /** Forgets every answer (the remote's chain behind this endpoint was replaced). */
  clear(): void {
    this.memory.clear();
    if (this.directory !== undefined) fs.rmSync(this.directory, { recursive: true, force: true });
  }

  private file(key: string): string {
    return path.join(this.directory!, key.slice(0, 2), `${key}.json`);
  }
}

/** The directory of one endpoint's answers for one chain. */
export function cacheDirectory(cacheDir: string, endpointLabel: string, chainId: number): string {
  return path.join(cacheDir, "rpc_cache", endpointSlug(endpointLabel), String(chainId));
}

/** Where an endpoint's last known chain ID is kept (an offline start needs it before any call). */
export function endpointFile(cacheDir: string, endpointLabel: string): string {
  return path.join(cacheDir, "rpc_cache", endpointSlug(endpointLabel), "endpoint.json");
}

export function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

export function writeJsonFile(file: string, value: unknown): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(value));
    fs.renameSync(temporary, file);
  } catch {
    // as in `put`
  }
}

/** A readable, file-system-safe name for an endpoint (host, port and path; no credentials). */
function endpointSlug(label: string): string {
  const readable = label.replace(/^[a-z]+:\/\//i, "").replace(/[^A-Za-z0-9.-]+/g, "_").slice(0, 80);
  return `${readable}-${bytesToHex(sha256(new TextEncoder().encode(label))).slice(0, 8)}`;
}

function cacheKey(method: string, params: readonly unknown[]): string {
  return bytesToHex(sha256(new TextEncoder().encode(JSON.stringify([method, params]))));
}
