import { expect } from "chai";
import { SharedMemory } from "../../src/atomic/shared-memory";
import { bytesToHex, decodeCb58, encodeCb58 } from "../../src/encoding";
import { createKeystoreApi } from "../../src/keystore/api";
import { Keystore } from "../../src/keystore/keystore";
import { LOCAL_NETWORK, LOCAL_TEST_KEY } from "../../src/network/constants";
import type { Dispatch } from "../../src/rpc";
import type { DurableStore } from "../../src/storage";
import { DamagedRecordError } from "../../src/storage/record-codec";
import { createExchangeChainApi } from "../../src/xchain/api";
import { encodeUtxo, utxoId } from "../../src/utxo/codec";
import { localGenesis } from "../../src/xchain/genesis";
import { ExchangeChain, ExchangeStoreError } from "../../src/xchain/vm";
import { STORE_KINDS, type TestStore } from "../helpers/stores";
import { addressOf, atomicUtxo, AVAX, C_CHAIN, EWOQ, EWOQ_ADDRESS, PASSWORD, rejection, testKey, X_CHAIN, xAddress } from "./vm/helpers";

const NOW = 1_700_000_000n;
const BOB = addressOf(testKey(2));
const BOB_ADDRESS = xAddress(BOB);
const CAROL_ADDRESS = xAddress(addressOf(testKey(3)));
const C_EWOQ = `C-${EWOQ_ADDRESS.slice(2)}`;
const USER = { username: "alice", password: PASSWORD };
const GENESIS_OPTIONS = { fundedAddresses: [{ address: BOB, amount: 5_000_000_000n }] };

/** One node's exchange chain, shared memory and keystore over `store` (in memory without one). */
interface Node {
  chain: ExchangeChain;
  memory: SharedMemory;
  keystore: Keystore;
  x: Dispatch;
  ks: Dispatch;
}

async function openNode(store: DurableStore | undefined, genesisOptions = GENESIS_OPTIONS): Promise<Node> {
  const memory = store === undefined ? new SharedMemory() : await SharedMemory.open(store.namespace("atomic/"));
  const keystore = store === undefined ? new Keystore() : await Keystore.open(store.namespace("keystore/"));
  const chain = await ExchangeChain.open({
    network: LOCAL_NETWORK,
    sharedMemory: memory,
    genesis: localGenesis(LOCAL_NETWORK, genesisOptions),
    clock: () => NOW,
    store: store?.namespace("x/"),
  });
  return { chain, memory, keystore, x: createExchangeChainApi(chain, keystore).dispatch, ks: createKeystoreApi(keystore).dispatch };
}

/** Atomic UTXOs the contract chain exported to the exchange chain (as its block would). */
async function receiveFromC(node: Node, store: DurableStore | undefined, seed: number, owner: Uint8Array): Promise<void> {
  const utxo = atomicUtxo(new Uint8Array(32).fill(seed), 0, AVAX, 3_000_000_000n, owner);
  node.memory.apply(C_CHAIN, [[X_CHAIN, { put: [{ key: utxoId(utxo.txId, 0), value: encodeUtxo(utxo), traits: [owner] }] }]]);
  await store?.commit(); // the contract chain's block commit
}

