import { bytesToHex } from "../../encoding";
import type { DurableStore } from "../../storage";
import { MirroredRecords } from "../../storage/mirrored-records";
import { DamagedRecordError, encodeRecord, readingRecord, RecordReader, toHex } from "../../storage/record-codec";
import { decodeUtxo, utxoId } from "../../utxo/codec";
import { type StoredUtxo, storeUtxo } from "../../utxo/utxo-set";
import { type AliasWithNonce, decodeAliasWithNonce, encodeAliasWithNonce } from "../codec";
import type { FeeStateAt } from "../fees";

/*
 * The platform chain's state after its last block, in its store's "s/" namespace, so that
 * start-up reads it instead of replaying the blocks:
 *
 *   head               -> the last block's height and ID, the fee state it left, the fee schedule
 *                         that state was computed under, the next sequence numbers (JSON record)
 *   u/<input ID hex>   -> sequence number (8 bytes big-endian) ‖ UTXO bytes
 *   a/<alias ID hex>   -> sequence number ‖ AliasWithNonce bytes
 *
 * The sequence numbers keep the order things were added in: a UTXO's (the order in which the
 * node lists an address's UTXOs) and an alias's first creation (the order aliases are listed
 * in). The records are mirrored (MirroredRecords), so a snapshot's return stages exactly what
 * changed since.
 */

export interface PlatformStateHead {
  height: bigint;
  blockId: Uint8Array;
  fees: FeeStateAt;
  /** The fee schedule the fee state was computed under (feeScheduleKey). */
  feeSchedule: string;
}

export interface LoadedPlatformState {
  head: PlatformStateHead;
  /** In the order they were added. */
  utxos: StoredUtxo[];
  /** In the order they were first created. */
  aliases: AliasWithNonce[];
}

const HEAD_KEY = "head";
const hex = (b: Uint8Array): string => bytesToHex(b).slice(2);

