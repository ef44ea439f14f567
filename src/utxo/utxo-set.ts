import { bytesToHex } from "../encoding";
import { encodeUtxo, type Output, type Utxo, utxoId } from "./codec";

/** A UTXO as the chain stores it: the structure, its bytes and its input ID. */
export interface StoredUtxo {
  utxo: Utxo;
  /** Codec bytes (what getUTXOs returns and shared memory holds). */
  bytes: Uint8Array;
  /** sha256(output index ‖ tx ID): the key the node stores it under. */
  inputId: Uint8Array;
}

/** Addresses (short IDs) named by any output type (all of them embed output owners). */
export function ownersOf(output: Output): Uint8Array[] {
  return output.addresses;
}

export function storeUtxo(utxo: Utxo): StoredUtxo {
  return { utxo, bytes: encodeUtxo(utxo), inputId: utxoId(utxo.txId, utxo.outputIndex) };
}

const hex = (bytes: Uint8Array): string => bytesToHex(bytes).slice(2);

/**
 * The UTXO set with the node's per-address index. The reference node keeps, per address, a
 * linked list whose head is the most recently added UTXO; listing walks from the head
 * (newest first), and a listing that starts at a UTXO no longer in the list starts over at
 * the head. This class reproduces that order, which decides which UTXOs a wallet spends first
 * and how getUTXOs pages.
 */
export class UtxoSet {
  /** input ID hex -> UTXO */
  private readonly byId = new Map<string, StoredUtxo>();
  /** address hex -> input ID hex, in insertion order (oldest first). */
  private readonly byAddress = new Map<string, Set<string>>();

  get size(): number {
    return this.byId.size;
  }

  get(inputId: Uint8Array): StoredUtxo | undefined {
    return this.byId.get(hex(inputId));
  }

  has(inputId: Uint8Array): boolean {
    return this.byId.has(hex(inputId));
  }

  add(stored: StoredUtxo): void {
    const id = hex(stored.inputId);
    this.byId.set(id, stored);
    for (const address of ownersOf(stored.utxo.output)) {
      const key = hex(address);
      let list = this.byAddress.get(key);
      if (list === undefined) this.byAddress.set(key, (list = new Set()));
      list.add(id);
    }
  }

  remove(inputId: Uint8Array): void {
    const id = hex(inputId);
    const stored = this.byId.get(id);
    if (stored === undefined) return;
    this.byId.delete(id);
    for (const address of ownersOf(stored.utxo.output)) {
      const key = hex(address);
      const list = this.byAddress.get(key);
      list?.delete(id);
      if (list !== undefined && list.size === 0) this.byAddress.delete(key);
    }
  }

  /**
   * The set as it is now: the returned function puts it back to this state, as often as it is
   * called. Adding the UTXOs again in their first order rebuilds each address's list in its
   * order too.
   */
  capture(): () => void {
    const saved = [...this.byId.values()];
    return () => {
      this.byId.clear();
      this.byAddress.clear();
      for (const stored of saved) this.add(stored);
    };
  }

  clear(): void {
    this.byId.clear();
    this.byAddress.clear();
  }

  /** Every UTXO, in no particular order. */
  all(): IterableIterator<StoredUtxo> {
    return this.byId.values();
  }

  /**
   * Input IDs of the UTXOs that name `address`, newest first, starting after `start` when
   * `start` is still in the address's list (from the newest otherwise), at most `limit`.
   */
  idsOf(address: Uint8Array, start: Uint8Array | undefined, limit: number): Uint8Array[] {
    const list = this.byAddress.get(hex(address));
    if (list === undefined) return [];
    const newestFirst = [...list].reverse();
    let from = 0;
    if (start !== undefined) {
      const at = newestFirst.indexOf(hex(start));
      if (at >= 0) from = at + 1;
    }
    return newestFirst.slice(from, from + limit).map((id) => this.byId.get(id)!.inputId);
  }

  /**
   * The node's paginated listing over several addresses: addresses in byte order, each
   * address's UTXOs newest first, each UTXO once; resumes after (startAddress, startUtxo).
   * Returns the UTXOs and where the listing stopped (the last address searched and the last
   * UTXO ID looked at).
   */
  page(
    addresses: Uint8Array[],
    startAddress: Uint8Array | undefined,
    startUtxo: Uint8Array | undefined,
    limit: number,
  ): { utxos: StoredUtxo[]; lastAddress: Uint8Array; lastUtxo: Uint8Array } {
    const sorted = dedupe(addresses).sort((a, b) => Buffer.compare(a, b));
    const seen = new Set<string>();
    const utxos: StoredUtxo[] = [];
    let lastAddress = startAddress ?? new Uint8Array(20);
    let lastUtxo = startUtxo ?? new Uint8Array(32);
    let remaining = limit;
    for (const address of sorted) {
      let start: Uint8Array | undefined;
      if (startAddress !== undefined) {
        const c = Buffer.compare(address, startAddress);
        if (c < 0) continue;
        if (c === 0) start = startUtxo;
      }
      lastAddress = address;
      for (const id of this.idsOf(address, start, limit)) {
        lastUtxo = id;
        const key = hex(id);
        if (seen.has(key)) continue;
        seen.add(key);
        utxos.push(this.byId.get(key)!);
        remaining--;
        if (remaining <= 0) return { utxos, lastAddress, lastUtxo };
      }
    }
    return { utxos, lastAddress, lastUtxo };
  }
}

/** The addresses without repeats (the first of each kept), in their order. */
export function dedupe(addresses: Uint8Array[]): Uint8Array[] {
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  for (const a of addresses) {
    const key = hex(a);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(a);
    }
  }
  return out;
}
