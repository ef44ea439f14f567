/**
 * The exchange chain's records in the durable store (the node's "x/" namespace), layout 2:
 *
 *   layout                         "2" (absent in a store of layout 1, migrated at its first open)
 *   count                          how many transactions were accepted (uint64)
 *   tx/<position, 10 digits>       acceptedAt (uint64 ms) ‖ genesis (1 byte) ‖ signed tx bytes
 *   id/<tx ID hex>                 the transaction's position (uint64)
 *   asset/<position, 10 digits>    the ID of the asset the CreateAssetTx at that position made
 *   alias/<alias>                  asset ID (a genesis asset's alias)
 *   utxo/<input ID hex>            sequence (uint64) ‖ UTXO bytes
 *   an/<address>/<asset>           how many transactions the address-transactions index holds for the pair
 *   ai/<address>/<asset>/<ordinal, 10 digits>       tx ID (the pair's transactions in acceptance order)
 *   ap/<position, 10 digits>       the (address ‖ asset) pairs the transaction at that position indexed
 *
 * Opening reads the count, the genesis transactions, the assets' creations, the aliases and the
 * UTXOs; any other transaction is read when asked for (accepted-txs.ts), as the platform chain
 * reads its blocks, and a page of the address index (getAddressTxs) reads its entries by ordinal.
 * Layout 1 had no `layout`, `count`, `id/`, `asset/`, and its address index was
 * `addr/<address>/<asset>/<position>` -> tx ID: its first open reads every transaction and index
 * entry once and writes them in layout 2.
 *
 * A UTXO's sequence is the order it was added in, which decides each address's listing order
 * (newest first) and so getUTXOs's pages and the wallet's spending order: loading adds the UTXOs
 * again in that order.
 *
 * The chain stages each record as it changes; an accepted transaction commits (with the shared
 * memory it changed) before it is answered. A snapshot restore stages the difference of the
 * mirrored records (alias/, utxo/: see MirroredRecords) and the removal of the transactions
 * accepted since with their address-index entries (accepted-txs.ts), written by the next commit
 * (the engine's, after evm_revert).
 */
import { encodeCb58, equalBytes } from "../../encoding";
import type { DurableStore } from "../../storage";
import { MirroredRecords } from "../../storage/mirrored-records";
import { DamagedRecordError, readingRecord, toHex } from "../../storage/record-codec";
import { decodeUtxo, parseSignedTx, type SignedTx, TypeId } from "../../utxo/codec";
import { ExchangeStoreError } from "./errors";
import type { AcceptedTx } from "./types";
import { type StoredUtxo, storeUtxo } from "../../utxo/utxo-set";

const LAYOUT = "layout";
const EXCHANGE_LAYOUT = 2;
const COUNT = "count";
const TX = "tx/";
const TX_ID = "id/";
const ASSET = "asset/";
const ALIAS = "alias/";
const UTXO = "utxo/";
/** Layout 1's address index. */
const ADDR = "addr/";
const ADDR_COUNT = "an/";
const ADDR_TX = "ai/";
const TX_PAIRS = "ap/";
/** The records kept in memory (and restored by difference). */
const MIRRORED = [ALIAS, UTXO];
/** An address-index pair as stored in `ap/`: address (20 bytes) ‖ asset (32 bytes). */
const PAIR_BYTES = 52;
/** Index entries are committed every this many transactions while a store of layout 1 is migrated. */
const MIGRATION_BATCH = 1000;

const position = (index: number): string => String(index).padStart(10, "0");
const uint64 = (value: number | bigint): Uint8Array => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value));
  return bytes;
};

/** A transaction as loaded. */
export interface LoadedTx {
  id: Uint8Array;
  tx: SignedTx;
  bytes: Uint8Array;
  acceptedAt: number;
  genesis: boolean;
  index: number;
}

/** What opening reads of the chain. */
export interface LoadedExchangeChain {
  /** How many transactions the chain accepted (genesis included). */
  txCount: number;
  /** The genesis transactions, first in acceptance order. */
  genesisTxs: LoadedTx[];
  /** The transactions that created an asset, in acceptance order. */
  assetTxs: LoadedTx[];
  aliases: { alias: string; assetId: Uint8Array }[];
  /** In the order they were added. */
  utxos: StoredUtxo[];
}

export class ExchangeChainRecords {
  /** The sequence the next UTXO gets: above every sequence in the store. */
  private nextSequence = 0n;
  /** Why the last commit failed: the chain then accepts nothing more (its memory is ahead of the store). */
  private failure: string | undefined;

  private constructor(private readonly records: MirroredRecords) {}

