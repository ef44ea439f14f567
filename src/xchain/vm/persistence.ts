/**
 * The exchange chain's records in the durable store (the node's "x/" namespace):
 *
 *   tx/<position, 10 digits>       acceptedAt (uint64 ms) ‖ genesis (1 byte) ‖ signed tx bytes
 *   alias/<alias>                  asset ID (a genesis asset's alias)
 *   utxo/<input ID hex>            sequence (uint64) ‖ UTXO bytes
 *   addr/<address>/<asset>/<position, 10 digits>   tx ID   (the address-transactions index)
 *
 * Assets and the transactions by ID are what the transactions in acceptance order make, so
 * they are rebuilt from them. A UTXO's sequence is the order it was added in, which decides
 * each address's listing order (newest first) and so getUTXOs's pages and the wallet's spending
 * order: loading adds the UTXOs again in that order.
 *
 * The chain stages each record as it changes; an accepted transaction commits (with the shared
 * memory it changed) before it is answered. A snapshot restore stages the difference (see
 * MirroredRecords), written by the next commit (the engine's, after evm_revert).
 */
import { encodeCb58, equalBytes } from "../../encoding";
import type { DurableStore } from "../../storage";
import { MirroredRecords } from "../../storage/mirrored-records";
import { DamagedRecordError, readingRecord, toHex } from "../../storage/record-codec";
import { decodeUtxo, parseSignedTx, type SignedTx } from "../../utxo/codec";
import { ExchangeStoreError } from "./errors";
import type { AcceptedTx } from "./types";
import { type StoredUtxo, storeUtxo } from "../../utxo/utxo-set";

const TX = "tx/";
const ALIAS = "alias/";
const UTXO = "utxo/";
const ADDR = "addr/";

const position = (index: number): string => String(index).padStart(10, "0");

/** A transaction as loaded, in acceptance order. */
export interface LoadedTx {
  id: Uint8Array;
  tx: SignedTx;
  bytes: Uint8Array;
  acceptedAt: number;
  genesis: boolean;
}

/** Everything the store holds for the chain. */
export interface LoadedExchangeChain {
  txs: LoadedTx[];
  aliases: { alias: string; assetId: Uint8Array }[];
  /** In the order they were added. */
  utxos: StoredUtxo[];
  /** In key order: by address, asset, then acceptance order. */
  addressTxs: { address: string; asset: string; txId: Uint8Array }[];
}

export class ExchangeChainRecords {
  /** The sequence the next UTXO gets: above every sequence in the store. */
  private nextSequence = 0n;
  /** Why the last commit failed: the chain then accepts nothing more (its memory is ahead of the store). */
  private failure: string | undefined;

  private constructor(private readonly records: MirroredRecords) {}

  /** Records for a store that holds nothing yet. */
  static fresh(store: DurableStore): ExchangeChainRecords {
    return new ExchangeChainRecords(MirroredRecords.empty(store));
  }

  /**
   * The records a store holds and what they describe (`loaded` is undefined for a store that
   * holds nothing). Throws DamagedRecordError naming a record it cannot read.
   */
  static async load(store: DurableStore): Promise<{ records: ExchangeChainRecords; loaded: LoadedExchangeChain | undefined }> {
    const mirror = await MirroredRecords.load(store);
    const records = new ExchangeChainRecords(mirror);
    if (mirror.size === 0) return { records, loaded: undefined };
    const loaded: LoadedExchangeChain = { txs: [], aliases: [], utxos: [], addressTxs: [] };
    const sequenced: { sequence: bigint; utxo: StoredUtxo }[] = [];
    for (const [key, value] of mirror.entries()) {
      readingRecord(key, () => {
        if (key.startsWith(TX)) loaded.txs.push(readTx(key, value, loaded.txs.length));
        else if (key.startsWith(ALIAS)) loaded.aliases.push({ alias: key.slice(ALIAS.length), assetId: fixed(key, value, 32) });
        else if (key.startsWith(UTXO)) sequenced.push(readUtxo(key, value));
        else if (key.startsWith(ADDR)) loaded.addressTxs.push(readAddressTx(key, value));
        else throw new DamagedRecordError(key, "the exchange chain keeps no record of that name");
      });
    }
    if (loaded.txs.length === 0) throw new DamagedRecordError(TX + position(0), "the store holds exchange-chain records but not its genesis transaction");
    sequenced.sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
    loaded.utxos = sequenced.map((s) => s.utxo);
    records.nextSequence = sequenced.length === 0 ? 0n : sequenced[sequenced.length - 1]!.sequence + 1n;
    return { records, loaded };
  }

