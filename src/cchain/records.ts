/**
 * The contract chain's accepted atomic transactions in the durable store (the node's "cvm/"
 * namespace): "tx/<cb58 ID>" -> { bytes (signed, hex), height (the block that accepted it) }.
 * That is what getAtomicTx / getAtomicTxStatus answer from after a restart; whether the block is
 * still in the chain is checked against the chain as it is, as before.
 *
 * Not kept: dropped transactions (a refusal is answered at once and changes no state), and no
 * mempool (each atomic transaction is accepted in a block of its own when issued).
 */
import type { AtomicChainHost } from "../engine/atomic-host";
import { encodeCb58 } from "../encoding";
import type { DurableStore } from "../storage";
import { DamagedRecordError, encodeRecord, readingRecord, RecordReader, toHex } from "../storage/record-codec";
import { parseSignedAtomicTx } from "./atomic-codec";

const TX = "tx/";

export interface AcceptedAtomicRecord {
  bytes: Uint8Array;
  height: bigint;
}

/** Stages the record of a transaction accepted at `height`. */
export function stageAcceptedAtomicTx(store: DurableStore, txId: string, record: AcceptedAtomicRecord): void {
  store.put(TX + txId, encodeRecord({ bytes: toHex(record.bytes), height: record.height.toString() }));
}

/** Every accepted transaction the store holds, by cb58 ID. Throws DamagedRecordError naming a record it cannot read. */
export async function loadAcceptedAtomicTxs(store: DurableStore): Promise<Map<string, AcceptedAtomicRecord>> {
  const records = new Map<string, AcceptedAtomicRecord>();
  for await (const [key, value] of store.entries()) {
    if (!key.startsWith(TX)) throw new DamagedRecordError(key, "the contract chain's atomic transactions keep no record of that name");
    const reader = RecordReader.of(key, value);
    const bytes = reader.bytes("bytes");
    const height = reader.bigint("height");
    const id = readingRecord(key, () => encodeCb58(parseSignedAtomicTx(bytes).id));
    if (key !== TX + id) reader.fail(`it holds transaction ${id}`);
    records.set(id, { bytes, height });
  }
  return records;
}

/**
 * The height the next block gets (one above the head), for a record staged while that block is
 * being made. The host tells only whether a height holds a block, and heights are dense from 0,
 * so the head is found by doubling then halving.
 */
export function nextBlockHeight(host: AtomicChainHost): bigint {
  let low = 0n;
  let high = 1n;
  while (host.blockAt(high) !== undefined) {
    low = high;
    high *= 2n;
  }
  while (high - low > 1n) {
    const mid = (low + high) / 2n;
    if (host.blockAt(mid) !== undefined) low = mid;
    else high = mid;
  }
  return low + 1n;
}