  private get store(): DurableStore {
    return this.records.store;
  }

  /** Records for a store that holds nothing yet (its layout staged). */
  static fresh(store: DurableStore): ExchangeChainRecords {
    store.put(LAYOUT, new TextEncoder().encode(String(EXCHANGE_LAYOUT)));
    return new ExchangeChainRecords(MirroredRecords.empty(store));
  }

  /**
   * The records a store holds and what opening needs of them (`loaded` is undefined for a store
   * that holds nothing). Throws DamagedRecordError naming a record it cannot read,
   * ExchangeStoreError for a layout this version does not know.
   */
  static async load(store: DurableStore): Promise<{ records: ExchangeChainRecords; loaded: LoadedExchangeChain | undefined }> {
    const layout = await store.get(LAYOUT);
    if (layout === undefined) {
      if (!(await holdsAnything(store))) return { records: ExchangeChainRecords.fresh(store), loaded: undefined };
      await migrate(store);
    } else if (new TextDecoder().decode(layout) !== String(EXCHANGE_LAYOUT)) {
      throw new ExchangeStoreError(`the data directory holds an exchange chain in layout "${new TextDecoder().decode(layout)}", which this version does not know (it reads layouts 1 and ${EXCHANGE_LAYOUT}): start it with the version that wrote it, or use another --db-dir`);
    }
    const mirror = await MirroredRecords.load(store, MIRRORED);
    const records = new ExchangeChainRecords(mirror);
    const loaded = await records.read();
    return { records, loaded };
  }

  /** The records of layout 2 that opening reads. */
  private async read(): Promise<LoadedExchangeChain> {
    const txCount = this.readCount();
    const loaded: LoadedExchangeChain = { txCount, genesisTxs: [], assetTxs: [], aliases: [], utxos: [] };
    for (let index = 0; index < txCount; index++) {
      const tx = this.readTx(index);
      if (tx === undefined) throw new DamagedRecordError(TX + position(index), `the transaction at position ${index}, below the count ${txCount}, is not stored`);
      if (!tx.genesis) break;
      loaded.genesisTxs.push(tx);
    }
    if (loaded.genesisTxs.length === 0) throw new DamagedRecordError(TX + position(0), "the store holds exchange-chain records but not its genesis transaction");
    for await (const [key, value] of this.store.entries(ASSET)) {
      const index = readingRecord(key, () => positionOf(key, ASSET));
      const tx = index < txCount ? this.readTx(index) : undefined;
      if (tx === undefined || tx.tx.unsignedTx.typeId !== TypeId.CreateAssetTx || !equalBytes(tx.id, fixed(key, value, 32))) {
        throw new DamagedRecordError(key, "it names no asset-creating transaction at its position");
      }
      loaded.assetTxs.push(tx);
    }
    const sequenced: { sequence: bigint; utxo: StoredUtxo }[] = [];
    for (const [key, value] of this.records.entries()) {
      readingRecord(key, () => {
        if (key.startsWith(ALIAS)) loaded.aliases.push({ alias: key.slice(ALIAS.length), assetId: fixed(key, value, 32) });
        else sequenced.push(readUtxo(key, value));
      });
    }
    sequenced.sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
    loaded.utxos = sequenced.map((s) => s.utxo);
    this.nextSequence = sequenced.length === 0 ? 0n : sequenced[sequenced.length - 1]!.sequence + 1n;
    return loaded;
  }

  /** The stored count, checked against the transactions stored around it. */
  private readCount(): number {
    const value = this.store.getSync(COUNT);
    if (value === undefined) throw new DamagedRecordError(COUNT, "the store holds exchange-chain records but not how many transactions it accepted");
    const count = Number(readUint64(COUNT, value));
    if (count < 1 || this.store.getSync(TX + position(count - 1)) === undefined || this.store.getSync(TX + position(count)) !== undefined) {
      throw new DamagedRecordError(COUNT, `it says ${count} transactions, and the transactions stored end elsewhere`);
    }
    return count;
  }

  /** The transaction at `index`, read now (undefined when none is stored there). */
  readTx(index: number): LoadedTx | undefined {
    const key = TX + position(index);
    const value = this.store.getSync(key);
    return value === undefined ? undefined : readingRecord(key, () => readTx(key, value, index));
  }

  /** The position of the transaction `id` (undefined when none is indexed). */
  txPosition(id: Uint8Array): number | undefined {
    const key = TX_ID + toHex(id);
    const value = this.store.getSync(key);
    return value === undefined ? undefined : Number(readUint64(key, value));
  }

