/**
 * The log index of a chain kept in a store: for each address and topic, the blocks whose logs
 * hold it, in sections of SECTION blocks (`l/<value>/<section>`, a list of big-endian uint32
 * block numbers). A block's entries are staged with the block, so the index is always the
 * chain's; a query reads the sections its range covers, a few reads per value however long
 * the chain (the in-memory chain's LogIndex keeps the same lists in a Map).
 */
import type { DurableStore } from "../../storage";
import { inRange, keysOf, matchingBlocks, type IndexedBlock } from "../log-index";
import type { LogFilter } from "../types";
import { logSectionKey } from "./stored-layout";

const SECTION = 1024;

export class StoredLogIndex {
  constructor(private readonly store: DurableStore) {}

  /** Stages the entries of `record`, the chain's new top block (staged again after an edit: nothing is added twice). */
  add(record: IndexedBlock): void {
    const number = Number(record.number);
    const section = Math.floor(number / SECTION);
    for (const value of keysOf(record)) {
      const list = this.section(value, section);
      if (list.length > 0 && list[list.length - 1]! >= number) continue;
      this.write(value, section, [...list, number]);
    }
  }

  /** Stages the removal of the entries of `record`, dropped from the chain, whose head is now below it. */
  remove(record: IndexedBlock): void {
    const number = Number(record.number);
    const section = Math.floor(number / SECTION);
    for (const value of keysOf(record)) {
      const list = this.section(value, section);
      const kept = list.filter((n) => n !== number);
      if (kept.length !== list.length) this.write(value, section, kept);
    }
  }

  /** As LogIndex.candidates, on a chain whose head is at `height`. */
  candidates(filter: LogFilter, height: bigint): number[] | undefined {
    return matchingBlocks(filter, (value, from, to) => {
      const last = Math.min(to, Number(height));
      const found: number[] = [];
      for (let section = Math.floor(Math.max(from, 0) / SECTION); section <= Math.floor(last / SECTION); section++) {
        for (const n of inRange(this.section(value, section), from, last)) found.push(n);
      }
      return found;
    });
  }

  private section(value: string, section: number): number[] {
    const bytes = this.store.getSync(logSectionKey(value, section));
    if (bytes === undefined) return [];
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const list = new Array<number>(bytes.byteLength >>> 2);
    for (let i = 0; i < list.length; i++) list[i] = view.getUint32(i * 4, false);
    return list;
  }

  private write(value: string, section: number, list: readonly number[]): void {
    const key = logSectionKey(value, section);
    if (list.length === 0) {
      this.store.del(key);
      return;
    }
    const bytes = new Uint8Array(list.length * 4);
    const view = new DataView(bytes.buffer);
    list.forEach((n, i) => view.setUint32(i * 4, n, false));
    this.store.put(key, bytes);
  }
}
