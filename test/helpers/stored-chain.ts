import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { EngineOptions } from "../../src/engine";
import { durableStore, LevelBackend, MemoryBackend, type StoreBackend } from "../../src/storage";
import { startChain, type TestChain } from "./chain";

/** A backend a chain can be kept in and reopened from, as a node's --db-dir is between runs. */
export interface ReopenableBackend {
  /** The backend of the current run (a new one after `reopen`, for the same data). */
  backend(): StoreBackend;
  /** Ends the current run (closing the database) and opens the same data again. */
  reopen(): Promise<void>;
  dispose(): Promise<void>;
}

export function memoryBackend(): ReopenableBackend {
  const backend = new MemoryBackend();
  return { backend: () => backend, reopen: async () => {}, dispose: async () => {} };
}

export async function levelBackend(): Promise<ReopenableBackend> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-cpersist-"));
  let current = await LevelBackend.open(dir);
  return {
    backend: () => current,
    async reopen() {
      await current.close();
      current = await LevelBackend.open(dir);
    },
    async dispose() {
      await current.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** A test chain on the engine's namespace of a store over `backend` (as the node passes it). */
export function startStoredChain(backend: StoreBackend, options: EngineOptions = {}): Promise<TestChain> {
  return startChain({ ...options, store: durableStore(backend).namespace("c/") });
}