/** A fee schedule as text, to tell whether a stored fee state was computed under the same one. */
export function feeScheduleKey(schedule: object): string {
  return JSON.stringify(schedule, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
}

function withSequence(sequence: number, bytes: Uint8Array): Uint8Array {
  const record = new Uint8Array(8 + bytes.length);
  new DataView(record.buffer).setBigUint64(0, BigInt(sequence), false);
  record.set(bytes, 8);
  return record;
}

function sequenceOf(key: string, record: Uint8Array): number {
  if (record.length < 8) throw new DamagedRecordError(key, "it is shorter than its sequence number");
  return Number(new DataView(record.buffer, record.byteOffset, 8).getBigUint64(0, false));
}

export class PlatformStateRecords {
  private nextUtxo = 0;
  private nextAlias = 0;

  private constructor(private readonly records: MirroredRecords) {}

  /** Records over `store` that holds none yet: `writeAll` then writes the whole state. */
  static empty(store: DurableStore): PlatformStateRecords {
    return new PlatformStateRecords(MirroredRecords.empty(store));
  }

  /**
   * The state `store` holds, each record checked. Throws DamagedRecordError naming a record
   * that does not read (or the missing head).
   */
  static async load(store: DurableStore): Promise<{ records: PlatformStateRecords; state: LoadedPlatformState }> {
    const records = new PlatformStateRecords(await MirroredRecords.load(store));
    const headBytes = records.records.get(HEAD_KEY);
    if (headBytes === undefined) throw new DamagedRecordError(HEAD_KEY, "it is missing, and the store says its state is kept");
    const reader = RecordReader.of(HEAD_KEY, headBytes);
    const head = readingRecord(HEAD_KEY, () => ({
      height: reader.bigint("height"),
      blockId: reader.bytes("blockId", 32),
      fees: { state: { capacity: reader.bigint("feeCapacity"), excess: reader.bigint("feeExcess") }, timestamp: reader.bigint("feeTime") },
      feeSchedule: reader.string("feeSchedule"),
    }));
    records.nextUtxo = readingRecord(HEAD_KEY, () => reader.count("nextUtxo"));
    records.nextAlias = readingRecord(HEAD_KEY, () => reader.count("nextAlias"));
    const utxos: { sequence: number; stored: StoredUtxo }[] = [];
    const aliases: { sequence: number; alias: AliasWithNonce }[] = [];
    for (const [key, value] of records.records.entries()) {
      if (key === HEAD_KEY) continue;
      const sequence = sequenceOf(key, value);
      const body = value.subarray(8);
      if (key.startsWith("u/")) {
        const stored = readingRecord(key, () => storeUtxo(decodeUtxo(body)));
        if (`u/${hex(stored.inputId)}` !== key) throw new DamagedRecordError(key, `it holds UTXO ${hex(stored.inputId)}`);
        utxos.push({ sequence, stored });
      } else if (key.startsWith("a/")) {
        const alias = readingRecord(key, () => decodeAliasWithNonce(body));
        if (`a/${hex(alias.alias.id)}` !== key) throw new DamagedRecordError(key, `it holds alias ${hex(alias.alias.id)}`);
        aliases.push({ sequence, alias });
      } else {
        throw new DamagedRecordError(key, "no state record has a key of this form");
      }
    }
    const bySequence = (a: { sequence: number }, b: { sequence: number }) => a.sequence - b.sequence;
    return {
      records,
      state: { head, utxos: utxos.sort(bySequence).map((u) => u.stored), aliases: aliases.sort(bySequence).map((a) => a.alias) },
    };
  }

  putUtxo(stored: StoredUtxo): void {
    this.records.put(`u/${hex(stored.inputId)}`, withSequence(this.nextUtxo++, stored.bytes));
  }

  delUtxo(txId: Uint8Array, outputIndex: number): void {
    this.records.del(`u/${hex(utxoId(txId, outputIndex))}`);
  }

  /** An alias created or changed (a change keeps the alias's place). */
  putAlias(alias: AliasWithNonce): void {
    const key = `a/${hex(alias.alias.id)}`;
    const current = this.records.get(key);
    const sequence = current === undefined ? this.nextAlias++ : sequenceOf(key, current);
    this.records.put(key, withSequence(sequence, encodeAliasWithNonce(alias)));
  }

  putHead(head: PlatformStateHead): void {
    const { height, blockId, fees, feeSchedule } = head;
    this.records.put(
      HEAD_KEY,
      encodeRecord({
        height: height.toString(),
        blockId: toHex(blockId),
        feeCapacity: fees.state.capacity.toString(),
        feeExcess: fees.state.excess.toString(),
        feeTime: fees.timestamp.toString(),
        feeSchedule,
        nextUtxo: this.nextUtxo,
        nextAlias: this.nextAlias,
      }),
    );
  }

  /** Stages the whole state (over whatever the records held: what is not in it is deleted). */
  writeAll(utxos: Iterable<StoredUtxo>, aliases: Iterable<AliasWithNonce>, head: PlatformStateHead): void {
    const stale = new Set([...this.records.entries()].map(([key]) => key));
    this.nextUtxo = 0;
    this.nextAlias = 0;
    for (const stored of utxos) {
      stale.delete(`u/${hex(stored.inputId)}`);
      this.putUtxo(stored);
    }
    for (const alias of aliases) {
      const key = `a/${hex(alias.alias.id)}`;
      stale.delete(key);
      this.records.del(key);
      this.putAlias(alias);
    }
    stale.delete(HEAD_KEY);
    this.putHead(head);
    for (const key of stale) this.records.del(key);
  }

  /** The records as they are now: the returned function stages the return to them. */
  capture(): () => void {
    const restoreRecords = this.records.capture();
    const { nextUtxo, nextAlias } = this;
    return () => {
      restoreRecords();
      this.nextUtxo = nextUtxo;
      this.nextAlias = nextAlias;
    };
  }
}
