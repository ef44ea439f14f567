/**
 * How opening the exchange chain on its store grows with the chain (issue 28 item 3).
 *
 *   npx ts-node bench/xchain-open.ts build DIR N [flat]
 *                                                  builds DIR: a LevelDB store whose exchange chain
 *                                                  accepted N BaseTxs (each spends the previous one's
 *                                                  change, pays 1 nAVAX to one of 16 addresses, so
 *                                                  the UTXO set grows by one per transaction; with
 *                                                  `flat`, pays only the change back, so the UTXO set
 *                                                  stays one UTXO and only the history grows)
 *   node --expose-gc -r ts-node/register bench/xchain-open.ts open DIR
 *                                                  opens it in this fresh process: prints the open
 *                                                  time and the heap after a full GC (before and after)
 *
 * Built through the chain's own issueTx (verification, signatures, persistence), committing every
 * 500 transactions.
 */
import { SharedMemory } from "../src/atomic/shared-memory";
import { LOCAL_NETWORK } from "../src/network/constants";
import { type DurableStore, durableStore, LevelBackend } from "../src/storage";
import { localGenesis } from "../src/xchain/genesis";
import { ExchangeChain } from "../src/xchain/vm";
import { EWOQ_GENESIS_UTXO, ewoqSend, type Spendable } from "../test/xchain/vm/helpers";

const openChain = (store: DurableStore): Promise<ExchangeChain> =>
  ExchangeChain.open({ network: LOCAL_NETWORK, sharedMemory: new SharedMemory(), genesis: localGenesis(LOCAL_NETWORK), clock: () => 1_700_000_000n, store: store.namespace("x/") });

async function open(dir: string): Promise<{ chain: ExchangeChain; close: () => Promise<void> }> {
  const backend = await LevelBackend.open(dir);
  return { chain: await openChain(durableStore(backend)), close: () => backend.close() };
}

async function build(dir: string, count: number, flat: boolean): Promise<void> {
  const backend = await LevelBackend.open(dir);
  const store = durableStore(backend);
  const chain = await openChain(store);
  const recipients = Array.from({ length: 16 }, (_, i) => new Uint8Array(20).fill(i + 1));
  let spend: Spendable = EWOQ_GENESIS_UTXO;
  for (let i = 0; i < count; i++) {
    const sent = ewoqSend(spend, flat ? undefined : recipients[i % 16]!);
    chain.issueTx(sent.bytes);
    spend = sent.change;
    if (i % 500 === 499) await store.commit();
  }
  await store.commit();
  await backend.close();
}

async function measure(dir: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with node --expose-gc");
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const { chain, close } = await open(dir);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  console.log(JSON.stringify({ dir, openMs: Math.round(ms), heapMB: +(heapAfter / 2 ** 20).toFixed(1), heapGrowthMB: +((heapAfter - heapBefore) / 2 ** 20).toFixed(1), assets: chain.listAssets().length, txs: chain.acceptedCount() }));
  await close();
}

const [command, dir, n, shape] = process.argv.slice(2);
if (command === "build" && dir !== undefined) void build(dir, Number(n ?? 1000), shape === "flat");
else if (command === "open" && dir !== undefined) void measure(dir);
else console.log("usage: bench/xchain-open.ts build DIR N | open DIR");
