import { bytesToHex } from "../encoding";
import type { DurableStore } from "../storage";
import { MirroredRecords } from "../storage/mirrored-records";
import type { AtomicElement, AtomicRequests } from "./element";
import { elementKey, elementRecord, readElement } from "./records";

export type { AtomicElement, AtomicRequests } from "./element";

/*
 * Shared atomic memory between chains, as the reference node keeps it: a chain that exports
 * puts UTXOs into the destination chain's inbox (keyed by the source chain), indexed by the
 * addresses that own them; the destination chain's import removes them. Put and remove of one
 * transaction are applied together or not at all.
 */

/** One page of an indexed listing. */
export interface IndexedPage {
  values: Uint8Array[];
  /** Where the next page starts (the last trait and key returned), undefined when done. */
  lastTrait: Uint8Array | undefined;
  lastKey: Uint8Array | undefined;
}

interface Inbox {
  /** key hex -> element */
  elements: Map<string, AtomicElement>;
}

export class AtomicMemoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AtomicMemoryError";
  }
}

export interface SharedMemoryOptions {
  /**
   * Where the inboxes are kept across restarts (the node's "atomic/" namespace), one record
   * per element. The memory only stages its changes, never commits: they are part of the
   * acceptance that makes them (an exchange-chain transaction, a contract-chain block), and
   * whoever completes that acceptance commits them with it, as one batch. Use
   * `SharedMemory.open` to read what a store already holds.
   */
  store?: DurableStore;
}

export class SharedMemory {
  /** destination chain hex -> source chain hex -> inbox */
  private readonly inboxes = new Map<string, Map<string, Inbox>>();
  /** The store's records, mirrored so that a snapshot restore stages exactly the difference. */
  private records: MirroredRecords | undefined;

  constructor(options: SharedMemoryOptions = {}) {
    this.records = options.store === undefined ? undefined : MirroredRecords.empty(options.store);
  }

  /** Shared memory over `store`, holding the elements it holds. Throws DamagedRecordError naming a record it cannot read. */
  static async open(store: DurableStore): Promise<SharedMemory> {
    const memory = new SharedMemory();
    const records = await MirroredRecords.load(store);
    for (const [key, bytes] of records.entries()) {
      const { destination, source, element } = readElement(key, bytes);
      memory.inbox(destination, source).elements.set(bytesToHex(element.key), element);
    }
    memory.records = records;
    return memory;
  }

  private inbox(destination: Uint8Array, source: Uint8Array): Inbox {
    const d = bytesToHex(destination);
    const s = bytesToHex(source);
    let bySource = this.inboxes.get(d);
    if (bySource === undefined) this.inboxes.set(d, (bySource = new Map()));
    let inbox = bySource.get(s);
    if (inbox === undefined) bySource.set(s, (inbox = { elements: new Map() }));
    return inbox;
  }

  /** Values for the given keys in `chain`'s inbox from `peerChain`; throws naming the first missing key. */
  get(chain: Uint8Array, peerChain: Uint8Array, keys: Uint8Array[]): Uint8Array[] {
    const inbox = this.inbox(chain, peerChain);
    return keys.map((key) => {
      const element = inbox.elements.get(bytesToHex(key));
      if (element === undefined) throw new AtomicMemoryError(`atomic UTXO ${bytesToHex(key)} not found: it was never exported to this chain or has already been imported`);
      return element.value;
    });
  }

  has(chain: Uint8Array, peerChain: Uint8Array, key: Uint8Array): boolean {
    return this.inbox(chain, peerChain).elements.has(bytesToHex(key));
  }