/** A history touching every kind of record: a user and keys, sends, assets, a mint, an export to C and an import from C. */
async function buildHistory(node: Node, store: DurableStore | undefined): Promise<{ txIds: string[]; assets: string[] }> {
  const { x, ks } = node;
  await ks("keystore.createUser", USER);
  await x("xvm.importKey", { ...USER, privateKey: LOCAL_TEST_KEY });
  const txIds: string[] = [];
  const tx = async (method: string, params: Record<string, unknown>): Promise<string> => {
    const reply = (await x(method, { ...USER, ...params })) as { txID?: string; assetID?: string };
    const id = reply.txID ?? reply.assetID!;
    txIds.push(id);
    return id;
  };
  for (let i = 1; i <= 3; i++) await tx("xvm.send", { amount: 1_000 * i, assetID: "AVAX", to: BOB_ADDRESS });
  const gold = await tx("xvm.createFixedCapAsset", { name: "Gold", symbol: "GLD", denomination: 2, initialHolders: [{ address: EWOQ_ADDRESS, amount: 500 }] });
  const mintable = await tx("xvm.createVariableCapAsset", { name: "Var", symbol: "VAR", minterSets: [{ minters: [EWOQ_ADDRESS], threshold: 1 }] });
  await tx("xvm.mint", { amount: 9, assetID: mintable, to: BOB_ADDRESS });
  await tx("xvm.send", { amount: 7, assetID: gold, to: CAROL_ADDRESS });
  await tx("xvm.export", { amount: 2_000_000_000, assetID: "AVAX", to: C_EWOQ });
  await receiveFromC(node, store, 0xc1, EWOQ);
  await receiveFromC(node, store, 0xc2, BOB);
  await tx("xvm.import", { sourceChain: "C", to: EWOQ_ADDRESS });
  return { txIds, assets: [gold, mintable] };
}

/** Every answer of the APIs a restart must keep. */
async function survey(node: Node, txIds: string[], assets: string[]): Promise<unknown[]> {
  const { x, ks, chain, memory } = node;
  const answers: unknown[] = [];
  const ask = async (method: string, params: Record<string, unknown>): Promise<unknown> => {
    const answer = await x(method, params).catch((error: unknown) => ({ error: String((error as Error).message) }));
    answers.push([method, params, answer]);
    return answer;
  };
  const addresses = [EWOQ_ADDRESS, BOB_ADDRESS, CAROL_ADDRESS];
  for (const address of addresses) {
    await ask("xvm.getAllBalances", { address });
    await ask("xvm.getAllBalances", { address, includePartial: true });
    for (const asset of ["AVAX", ...assets]) {
      await ask("xvm.getBalance", { address, assetID: asset });
      await ask("xvm.getAddressTxs", { address, assetID: asset, pageSize: 2 });
      await ask("xvm.getAddressTxs", { address, assetID: asset, cursor: 2 });
    }
    await ask("xvm.getUTXOs", { addresses: [address], sourceChain: "C" });
  }
  // Every page of a listing over several addresses: the order each address's UTXOs are listed in.
  let page = (await ask("xvm.getUTXOs", { addresses, limit: 2 })) as { numFetched: string; endIndex: unknown };
  while (page.numFetched !== "0") page = (await ask("xvm.getUTXOs", { addresses, limit: 2, startIndex: page.endIndex })) as typeof page;
  for (const txID of txIds) {
    await ask("xvm.getTx", { txID, encoding: "json" });
    await ask("xvm.getTx", { txID, encoding: "hex" });
    await ask("xvm.getTxStatus", { txID });
  }
  for (const assetID of ["AVAX", ...assets]) await ask("xvm.getAssetDescription", { assetID });
  await ask("xvm.listAddresses", USER);
  await ask("xvm.exportKey", { ...USER, address: EWOQ_ADDRESS });
  answers.push(await ks("keystore.listUsers", {}));
  // What waits in shared memory for the contract chain, and for the exchange chain.
  answers.push(memory.indexed(C_CHAIN, X_CHAIN, [EWOQ, BOB], undefined, undefined, 100).values.map((v) => bytesToHex(v)));
  answers.push(memory.indexed(X_CHAIN, C_CHAIN, [EWOQ, BOB], undefined, undefined, 100).values.map((v) => bytesToHex(v)));
  answers.push(chain.acceptedTxs().map((t) => [encodeCb58(t.id), t.index, t.acceptedAt, t.genesis]));
  answers.push(chain.listAssets().map((a) => [encodeCb58(a.id), a.alias, a.type, [...a.fxIndices]]));
  return answers;
}