  putTx(accepted: AcceptedTx): void {
    this.store.put(TX + position(accepted.index), txRecord(accepted));
    this.store.put(TX_ID + toHex(accepted.id), uint64(accepted.index));
    if (accepted.tx.unsignedTx.typeId === TypeId.CreateAssetTx) this.store.put(ASSET + position(accepted.index), accepted.id);
    this.store.put(COUNT, uint64(accepted.index + 1));
  }

  /** Stages the removal of the last transaction (`accepted`, at the end of `count`) and of its address-index entries. */
  dropTx(accepted: AcceptedTx): void {
    const pairsKey = TX_PAIRS + position(accepted.index);
    const pairs = this.store.getSync(pairsKey);
    for (const pair of pairs === undefined ? [] : readPairs(pairsKey, pairs)) {
      const ordinal = this.addressTxCount(pair) - 1;
      const key = `${ADDR_TX}${pair}/${position(ordinal)}`;
      const last = this.store.getSync(key);
      if (last === undefined || !equalBytes(last, accepted.id)) throw new DamagedRecordError(key, `expected the last entry of the pair to be transaction ${toHex(accepted.id)}, being taken back`);
      this.store.del(key);
      if (ordinal === 0) this.store.del(ADDR_COUNT + pair);
      else this.store.put(ADDR_COUNT + pair, uint64(ordinal));
    }
    this.store.del(pairsKey);
    this.store.del(TX + position(accepted.index));
    this.store.del(TX_ID + toHex(accepted.id));
    this.store.del(ASSET + position(accepted.index));
    this.store.put(COUNT, uint64(accepted.index));
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
    if (pairs.length === 0) return;
    for (const [address, asset] of pairs) {
      const pair = `${address}/${asset}`;
      const ordinal = this.addressTxCount(pair);
      this.store.put(`${ADDR_TX}${pair}/${position(ordinal)}`, accepted.id);
      this.store.put(ADDR_COUNT + pair, uint64(ordinal + 1));
    }
    this.store.put(TX_PAIRS + position(accepted.index), Buffer.from(pairs.map(([address, asset]) => address + asset).join(""), "hex"));
  }

  /** The transactions of (`address`, `asset`) (hex) from `cursor`, at most `pageSize`, read now. */
  addressTxPage(address: string, asset: string, cursor: bigint, pageSize: number): Uint8Array[] {
    const pair = `${address}/${asset}`;
    const count = BigInt(this.addressTxCount(pair));
    const page: Uint8Array[] = [];
    for (let ordinal = cursor; ordinal < count && page.length < pageSize; ordinal++) {
      const key = `${ADDR_TX}${pair}/${position(Number(ordinal))}`;
      const value = this.store.getSync(key);
      if (value === undefined) throw new DamagedRecordError(key, `the pair's entry ${ordinal}, below its count ${count}, is not stored`);
      page.push(fixed(key, value, 32));
    }
    return page;
  }

  private addressTxCount(pair: string): number {
    const value = this.store.getSync(ADDR_COUNT + pair);
    return value === undefined ? 0 : Number(readUint64(ADDR_COUNT + pair, value));
  }

