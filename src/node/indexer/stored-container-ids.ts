import type { DurableStore } from "../../storage";
import { DamagedRecordError } from "../../storage/record-codec";

/**
 * The contract chain's container IDs kept in the node's data directory, by block number: with
 * `--db-dir`, a node that announces its blocks (IPC, index) finds the ID of the block below the
 * next one after a restart by one read, instead of reading its chain up from block 1 to wrap
 * each block again (each container ID hashes its parent's).
 *
 *   <block number, 20 digits>   EVM block hash (32 bytes) ‖ container ID (32 bytes)
 *
 * The block hash is kept with the ID so that an entry the chain no longer holds (a block
 * replaced after evm_revert, or a chain moved back) is never taken for the block now at that
 * height. Entries are written on a staging of their own (not the blocks'), committed in the
 * background: an entry lost to a kill is found again by the slower way.
 */
export interface KeptContainerIds {
  /** The kept container ID of block `number` if the block kept there has hash `hash` (0x hex). */
  idOf(number: bigint, hash: string): Uint8Array | undefined;
  /** Keeps the container ID of block `number`, of EVM hash `hash`. */
  keep(number: bigint, hash: string, id: Uint8Array): void;
}

const ENTRY_BYTES = 64;

const keyOf = (number: bigint): string => number.toString().padStart(20, "0");

function hashBytes(hash: string): Uint8Array {
  return Buffer.from(hash.startsWith("0x") ? hash.slice(2) : hash, "hex");
}

export class StoredContainerIds implements KeptContainerIds {
  private committing = false;
  /** The last background commit, settled (failed or not): what closing the store waits for. */
  private lastCommit: Promise<void> = Promise.resolve();

  /**
   * `store`: a store with a staging of its own (DataDirectory.independentStore), under a
   * namespace of its own. `report`: told when a background commit fails (the IDs are then found
   * the slower way after a restart; nothing else depends on them).
   */
  constructor(
    private readonly store: DurableStore,
    private readonly report: (problem: string) => void,
  ) {}

  idOf(number: bigint, hash: string): Uint8Array | undefined {
    const key = keyOf(number);
    const value = this.store.getSync(key);
    if (value === undefined) return undefined;
    if (value.length !== ENTRY_BYTES) throw new DamagedRecordError(key, `a container ID record holds ${ENTRY_BYTES} bytes, this one ${value.length}`);
    if (!Buffer.from(value.subarray(0, 32)).equals(hashBytes(hash))) return undefined;
    return value.slice(32);
  }

  keep(number: bigint, hash: string, id: Uint8Array): void {
    if (id.length !== 32) throw new RangeError(`a container ID is 32 bytes, not ${id.length}`);
    const value = new Uint8Array(ENTRY_BYTES);
    value.set(hashBytes(hash), 0);
    value.set(id, 32);
    this.store.put(keyOf(number), value);
    this.commitSoon();
  }

  /** Resolves once every entry kept so far is written (or its write failed and was reported). */
  written(): Promise<void> {
    return this.lastCommit;
  }

  /** One commit for the entries kept in the same turn (a walk forward keeps many at once). */
  private commitSoon(): void {
    if (this.committing) return;
    this.committing = true;
    this.lastCommit = new Promise<void>((settled) =>
      queueMicrotask(() => {
        this.committing = false;
        this.store
          .commit()
          .catch((error: unknown) => this.report(`contract-chain container IDs not kept: ${error instanceof Error ? error.message : String(error)}`))
          .finally(settled);
      }),
    );
  }
}