  putTx(accepted: AcceptedTx): void {
    const value = new Uint8Array(9 + accepted.bytes.length);
    new DataView(value.buffer).setBigUint64(0, BigInt(accepted.acceptedAt));
    value[8] = accepted.genesis ? 1 : 0;
    value.set(accepted.bytes, 9);
    this.records.put(TX + position(accepted.index), value);
  }

  putAlias(alias: string, assetId: Uint8Array): void {
    this.records.put(ALIAS + alias, assetId);
  }

  putUtxo(stored: StoredUtxo): void {
    const value = new Uint8Array(8 + stored.bytes.length);
    new DataView(value.buffer).setBigUint64(0, this.nextSequence++);
    value.set(stored.bytes, 8);
    this.records.put(UTXO + toHex(stored.inputId), value);
  }

  delUtxo(inputId: Uint8Array): void {
    this.records.del(UTXO + toHex(inputId));
  }

  /** The index entries of an accepted transaction: each (address hex, asset hex) it touched. */
  putAddressTxs(pairs: readonly (readonly [string, string])[], accepted: AcceptedTx): void {
    for (const [address, asset] of pairs) this.records.put(`${ADDR}${address}/${asset}/${position(accepted.index)}`, accepted.id);
  }

  /** The records as they are now; the returned function stages the way back to them. */
  capture(): () => void {
    return this.records.capture();
  }

  /** Throws when an earlier commit failed. */
  assertWritable(): void {
    if (this.failure !== undefined) {
      throw new ExchangeStoreError(`the exchange chain accepts no more transactions: its store failed to write (${this.failure}); restart the node`);
    }
  }

  /** Commits everything staged (in every namespace); resolves once the store holds it. */
  async commit(): Promise<void> {
    this.assertWritable();
    try {
      await this.records.store.commit();
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
      throw new ExchangeStoreError(`the exchange chain's store could not write the transaction: ${this.failure}`);
    }
  }
}

/**
 * Refuses a store whose genesis transactions are not the ones this node's genesis makes (another
 * genesis: other funded addresses or another network's assets).
 */
export function checkSameGenesis(expected: readonly AcceptedTx[], loaded: readonly LoadedTx[]): void {
  const made = expected.filter((tx) => tx.genesis);
  const stored = loaded.filter((tx) => tx.genesis);
  const same = made.length === stored.length && made.every((tx, i) => equalBytes(tx.id, stored[i]!.id));
  if (!same) {
    throw new ExchangeStoreError(
      `the store holds an exchange chain with another genesis (transactions ${stored.map((t) => encodeCb58(t.id)).join(", ")}; ` +
        `this node's genesis makes ${made.map((t) => encodeCb58(t.id)).join(", ")}): start with the genesis options it was created with, or another --db-dir`,
    );
  }
}

function fixed(key: string, value: Uint8Array, length: number): Uint8Array {
  if (value.length !== length) throw new DamagedRecordError(key, `expected ${length} bytes, found ${value.length}`);
  return value;
}

function readTx(key: string, value: Uint8Array, index: number): LoadedTx {
  if (key !== TX + position(index)) throw new DamagedRecordError(key, `expected the transaction at position ${index} (${TX + position(index)}) here: a transaction is missing`);
  if (value.length < 9 || value[8]! > 1) throw new DamagedRecordError(key, "not an accepted-transaction record");
  const parsed = parseSignedTx(value.subarray(9));
  const acceptedAt = new DataView(value.buffer, value.byteOffset).getBigUint64(0);
  return { id: parsed.txId, tx: parsed.tx, bytes: parsed.signedBytes, acceptedAt: Number(acceptedAt), genesis: value[8] === 1 };
}

function readUtxo(key: string, value: Uint8Array): { sequence: bigint; utxo: StoredUtxo } {
  if (value.length < 8) throw new DamagedRecordError(key, "not a UTXO record");
  const utxo = storeUtxo(decodeUtxo(value.subarray(8)));
  if (toHex(utxo.inputId) !== key.slice(UTXO.length)) throw new DamagedRecordError(key, `the UTXO has input ID ${toHex(utxo.inputId)}, not the key's`);
  return { sequence: new DataView(value.buffer, value.byteOffset).getBigUint64(0), utxo };
}

const ADDR_KEY = /^addr\/([0-9a-f]{40})\/([0-9a-f]{64})\/[0-9]{10}$/;

function readAddressTx(key: string, value: Uint8Array): { address: string; asset: string; txId: Uint8Array } {
  const parts = ADDR_KEY.exec(key);
  if (parts === null) throw new DamagedRecordError(key, "the key is not addr/<address>/<asset>/<position>");
  return { address: parts[1]!, asset: parts[2]!, txId: fixed(key, value, 32) };
}
