import { expect } from "chai";
import { SharedMemory } from "../../src/atomic/shared-memory";
import { ContractChainAtomics, createContractChainAtomicApi, evmAddressOfPrivateKey } from "../../src/cchain";
import { createNativeProvider, type NativeProvider } from "../../src/engine";
import { bytesToHex, decodeCb58, encodePrivateKey, formatChainAddress } from "../../src/encoding";
import { Keystore } from "../../src/keystore/keystore";
import { LOCAL_NETWORK } from "../../src/network/constants";
import type { Dispatch } from "../../src/rpc";
import type { DurableStore } from "../../src/storage";
import { DamagedRecordError } from "../../src/storage/record-codec";
import { encodeUtxo, shortIdFromPrivateKey, TypeId, type Utxo, utxoId } from "../../src/utxo/codec";
import { STORE_KINDS, type TestStore } from "../helpers/stores";
import { AG_TEST_KEYS } from "./vectors";

const NET = LOCAL_NETWORK;
const X = decodeCb58(NET.xChainId);
const C = decodeCb58(NET.cChainId);
const AVAX = decodeCb58(NET.nativeAsset.id);
const USER = { username: "alice", password: "correct horse battery staple" };
const alice = decodeCb58(AG_TEST_KEYS[0]!);
const aliceShort = shortIdFromPrivateKey(alice);
const aliceEvm = bytesToHex(evmAddressOfPrivateKey(alice));
const xRecipient = shortIdFromPrivateKey(decodeCb58(AG_TEST_KEYS[3]!));

/**
 * The contract chain's atomic side over a store, on an engine that outlives the "restart" (the
 * engine's own persistence is not this test's): each block the engine makes commits the store,
 * as the node's per-block commit does.
 */
interface Side {
  memory: SharedMemory;
  atomics: ContractChainAtomics;
  call(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

async function openSide(provider: NativeProvider, keystore: Keystore, store: DurableStore): Promise<Side> {
  const memory = await SharedMemory.open(store.namespace("atomic/"));
  const atomics = await ContractChainAtomics.open({ host: provider.engine, sharedMemory: memory, network: NET, store: store.namespace("cvm/") });
  const dispatch: Dispatch = createContractChainAtomicApi({ atomics, keystore }).dispatch;
  return { memory, atomics, call: (method, params = {}) => dispatch(method, params) as Promise<Record<string, unknown>> };
}

/** An exchange-chain export to C: a UTXO in C's inbox from X (committed, as the exchange chain's acceptance does). */
async function exportFromX(side: Side, store: DurableStore, seed: number, amount: bigint): Promise<void> {
  const utxo: Utxo = {
    txId: new Uint8Array(32).fill(seed),
    outputIndex: 0,
    assetId: AVAX,
    output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: 0n, threshold: 1, addresses: [aliceShort] },
  };
  side.memory.apply(X, [[C, { put: [{ key: utxoId(utxo.txId, 0), value: encodeUtxo(utxo), traits: [aliceShort] }] }]]);
  await store.commit();
}

async function answers(side: Side, txIds: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const txID of txIds) {
    out.push(await side.call("avax.getAtomicTx", { txID, encoding: "hex" }));
    out.push(await side.call("avax.getAtomicTxStatus", { txID }));
  }
  out.push(await side.call("avax.getUTXOs", { addresses: [formatChainAddress(aliceShort, NET.hrp, "C")], sourceChain: "X" }));
  out.push(side.memory.indexed(X, C, [aliceShort, xRecipient], undefined, undefined, 100).values.map((v) => bytesToHex(v)));
  out.push(side.memory.indexed(C, X, [aliceShort, xRecipient], undefined, undefined, 100).values.map((v) => bytesToHex(v)));
  return out;
}

for (const kind of STORE_KINDS) {
  describe(`contract chain's atomic transactions: persistence (${kind.name})`, function () {
    this.timeout(20_000);
    let t: TestStore;
    let provider: NativeProvider;
    let keystore: Keystore;
    let blockCommit: Promise<void>;
    beforeEach(async () => {
      t = await kind.create();
      provider = await createNativeProvider({ accounts: [] });
      keystore = new Keystore();
      await keystore.createUser(USER.username, USER.password);
      blockCommit = Promise.resolve();
      provider.engine.onBlock(() => (blockCommit = t.store.commit()));
    });
    afterEach(() => t.close());

    it("answers getAtomicTx / getAtomicTxStatus the same after a restart: the record is written by the block's commit", async () => {
      const side = await openSide(provider, keystore, t.store);
      await side.call("avax.importKey", { ...USER, privateKey: encodePrivateKey(alice) });
      await exportFromX(side, t.store, 1, 5_000_000_000n);
      await exportFromX(side, t.store, 2, 7_000_000n);
      const imported = (await side.call("avax.import", { ...USER, to: aliceEvm, sourceChain: "X" })).txID as string;
      await exportFromX(side, t.store, 3, 9_000_000n); // left waiting
      const exported = (await side.call("avax.export", { ...USER, to: formatChainAddress(xRecipient, NET.hrp, "X"), amount: 1_000_000_000, assetID: "AVAX" })).txID as string;
      await blockCommit;
      const before = await answers(side, [imported, exported]);
      expect(before[1]).to.deep.include({ status: "Accepted" });
      expect(before[3]).to.deep.include({ status: "Accepted" });

      // A kill -9 right after the last block's commit: nothing staged afterwards survives.
      const reopened = await openSide(provider, keystore, await t.reopen());
      expect(await answers(reopened, [imported, exported])).to.deep.equal(before);
    });

    it("does not keep a dropped transaction: after a restart it is Unknown", async () => {
      const side = await openSide(provider, keystore, t.store);
      await side.call("avax.importKey", { ...USER, privateKey: encodePrivateKey(alice) });
      await exportFromX(side, t.store, 1, 5_000_000_000n);
      await side.call("avax.import", { ...USER, to: aliceEvm, sourceChain: "X", baseFee: 1 }).then(
        () => expect.fail("an import paying less than the base fee is refused"),
        () => undefined,
      );
      const [txID] = side.atomics.knownTransactions();
      expect(txID).to.be.a("string");
      expect(await side.call("avax.getAtomicTxStatus", { txID })).to.deep.include({ status: "Dropped" });
      const reopened = await openSide(provider, keystore, await t.reopen());
      expect(await reopened.call("avax.getAtomicTxStatus", { txID })).to.deep.equal({ status: "Unknown" });
    });

    it("refuses a damaged record, naming its key", async () => {
      t.store.namespace("cvm/").put("tx/2Kzb", new TextEncoder().encode('{"bytes":"00","height":"1"}'));
      await t.store.commit();
      const error = await openSide(provider, keystore, await t.reopen()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(DamagedRecordError);
      expect((error as Error).message).to.match(/^the stored record "tx\/2Kzb" is damaged: /);
    });
  });
}
