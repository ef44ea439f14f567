import fs from "node:fs/promises";
import path from "node:path";
import { durableStore, type DurableStore } from "./durable-store";
import { LevelBackend } from "./level-backend";

/**
 * The layout of a node's data directory (`--db-dir`) that this build writes. A directory written
 * in another format is refused, never read or rewritten in place.
 */
export const DATA_FORMAT_VERSION = 1;

const MANIFEST_KEY = "manifest";
const DATABASE_FOLDER = "db";

/** What the data directory says about itself, written when it is first used. */
export interface DataManifest {
  readonly format: number;
  readonly networkId: number;
  /** The contract chain's EVM chain ID: its transactions are signed for it. */
  readonly evmChainId: number;
  /** When the directory was first used (ISO 8601). */
  readonly created: string;
}

/** A data directory that cannot be used by this node, with the reason a person can act on. */
export class DataDirectoryError extends Error {
  override readonly name = "DataDirectoryError";
}

export interface DataDirectory {
  readonly path: string;
  readonly manifest: DataManifest;
  /** Whether the directory held no data before this start. */
  readonly fresh: boolean;
  /** The chains' store: what they stage is committed together, one acceptance at a time. */
  readonly store: DurableStore;
  /**
   * Another store over the same database with a staging of its own, for writers that commit on
   * their own schedule (the index, auth): their commits never carry the chains' staged writes.
   */
  independentStore(): DurableStore;
  close(): Promise<void>;
}

/**
 * The directory's database: created when the folder is absent or empty, else opened exactly as
 * it is. A database LevelDB cannot open as it is (a lost CURRENT or MANIFEST file) is refused
 * with what to do, and nothing in it is changed: never repaired by starting over.
 */
async function openDatabase(folder: string, location: string): Promise<LevelBackend> {
  const held = await fs.readdir(folder).catch(() => [] as string[]);
  if (held.length === 0) return LevelBackend.open(folder);
  try {
    return await LevelBackend.open(folder, { createIfMissing: false });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // Another process holding the database's lock is no damage: its own message says so.
    if (/already held/.test(reason)) throw error;
    throw new DataDirectoryError(
      `${location} holds a database that cannot be opened as it is (${reason}): it is damaged or incomplete, and nothing in it was changed. ` +
        `Restore the directory from a copy, or start with another --db-dir.`,
      { cause: error },
    );
  }
}

/** The mode of every folder in a data directory: its owner's only. */
const FOLDER_MODE = 0o700;
/** The mode of every file in a data directory: read and written by its owner only. */
const FILE_MODE = 0o600;

/**
 * Makes every folder under `folder` 0700 and every file 0600. The directory
 * holds the auth password's hash, the sealed token key, the staking keys and the keystore: files
 * a LevelDB or an earlier version wrote 0644 (under the usual umask 022) are closed to other users.
 * Symbolic links are left as they are (never followed), and so is anything that vanishes meanwhile.
 */
async function restrictModes(folder: string): Promise<void> {
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) await fs.chmod(full, FOLDER_MODE).then(() => restrictModes(full), ignoreNotOurs);
    else if (entry.isFile()) await fs.chmod(full, FILE_MODE).catch(ignoreNotOurs);
  }
}

/** A file that vanished meanwhile, or that another user owns (not this node's to close), is skipped. */
function ignoreNotOurs(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT" && error.code !== "EPERM") throw error;
}

/** Which network a data directory belongs to. */
export interface DataIdentity {
  readonly networkId: number;
  readonly evmChainId: number;
}

/**
 * Opens the node's data directory `dir` (creating it when absent) for the network `identity`.
 * Refuses a directory written for another network (ID or EVM chain ID) or in another format version.
 */
export async function openDataDirectory(dir: string, identity: DataIdentity): Promise<DataDirectory> {
  const { networkId, evmChainId } = identity;
  const location = path.resolve(dir);
  // Only its owner may read it: it holds the auth password's hash and the staking keys. Files
  // made while the node runs follow the process's umask (the node command sets 077); whatever a
  // program using this module left open is closed again at the next open and at close.
  await fs.mkdir(location, { recursive: true, mode: FOLDER_MODE });
  await fs.chmod(location, FOLDER_MODE);
  const backend = await openDatabase(path.join(location, DATABASE_FOLDER), location);
  try {
    // After the database is open: opening it writes files of its own (a new log, manifest, CURRENT).
    await restrictModes(location);
    const store = durableStore(backend);
    const existing = await store.get(MANIFEST_KEY);
    let manifest: DataManifest;
    if (existing === undefined) {
      manifest = { format: DATA_FORMAT_VERSION, networkId, evmChainId, created: new Date().toISOString() };
      store.put(MANIFEST_KEY, new TextEncoder().encode(JSON.stringify(manifest)));
      await store.commit();
    } else {
      manifest = readManifest(existing, location);
      if (manifest.format !== DATA_FORMAT_VERSION) {
        throw new DataDirectoryError(
          `${location} holds data in format ${manifest.format}; this nativekit reads format ${DATA_FORMAT_VERSION}. ` +
            "Use another --db-dir (or move this one away): it is never converted in place.",
        );
      }
      if (manifest.networkId !== networkId) {
        throw new DataDirectoryError(
          `${location} holds the data of network ${manifest.networkId}, and this node runs network ${networkId}. ` +
            `Start with --network-id ${manifest.networkId}, or use another --db-dir.`,
        );
      }
      if (manifest.evmChainId !== evmChainId) {
        throw new DataDirectoryError(
          `${location} holds a contract chain with EVM chain ID ${manifest.evmChainId}, and this node runs chain ID ${evmChainId}. ` +
            `Start with --chain-id ${manifest.evmChainId}, or use another --db-dir.`,
        );
      }
    }
    return {
      path: location,
      manifest,
      fresh: existing === undefined,
      store,
      independentStore: () => durableStore(backend),
      close: async () => {
        await backend.close();
        await restrictModes(location);
      },
    };
  } catch (error) {
    await backend.close();
    throw error;
  }
}

function readManifest(bytes: Uint8Array, location: string): DataManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new DataDirectoryError(`${location} has an unreadable manifest: it was not written by nativekit, or is damaged`);
  }
  const record = parsed as Partial<DataManifest> | null;
  if (record === null || typeof record !== "object" || typeof record.format !== "number") {
    throw new DataDirectoryError(`${location} has a manifest without a format version: it was not written by nativekit`);
  }
  // Checked after the format: another format may describe its network otherwise.
  return { format: record.format, networkId: Number(record.networkId), evmChainId: Number(record.evmChainId), created: String(record.created ?? "") };
}