  /**
   * Elements of `chain`'s inbox from `peerChain` owned by any of `traits`, in a stable order
   * (by trait, then key), starting after (startTrait, startKey), at most `limit`.
   */
  indexed(chain: Uint8Array, peerChain: Uint8Array, traits: Uint8Array[], startTrait: Uint8Array | undefined, startKey: Uint8Array | undefined, limit: number): IndexedPage {
    const inbox = this.inbox(chain, peerChain);
    const sortedTraits = [...new Set(traits.map(bytesToHex))].sort();
    const startTraitHex = startTrait === undefined ? undefined : bytesToHex(startTrait);
    const startKeyHex = startKey === undefined ? undefined : bytesToHex(startKey);
    const values: Uint8Array[] = [];
    const seen = new Set<string>();
    let lastTrait: Uint8Array | undefined;
    let lastKey: Uint8Array | undefined;
    for (const trait of sortedTraits) {
      if (startTraitHex !== undefined && trait < startTraitHex) continue;
      const keys = [...inbox.elements.values()]
        .filter((e) => e.traits.some((t) => bytesToHex(t) === trait))
        .map((e) => bytesToHex(e.key))
        .sort();
      for (const keyHex of keys) {
        if (trait === startTraitHex && startKeyHex !== undefined && keyHex <= startKeyHex) continue;
        if (values.length >= limit) return { values, lastTrait, lastKey };
        const element = inbox.elements.get(keyHex)!;
        lastTrait = element.traits.find((t) => bytesToHex(t) === trait);
        lastKey = element.key;
        if (seen.has(keyHex)) continue;
        seen.add(keyHex);
        values.push(element.value);
      }
    }
    return { values, lastTrait, lastKey };
  }

  /**
   * The memory as it is now: the returned function puts it back to this state, as often as it
   * is called (evm_snapshot / evm_revert and hardhat_reset of a local network).
   */
  capture(): () => void {
    const saved = copyInboxes(this.inboxes);
    const restoreRecords = this.records?.capture();
    return () => {
      restoreRecords?.();
      this.inboxes.clear();
      for (const [destination, bySource] of copyInboxes(saved)) this.inboxes.set(destination, bySource);
    };
  }

  /**
   * Applies one transaction's atomic operations: per peer chain, puts into the peer's inbox
   * from `chain` and removes from `chain`'s inbox from the peer. Checked first, applied whole.
   */
  apply(chain: Uint8Array, requests: Map<Uint8Array, AtomicRequests> | [Uint8Array, AtomicRequests][]): void {
    const entries = requests instanceof Map ? [...requests.entries()] : requests;
    for (const [peer, request] of entries) {
      const inbox = this.inbox(chain, peer);
      const removing = new Set<string>();
      for (const key of request.remove ?? []) {
        const hex = bytesToHex(key);
        if (!inbox.elements.has(hex) || removing.has(hex)) throw new AtomicMemoryError(`atomic UTXO ${hex} is not available to import (already imported or never exported)`);
        removing.add(hex);
      }
      const outbox = this.inbox(peer, chain);
      for (const element of request.put ?? []) {
        if (outbox.elements.has(bytesToHex(element.key))) throw new AtomicMemoryError(`atomic UTXO ${bytesToHex(element.key)} already exists in the destination chain`);
      }
    }
    for (const [peer, request] of entries) {
      const inbox = this.inbox(chain, peer);
      for (const key of request.remove ?? []) {
        inbox.elements.delete(bytesToHex(key));
        this.records?.del(elementKey(chain, peer, key));
      }
      const outbox = this.inbox(peer, chain);
      for (const element of request.put ?? []) {
        outbox.elements.set(bytesToHex(element.key), element);
        this.records?.put(elementKey(peer, chain, element.key), elementRecord(element));
      }
    }
  }
}

/** The elements are never edited in place, so copying the maps that hold them is enough. */
function copyInboxes(inboxes: Map<string, Map<string, Inbox>>): Map<string, Map<string, Inbox>> {
  return new Map([...inboxes].map(([destination, bySource]) => [destination, new Map([...bySource].map(([source, inbox]) => [source, { elements: new Map(inbox.elements) }]))]));
}