  /** The mirrored records as they are now; the returned function stages the way back to them. */
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

async function holdsAnything(store: DurableStore): Promise<boolean> {
  for await (const entry of store.entries()) return entry !== undefined;
  return false;
}

/**
 * Layout 1 to 2: every transaction read once (in order, none missing), its `id/` and `asset/`
 * entries written, then the count and the layout (a migration cut short runs again).
 */
async function migrate(store: DurableStore): Promise<void> {
  let count = 0;
  for await (const [key, value] of store.entries(TX)) {
    const tx = readingRecord(key, () => readTx(key, value, count));
    store.put(TX_ID + toHex(tx.id), uint64(count));
    if (tx.tx.unsignedTx.typeId === TypeId.CreateAssetTx) store.put(ASSET + position(count), tx.id);
    count++;
    if (count % MIGRATION_BATCH === 0) await store.commit();
  }
  if (count === 0) throw new DamagedRecordError(TX + position(0), "the store holds exchange-chain records but not its genesis transaction");
  await migrateAddressIndex(store);
  store.put(COUNT, uint64(count));
  store.put(LAYOUT, new TextEncoder().encode(String(EXCHANGE_LAYOUT)));
  await store.commit();
}

/**
 * Refuses a store whose genesis transactions are not the ones this node's genesis makes (another
 * genesis: other funded addresses or another network's assets).
 */
export function checkSameGenesis(expected: readonly AcceptedTx[], stored: readonly LoadedTx[]): void {
  const made = expected.filter((tx) => tx.genesis);
  const same = made.length === stored.length && made.every((tx, i) => equalBytes(tx.id, stored[i]!.id));
  if (!same) {
    throw new ExchangeStoreError(
      `the store holds an exchange chain with another genesis (transactions ${stored.map((t) => encodeCb58(t.id)).join(", ")}; ` +
        `this node's genesis makes ${made.map((t) => encodeCb58(t.id)).join(", ")}): start with the genesis options it was created with, or another --db-dir`,
    );
  }
}

/**
 * Layout 1's address index (addr/, in pair then acceptance order) as layout 2's ai/, an/ and ap/.
 * The ai/ entries committed in batches are the same when a migration cut short runs again; the
 * addr/ entries are removed with the layout record, in the last commit.
 */
async function migrateAddressIndex(store: DurableStore): Promise<void> {
  const counts = new Map<string, number>();
  const pairsAt = new Map<number, string[]>();
  let done = 0;
  for await (const [key, value] of store.entries(ADDR)) {
    const { address, asset, txId, at } = readingRecord(key, () => readAddressTx(key, value));
    const pair = `${address}/${asset}`;
    const ordinal = counts.get(pair) ?? 0;
    store.put(`${ADDR_TX}${pair}/${position(ordinal)}`, txId);
    counts.set(pair, ordinal + 1);
    const pairs = pairsAt.get(at) ?? [];
    pairs.push(address + asset);
    pairsAt.set(at, pairs);
    if (++done % MIGRATION_BATCH === 0) await store.commit();
  }
  for await (const [key] of store.entries(ADDR)) store.del(key);
  for (const [pair, count] of counts) store.put(ADDR_COUNT + pair, uint64(count));
  for (const [at, pairs] of pairsAt) store.put(TX_PAIRS + position(at), Buffer.from(pairs.join(""), "hex"));
}

function readPairs(key: string, value: Uint8Array): string[] {
  if (value.length === 0 || value.length % PAIR_BYTES !== 0) throw new DamagedRecordError(key, `expected (address ‖ asset) pairs of ${PAIR_BYTES} bytes, found ${value.length} bytes`);
  const pairs: string[] = [];
  for (let offset = 0; offset < value.length; offset += PAIR_BYTES) {
    pairs.push(`${toHex(value.subarray(offset, offset + 20))}/${toHex(value.subarray(offset + 20, offset + PAIR_BYTES))}`);
  }
  return pairs;
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
  return { id: parsed.txId, tx: parsed.tx, bytes: parsed.signedBytes, acceptedAt: Number(acceptedAt), genesis: value[8] === 1, index };
}

function txRecord(accepted: AcceptedTx): Uint8Array {
  const value = new Uint8Array(9 + accepted.bytes.length);
  new DataView(value.buffer).setBigUint64(0, BigInt(accepted.acceptedAt));
  value[8] = accepted.genesis ? 1 : 0;
  value.set(accepted.bytes, 9);
  return value;
}

function readUint64(key: string, value: Uint8Array): bigint {
  if (value.length !== 8) throw new DamagedRecordError(key, `expected 8 bytes, found ${value.length}`);
  return new DataView(value.buffer, value.byteOffset, 8).getBigUint64(0);
}

function positionOf(key: string, prefix: string): number {
  const digits = key.slice(prefix.length);
  if (!/^[0-9]{10}$/.test(digits)) throw new DamagedRecordError(key, `the key is not ${prefix}<position, 10 digits>`);
  return Number(digits);
}

function readUtxo(key: string, value: Uint8Array): { sequence: bigint; utxo: StoredUtxo } {
  if (value.length < 8) throw new DamagedRecordError(key, "not a UTXO record");
  const utxo = storeUtxo(decodeUtxo(value.subarray(8)));
  if (toHex(utxo.inputId) !== key.slice(UTXO.length)) throw new DamagedRecordError(key, `the UTXO has input ID ${toHex(utxo.inputId)}, not the key's`);
  return { sequence: new DataView(value.buffer, value.byteOffset).getBigUint64(0), utxo };
}

const ADDR_KEY = /^addr\/([0-9a-f]{40})\/([0-9a-f]{64})\/([0-9]{10})$/;

function readAddressTx(key: string, value: Uint8Array): { address: string; asset: string; txId: Uint8Array; at: number } {
  const parts = ADDR_KEY.exec(key);
  if (parts === null) throw new DamagedRecordError(key, "the key is not addr/<address>/<asset>/<position>");
  return { address: parts[1]!, asset: parts[2]!, txId: fixed(key, value, 32), at: Number(parts[3]) };
}