/** Spends after a restart: the same transactions as on a node that never stopped (the wallet picks the same UTXOs). */
async function goOn(node: Node): Promise<unknown[]> {
  const replies: unknown[] = [];
  replies.push(await node.x("xvm.send", { ...USER, amount: 123, assetID: "AVAX", to: CAROL_ADDRESS }));
  replies.push(await node.x("xvm.send", { ...USER, amount: 1, assetID: "AVAX", to: BOB_ADDRESS }));
  replies.push(await node.x("xvm.getUTXOs", { addresses: [EWOQ_ADDRESS, BOB_ADDRESS, CAROL_ADDRESS] }));
  return replies;
}

for (const kind of STORE_KINDS) {
  describe(`exchange chain: persistence (${kind.name})`, function () {
    this.timeout(20_000);
    let t: TestStore;
    beforeEach(async () => (t = await kind.create()));
    afterEach(() => t.close());

    it("answers every API call identically after a restart, and goes on from there", async () => {
      const reference = await openNode(undefined);
      const { txIds, assets } = await buildHistory(reference, undefined);
      const persisted = await openNode(t.store);
      await buildHistory(persisted, t.store);

      const reopened = await openNode(await t.reopen());
      const expected = await survey(reference, txIds, assets);
      // Acceptance times are the clock's at acceptance: the reopened chain keeps the persisted node's.
      expect(await survey(reopened, txIds, assets)).to.deep.equal(await survey(persisted, txIds, assets));
      const withoutTimes = (answers: unknown[]): unknown[] => answers.slice(0, -2).concat(answers.slice(-1));
      expect(withoutTimes(await survey(reopened, txIds, assets))).to.deep.equal(withoutTimes(expected));

      expect(await goOn(reopened)).to.deep.equal(await goOn(reference));
      const again = await openNode(await t.reopen());
      expect(await survey(again, txIds, assets)).to.deep.equal(await survey(reopened, txIds, assets));
    });

    it("keeps the genesis of a fresh store, and does not make it again on a restart", async () => {
      const first = await openNode(t.store);
      const genesisTimes = first.chain.acceptedTxs().map((tx) => tx.acceptedAt);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const reopened = await openNode(await t.reopen());
      expect(reopened.chain.acceptedTxs().map((tx) => tx.acceptedAt)).to.deep.equal(genesisTimes);
      expect(await reopened.x("xvm.getBalance", { address: BOB_ADDRESS, assetID: "AVAX" })).to.deep.include({ balance: "5000000000" });
    });

    it("refuses a store that holds another genesis", async () => {
      await openNode(t.store);
      const error = await openNode(await t.reopen(), {} as typeof GENESIS_OPTIONS).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ExchangeStoreError);
      expect((error as Error).message).to.match(/^the store holds an exchange chain with another genesis/);
    });

    it("after a snapshot is restored, the store holds the restored state once the next commit writes it", async () => {
      const node = await openNode(t.store);
      await buildHistory(node, t.store);
      const restoreChain = node.chain.capture();
      const restoreMemory = node.memory.capture();
      const before = await survey(node, [], []);
      await node.x("xvm.send", { ...USER, amount: 55, assetID: "AVAX", to: CAROL_ADDRESS });
      await node.x("xvm.export", { ...USER, amount: 1_000_000_000, assetID: "AVAX", to: C_EWOQ });
      await receiveFromC(node, t.store, 0xc3, EWOQ);
      restoreChain();
      restoreMemory();
      await t.store.commit(); // the engine's commit after evm_revert
      expect(await survey(node, [], [])).to.deep.equal(before);
      expect(await survey(await openNode(await t.reopen()), [], [])).to.deep.equal(before);
    });

    it("a failed commit leaves the store at the previous acceptance, and the chain accepts nothing more", async () => {
      const node = await openNode(t.store);
      await buildHistory(node, t.store);
      const before = await survey(node, [], []);
      t.failNextWrite();
      const failed = await rejection(node.x("xvm.send", { ...USER, amount: 55, assetID: "AVAX", to: CAROL_ADDRESS }));
      expect(failed.message).to.contain("could not write the transaction").and.contain("no space left");
      const refused = await rejection(node.x("xvm.send", { ...USER, amount: 56, assetID: "AVAX", to: CAROL_ADDRESS }));
      expect(refused.message).to.contain("accepts no more transactions");
      expect(await survey(await openNode(await t.reopen()), [], [])).to.deep.equal(before);
    });

    it("refuses a damaged record, naming its key", async () => {
      const node = await openNode(t.store);
      await buildHistory(node, t.store);
      const [utxoKey] = (await collectKeys(t.store.namespace("x/"), "utxo/")).slice(-1);
      t.store.namespace("x/").put(utxoKey!, Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 9, 1, 2, 3));
      await t.store.commit();
      const store = await t.reopen();
      const error = await ExchangeChain.open({ network: LOCAL_NETWORK, sharedMemory: new SharedMemory(), genesis: localGenesis(LOCAL_NETWORK, GENESIS_OPTIONS), store: store.namespace("x/") }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(DamagedRecordError);
      expect((error as DamagedRecordError).key).to.equal(utxoKey);
      expect((error as Error).message).to.match(new RegExp(`^the stored record "${utxoKey}" is damaged: `));
    });

    it("opens without reading every transaction, and refuses to answer from one missing below the count, naming it", async () => {
      const node = await openNode(t.store);
      const { txIds } = await buildHistory(node, t.store);
      t.store.namespace("x/").del("tx/0000000003");
      await t.store.commit();
      const reopened = await openNode(await t.reopen()); // opening does not read it
      expect(reopened.chain.getTx(decodeCb58(txIds[0]!))?.index).to.equal(2);
      let error: unknown;
      try {
        reopened.chain.getTx(decodeCb58(txIds[1]!));
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(DamagedRecordError);
      expect((error as DamagedRecordError).key).to.equal("tx/0000000003");
    });

    it("opens a store of layout 1 (no count or ID index), answers the same, and keeps it in layout 2", async () => {
      const node = await openNode(t.store);
      const { txIds, assets } = await buildHistory(node, t.store);
      const before = await survey(node, txIds, assets);
      await asLayout1(t.store.namespace("x/"));
      const migrated = await openNode(await t.reopen());
      expect(await survey(migrated, txIds, assets)).to.deep.equal(before);
      expect(new TextDecoder().decode(await t.store.namespace("x/").get("layout"))).to.equal("2");
      expect(await survey(await openNode(await t.reopen()), txIds, assets)).to.deep.equal(before);
    });

    it("refuses a store of layout 1 with a transaction missing, naming where", async () => {
      const node = await openNode(t.store);
      await buildHistory(node, t.store);
      await asLayout1(t.store.namespace("x/"));
      t.store.namespace("x/").del("tx/0000000003");
      await t.store.commit();
      const error = await openNode(await t.reopen()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(DamagedRecordError);
      expect((error as Error).message).to.contain('"tx/0000000004" is damaged: expected the transaction at position 3');
    });
  });
}

/**
 * Leaves the exchange chain's records as layout 1 wrote them: no layout, count, id/ or asset/
 * records, and the address index as addr/<address>/<asset>/<position> -> tx ID.
 */
async function asLayout1(store: DurableStore): Promise<void> {
  for await (const [key, txId] of store.entries("ai/")) {
    const stored = (await store.get(`id/${bytesToHex(txId).slice(2)}`))!;
    const position = new DataView(stored.buffer, stored.byteOffset, 8).getBigUint64(0);
    store.put(`addr/${key.slice(3, key.lastIndexOf("/"))}/${String(position).padStart(10, "0")}`, txId);
  }
  for (const prefix of ["id/", "asset/", "ai/", "an/", "ap/"]) for (const key of await collectKeys(store, prefix)) store.del(key);
  store.del("layout");
  store.del("count");
  await store.commit();
}

async function collectKeys(store: DurableStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const [key] of store.entries(prefix)) keys.push(key);
  return keys;
}

describe("exchange chain: without a store", () => {
  it("ExchangeChain.open is new ExchangeChain, in memory", async () => {
    const node = await openNode(undefined);
    expect(node.chain.getTxStatus(AVAX)).to.equal("Accepted");
  });
});
