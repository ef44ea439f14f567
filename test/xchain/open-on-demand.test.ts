import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SharedMemory } from "../../src/atomic/shared-memory";
import { decodeCb58 as decodeId, encodeCb58 } from "../../src/encoding";
import { LOCAL_NETWORK } from "../../src/network/constants";
import { type DurableStore, durableStore, LevelBackend, type StoreBackend } from "../../src/storage";
import { localGenesis } from "../../src/xchain/genesis";
import { ExchangeChain } from "../../src/xchain/vm";
import { AVAX, EWOQ, EWOQ_GENESIS_UTXO, ewoqSend, type Spendable } from "./vm/helpers";

/**
 * What opening an exchange chain kept in a store reads of its transactions: the genesis and
 * the count's neighbours, the same for a short chain as for a longer one; any other transaction
 * is read when asked for, once while it stays cached. The store is a real LevelDB; the backend
 * in front of it counts the transaction records (`x/tx/`) read.
 */

class CountingBackend implements StoreBackend {
  txReads: string[] = [];
  /** Address-index records (x/ai/, x/an/, x/ap/) read. */
  indexReads: string[] = [];
  constructor(private readonly inner: StoreBackend) {}
  private note(key: string): void {
    if (key.startsWith("x/tx/")) this.txReads.push(key);
    if (/^x\/a[inp]\//.test(key)) this.indexReads.push(key);
  }
  get(key: string): Promise<Uint8Array | undefined> {
    this.note(key);
    return this.inner.get(key);
  }
  getSync(key: string): Uint8Array | undefined {
    this.note(key);
    return this.inner.getSync(key);
  }
  write(ops: ReadonlyMap<string, Uint8Array | undefined>): Promise<void> {
    return this.inner.write(ops);
  }
  async *entries(prefix: string): AsyncIterable<[string, Uint8Array]> {
    for await (const entry of this.inner.entries(prefix)) {
      this.note(entry[0]);
      yield entry;
    }
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

const open = (store: DurableStore, txCacheSize?: number): Promise<ExchangeChain> =>
  ExchangeChain.open({ network: LOCAL_NETWORK, sharedMemory: new SharedMemory(), genesis: localGenesis(LOCAL_NETWORK), clock: () => 1_700_000_000n, store: store.namespace("x/"), txCacheSize });

/** A send of 1 nAVAX to address `n` (20 bytes of n) spending `spend`, the change back to ewoq. */
const send = (spend: Spendable, n: number) => ewoqSend(spend, new Uint8Array(20).fill(n));

/** Ewoq's one UTXO (the last change). */
function ewoqChange(chain: ExchangeChain): Spendable {
  const [utxo] = chain.getBalance(EWOQ, AVAX).utxos;
  return { txId: utxo!.txId, outputIndex: utxo!.outputIndex, amount: (utxo!.output as { amount: bigint }).amount };
}

/** A chain of `count` sends (each spends the previous change), committed; returns the IDs in order. */
async function build(location: string, count: number): Promise<string[]> {
  const backend = await LevelBackend.open(location);
  const chain = await open(durableStore(backend));
  const ids: string[] = [];
  let spend: Spendable = { txId: EWOQ_GENESIS_UTXO.txId, outputIndex: EWOQ_GENESIS_UTXO.outputIndex, amount: EWOQ_GENESIS_UTXO.amount };
  for (let i = 0; i < count; i++) {
    const { bytes, change } = send(spend, i + 1);
    ids.push(encodeCb58(await chain.issue(bytes)));
    spend = change;
  }
  await backend.close();
  return ids;
}

describe("exchange chain: opening reads the transactions on demand", () => {
  let dir: string;
  const built: Record<number, string[]> = {};
  before(async function () {
    this.timeout(60_000);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-xopen-"));
    for (const count of [10, 60]) built[count] = await build(path.join(dir, String(count)), count);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const reopen = async (count: number, txCacheSize?: number) => {
    const backend = new CountingBackend(await LevelBackend.open(path.join(dir, String(count))));
    const store = durableStore(backend);
    const chain = await open(store, txCacheSize);
    return { backend, store, chain, close: () => backend.close() };
  };

  it("reads the same transaction records at open for 10 and for 60 accepted transactions", async () => {
    const reads: number[] = [];
    for (const count of [10, 60]) {
      const { backend, chain, close } = await reopen(count);
      expect(chain.acceptedCount()).to.equal(count + 1); // the local genesis has one transaction
      reads.push(backend.txReads.length);
      expect(backend.indexReads).to.deep.equal([]);
      await close();
    }
    expect(reads[1]).to.equal(reads[0]);
    // The genesis and the one after it, the last and the one after (absent), the asset's creation (the genesis again).
    expect(reads[0]).to.equal(5);
  });

  it("reads a transaction asked for by ID once, while it stays cached", async () => {
    const { backend, chain, close } = await reopen(60);
    const atOpen = backend.txReads.length;
    const id = built[60]![30]!;
    expect(encodeCb58(chain.getTx(decodeId(id))!.id)).to.equal(id);
    expect(backend.txReads.slice(atOpen)).to.deep.equal(["x/tx/0000000031"]);
    expect(chain.getTxStatus(decodeId(id))).to.equal("Accepted");
    expect(backend.txReads.length).to.equal(atOpen + 1);
    await close();
  });

  it("reads a page of an address's transactions from the index entries of that page", async () => {
    const { backend, chain, close } = await reopen(60);
    const page = chain.getAddressTxs(EWOQ, AVAX, 20n, 5);
    expect(page.map((id) => encodeCb58(id))).to.deep.equal(built[60]!.slice(20, 25));
    const pair = `${Buffer.from(EWOQ).toString("hex")}/${Buffer.from(AVAX).toString("hex")}`;
    expect(backend.indexReads).to.deep.equal([`x/an/${pair}`, ...[20, 21, 22, 23, 24].map((n) => `x/ai/${pair}/00000000${n}`)]);
    expect(chain.getAddressTxs(EWOQ, AVAX, 60n, 5)).to.deep.equal([]);
    await close();
  });

  it("takes back the transactions and index entries accepted after a snapshot, in the store too", async () => {
    const { store, chain, close } = await reopen(10);
    const before = { count: chain.acceptedCount(), page: chain.getAddressTxs(EWOQ, AVAX, 0n, 100), change: ewoqChange(chain) };
    const restore = chain.capture();
    const first = send(before.change, 200);
    await chain.issue(first.bytes);
    const second = await chain.issue(send(first.change, 201).bytes);
    restore();
    await store.commit(); // the engine's commit after evm_revert
    const after = async (reopened: ExchangeChain) => {
      expect(reopened.acceptedCount()).to.equal(before.count);
      expect(reopened.getTx(second)).to.equal(undefined);
      expect(reopened.getAddressTxs(EWOQ, AVAX, 0n, 100)).to.deep.equal(before.page);
      expect(reopened.getAddressTxs(new Uint8Array(20).fill(200), AVAX, 0n, 100)).to.deep.equal([]);
      expect(ewoqChange(reopened)).to.deep.equal(before.change);
    };
    await after(chain);
    await close();
    const again = await reopen(10);
    await after(again.chain);
    expect(again.backend.getSync(`x/tx/${String(before.count).padStart(10, "0")}`)).to.equal(undefined);
    await again.close();
  });

  it("answers every transaction after a restart as the chain that accepted them, with a cache of one", async () => {
    const { chain, close } = await reopen(60, 1);
    const answers = built[60]!.map((id) => chain.getTx(decodeId(id))).map((tx) => [encodeCb58(tx!.id), tx!.index, Buffer.from(tx!.bytes).toString("hex")]);
    expect(answers.map(([id]) => id)).to.deep.equal(built[60]);
    expect(answers.map(([, index]) => index)).to.deep.equal(built[60]!.map((_, i) => i + 1));
    expect(chain.acceptedTxAt(60)!.id).to.deep.equal(decodeId(built[60]![59]!));
    expect(chain.acceptedTxAt(61)).to.equal(undefined);
    await close();
  });
});

