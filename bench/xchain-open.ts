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
import { decodeCb58, decodePrivateKey } from "../src/encoding";
import { LOCAL_NETWORK, LOCAL_TEST_KEY } from "../src/network/constants";
import { durableStore, LevelBackend } from "../src/storage";
import { compareTransferableOutputs, shortIdFromPrivateKey, signTx, TypeId, type TransferableOutput } from "../src/utxo/codec";
import { localGenesis } from "../src/xchain/genesis";
import { ExchangeChain } from "../src/xchain/vm";

const KEY = decodePrivateKey(LOCAL_TEST_KEY);
const EWOQ = shortIdFromPrivateKey(KEY);
const AVAX = decodeCb58(LOCAL_NETWORK.nativeAsset.id);
const X_CHAIN = decodeCb58(LOCAL_NETWORK.xChainId);

const out = (amount: bigint, owner: Uint8Array): TransferableOutput => ({
  assetId: AVAX,
  output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: 0n, threshold: 1, addresses: [owner] },
});

async function open(dir: string): Promise<{ chain: ExchangeChain; close: () => Promise<void> }> {
  const backend = await LevelBackend.open(dir);
  const store = durableStore(backend);
  const chain = await ExchangeChain.open({
    network: LOCAL_NETWORK,
    sharedMemory: new SharedMemory(),
    genesis: localGenesis(LOCAL_NETWORK),
    clock: () => 1_700_000_000n,
    store: store.namespace("x/"),
  });
  return { chain, close: () => backend.close() };
}

async function build(dir: string, count: number, flat: boolean): Promise<void> {
  const backend = await LevelBackend.open(dir);
  const store = durableStore(backend);
  const chain = await ExchangeChain.open({ network: LOCAL_NETWORK, sharedMemory: new SharedMemory(), genesis: localGenesis(LOCAL_NETWORK), clock: () => 1_700_000_000n, store: store.namespace("x/") });
  const recipients = Array.from({ length: 16 }, (_, i) => new Uint8Array(20).fill(i + 1));
  let spend = { txId: AVAX, outputIndex: 1, amount: 300_000_000n * 10n ** 9n };
  for (let i = 0; i < count; i++) {
    const change = spend.amount - (flat ? 0n : 1n) - LOCAL_NETWORK.txFee;
    const outputs = (flat ? [out(change, EWOQ)] : [out(1n, recipients[i % 16]!), out(change, EWOQ)]).sort(compareTransferableOutputs);
    const { bytes, txId } = signTx(
      {
        typeId: TypeId.BaseTx,
        networkId: LOCAL_NETWORK.networkId,
        blockchainId: X_CHAIN,
        outputs,
        inputs: [{ txId: spend.txId, outputIndex: spend.outputIndex, assetId: AVAX, input: { typeId: TypeId.Secp256k1TransferInput, amount: spend.amount, signatureIndices: [0] } }],
        memo: new Uint8Array(0),
      },
      [[KEY]],
    );
    chain.issueTx(bytes);
    spend = { txId, outputIndex: outputs.findIndex((o) => (o.output as { amount: bigint }).amount === change), amount: change };
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
