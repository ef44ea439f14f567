export { durableStore, type DurableStore, type StoreBackend } from "./durable-store";
export { MemoryBackend } from "./memory-backend";
export { LevelBackend } from "./level-backend";
export { openDataDirectory, DataDirectoryError, DATA_FORMAT_VERSION, type DataDirectory, type DataIdentity, type DataManifest } from "./data-directory";
