/**
 * Shared memory's records in the durable store: one per element, under
 * "<destination chain>/<source chain>/<input ID>" (hex), holding the UTXO bytes and the
 * addresses that own it.
 */
import type { AtomicElement } from "./element";
import { encodeRecord, RecordReader, toHex } from "../storage/record-codec";

export function elementKey(destination: Uint8Array, source: Uint8Array, key: Uint8Array): string {
  return `${toHex(destination)}/${toHex(source)}/${toHex(key)}`;
}

export function elementRecord(element: AtomicElement): Uint8Array {
  return encodeRecord({ value: toHex(element.value), traits: element.traits.map(toHex) });
}

const KEY = /^([0-9a-f]{64})\/([0-9a-f]{64})\/([0-9a-f]{64})$/;

/** The element a record holds and the inbox it is in. Throws DamagedRecordError naming the key. */
export function readElement(key: string, bytes: Uint8Array): { destination: Uint8Array; source: Uint8Array; element: AtomicElement } {
  const record = RecordReader.of(key, bytes);
  const parts = KEY.exec(key);
  if (parts === null) return record.fail("the key is not <destination chain>/<source chain>/<input ID> in hex");
  const [destination, source, id] = parts.slice(1).map((hex) => new Uint8Array(Buffer.from(hex!, "hex")));
  return { destination: destination!, source: source!, element: { key: id!, value: record.bytes("value"), traits: record.bytesList("traits") } };
}
