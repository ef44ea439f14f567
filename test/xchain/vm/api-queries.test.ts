import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { decodeCb58, decodeNodeBytes, encodeCb58 } from "../../../src/encoding";
import { decodeUtxo, encodeUtxo, utxoId } from "../../../src/utxo/codec";
import { createExchangeChainApi } from "../../../src/xchain/api";
import { FX_IDS } from "../../../src/xchain/vm";
import {
  addressOf,
  atomicUtxo,
  AVAX,
  AVAX_ID,
  C_CHAIN,
  EWOQ,
  EWOQ_ADDRESS,
  EWOQ_GENESIS_UTXO,
  EWOQ_KEY,
  externalSend,
  FEE,
  fixture,
  fundedUser,
  rejection,
  signed,
  testKey,
  transferOut,
  X_CHAIN,
  xAddress,
} from "./helpers";

const BOB = addressOf(testKey(2));
const BOB_ADDRESS = xAddress(BOB);
type UtxoReply = { numFetched: string; utxos: string[]; endIndex: { address: string; utxo: string }; encoding: string };
type TxReply = { txID: string; changeAddr: string };

/** A user whose sendMultiple gave bob `count` UTXOs of 1..count nAVAX. */
async function bobWithUtxos(count: number) {
  const f = await fundedUser();
  const outputs = Array.from({ length: count }, (_, i) => ({ assetID: "AVAX", amount: i + 1, to: BOB_ADDRESS }));
  const reply = (await f.x("xvm.sendMultiple", { ...f.user, outputs })) as TxReply;
  return { ...f, txID: reply.txID };
}

describe("xchain/vm API: queries", () => {
  describe("getUTXOs", () => {
    it("pages with limit and endIndex: every UTXO once, the last page shorter than the limit", async () => {
      const { x } = await bobWithUtxos(5);
      const seen: string[] = [];
      let startIndex: { address: string; utxo: string } | undefined;
      const sizes: string[] = [];
      for (let page = 0; page < 4; page++) {
        const reply = (await x("xvm.getUTXOs", { addresses: [BOB_ADDRESS], limit: 2, ...(startIndex ? { startIndex } : {}) })) as UtxoReply;
        sizes.push(reply.numFetched);
        seen.push(...reply.utxos);
        startIndex = reply.endIndex;
        if (Number(reply.numFetched) < 2) break;
      }
      expect(sizes).to.deep.equal(["2", "2", "1"]);
      expect(new Set(seen).size).to.equal(5);
      const amounts = seen.map((u) => (decodeUtxo(decodeCb58(u)).output as { amount: bigint }).amount).sort((a, b) => Number(a - b));
      expect(amounts).to.deep.equal([1n, 2n, 3n, 4n, 5n]);
    });

    it("endIndex names the last address searched and the last UTXO ID returned", async () => {
      const { x, chain } = await bobWithUtxos(3);
      const reply = (await x("xvm.getUTXOs", { addresses: [BOB_ADDRESS], limit: 1 })) as UtxoReply;
      const utxo = decodeUtxo(decodeCb58(reply.utxos[0]!));
      expect(reply.endIndex.address).to.equal(BOB_ADDRESS);
      expect(chain.getUtxo(decodeCb58(reply.endIndex.utxo))?.utxo).to.deep.equal(utxo);
    });

    it("lists the newest UTXOs first, as the node's per-address index", async () => {
      const { x } = await bobWithUtxos(3);
      const reply = (await x("xvm.getUTXOs", { addresses: [BOB_ADDRESS] })) as UtxoReply;
      expect(reply.utxos.map((u) => decodeUtxo(decodeCb58(u)).outputIndex)).to.deep.equal([2, 1, 0]);
    });

    it("treats a limit of 0 or above 1024 as 1024", async () => {
      const { x } = await bobWithUtxos(3);
      expect(await x("xvm.getUTXOs", { addresses: [BOB_ADDRESS], limit: 0 })).to.include({ numFetched: "3" });
      expect(await x("xvm.getUTXOs", { addresses: [BOB_ADDRESS], limit: 5000 })).to.include({ numFetched: "3" });
    });

    it("returns hex UTXOs with the node's checksum when asked", async () => {
      const { x } = fixture();
      const reply = (await x("xvm.getUTXOs", { addresses: [EWOQ_ADDRESS], encoding: "hex" })) as UtxoReply;
      expect(reply.encoding).to.equal("hex");
      const utxo = decodeUtxo(decodeNodeBytes(reply.utxos[0]!, "hex"));
      expect(utxo).to.deep.include({ outputIndex: 1 });
      expect(encodeCb58(utxo.assetId)).to.equal(AVAX_ID);
    });

    it("lists a UTXO owned by several of the given addresses once", async () => {
      const { x, chain } = fixture();
      const tx = externalSend(BOB, 1n);
      tx.outputs = [transferOut(AVAX, EWOQ_GENESIS_UTXO.amount - FEE, [EWOQ, BOB])];
      chain.issueTx(signed(tx, [[EWOQ_KEY]]).bytes);
      expect(await x("xvm.getUTXOs", { addresses: [EWOQ_ADDRESS, BOB_ADDRESS] })).to.include({ numFetched: "1" });
    });

    it("refuses an empty address list", async () => {
      const { x } = fixture();
      expect(await rejection(x("xvm.getUTXOs", { addresses: [] }))).to.include({ code: -32602, message: "no addresses provided" });
    });

    it("refuses more than 1024 addresses", async () => {
      const { x } = fixture();
      const error = await rejection(x("xvm.getUTXOs", { addresses: Array(1025).fill(EWOQ_ADDRESS) }));
      expect(error).to.include({ code: -32602, message: "number of addresses given, 1025, exceeds maximum, 1024" });
    });

    it("refuses an address of another chain or network, naming it", async () => {
      const { x } = fixture();
      const error = await rejection(x("xvm.getUTXOs", { addresses: ["C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"] }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.include("addresses[0]").and.to.include("mismatched chainIDs");
    });

    it("with sourceChain, pages the atomic UTXOs exported to this chain from that chain", async () => {
      const { x, sharedMemory } = fixture();
      const exported = [1, 2, 3].map((n) => atomicUtxo(new Uint8Array(32).fill(n), 0, AVAX, BigInt(n) * 1_000n, BOB));
      sharedMemory.apply(C_CHAIN, [[X_CHAIN, { put: exported.map((u) => ({ key: utxoId(u.txId, 0), value: encodeUtxo(u), traits: [BOB] })) }]]);
      const first = (await x("xvm.getUTXOs", { addresses: [BOB_ADDRESS], sourceChain: "C", limit: 2 })) as UtxoReply & { sourceChain: string };
      expect(first).to.include({ numFetched: "2", sourceChain: "C" });
      const second = (await x("xvm.getUTXOs", { addresses: [BOB_ADDRESS], sourceChain: "C", limit: 2, startIndex: first.endIndex })) as UtxoReply;
      expect(second.numFetched).to.equal("1");
      const amounts = [...first.utxos, ...second.utxos].map((u) => (decodeUtxo(decodeCb58(u)).output as { amount: bigint }).amount);
      expect(amounts.sort((a, b) => Number(a - b))).to.deep.equal([1_000n, 2_000n, 3_000n]);
      expect(await x("xvm.getUTXOs", { addresses: [BOB_ADDRESS] })).to.include({ numFetched: "0" });
    });
  });

  describe("getAddressTxs", () => {
    it("lists the transactions that changed the address's balance of the asset, in acceptance order, paged by cursor", async () => {
      const { x, user } = await fundedUser();
      const ids: string[] = [];
      for (let i = 1; i <= 3; i++) ids.push(((await x("xvm.send", { ...user, amount: i, assetID: "AVAX", to: BOB_ADDRESS })) as TxReply).txID);
      expect(await x("xvm.getAddressTxs", { address: EWOQ_ADDRESS, assetID: "AVAX", pageSize: 2 })).to.deep.equal({ txIDs: ids.slice(0, 2), cursor: "2" });
      expect(await x("xvm.getAddressTxs", { address: EWOQ_ADDRESS, assetID: "AVAX", pageSize: 2, cursor: "2" })).to.deep.equal({ txIDs: ids.slice(2), cursor: "3" });
      expect(await x("xvm.getAddressTxs", { address: BOB_ADDRESS, assetID: AVAX_ID })).to.deep.equal({ txIDs: ids, cursor: "3" });
    });

    it("filters by asset: a transaction that moved only another asset is not listed for AVAX", async () => {
      const { x, user } = await fundedUser();
      const { assetID } = (await x("xvm.createFixedCapAsset", { ...user, name: "Gold", symbol: "GLD", initialHolders: [{ address: EWOQ_ADDRESS, amount: 10 }] })) as { assetID: string };
      const { txID } = (await x("xvm.send", { ...user, amount: 4, assetID, to: BOB_ADDRESS })) as TxReply;
      expect(await x("xvm.getAddressTxs", { address: BOB_ADDRESS, assetID })).to.deep.equal({ txIDs: [txID], cursor: "1" });
      expect(await x("xvm.getAddressTxs", { address: BOB_ADDRESS, assetID: "AVAX" })).to.deep.equal({ txIDs: [], cursor: "0" });
    });

    it("refuses a pageSize above 1024", async () => {
      const { x } = fixture();
      expect(await rejection(x("xvm.getAddressTxs", { address: EWOQ_ADDRESS, assetID: "AVAX", pageSize: 1025 }))).to.include({ code: -32602, message: "pageSize > maximum allowed (1024)" });
    });

    it("needs an assetID", async () => {
      const { x } = fixture();
      const error = await rejection(x("xvm.getAddressTxs", { address: EWOQ_ADDRESS }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.match(/^missing parameter assetID/);
    });

    it("after a captured state is restored, lists only the transactions accepted before it", async () => {
      const { x, user, chain } = await fundedUser();
      const first = ((await x("xvm.send", { ...user, amount: 1, assetID: "AVAX", to: BOB_ADDRESS })) as TxReply).txID;
      const restore = chain.capture();
      await x("xvm.send", { ...user, amount: 2, assetID: "AVAX", to: BOB_ADDRESS });
      restore();
      expect(await x("xvm.getAddressTxs", { address: BOB_ADDRESS, assetID: "AVAX" })).to.deep.equal({ txIDs: [first], cursor: "1" });
    });
  });

  describe("getTx and getTxStatus", () => {
    it("getTx in cb58 (the default) and hex returns the signed bytes, whose sha256 is the ID", async () => {
      const { x, user } = await fundedUser();
      const { txID } = (await x("xvm.send", { ...user, amount: 1, assetID: "AVAX", to: BOB_ADDRESS })) as TxReply;
      const cb58 = (await x("xvm.getTx", { txID })) as { tx: string; encoding: string };
      expect(cb58.encoding).to.equal("cb58");
      expect(encodeCb58(sha256(decodeCb58(cb58.tx)))).to.equal(txID);
      const hex = (await x("xvm.getTx", { txID, encoding: "hex" })) as { tx: string };
      expect(decodeNodeBytes(hex.tx, "hex")).to.deep.equal(decodeCb58(cb58.tx));
    });

    it("getTx in json has the node's shape: unsignedTx, credentials with fxID, id", async () => {
      const { x, user } = await fundedUser();
      const { txID } = (await x("xvm.send", { ...user, amount: 5, assetID: "AVAX", to: BOB_ADDRESS, memo: "hi" })) as TxReply;
      const { tx, encoding } = (await x("xvm.getTx", { txID, encoding: "json" })) as { tx: Record<string, any>; encoding: string };
      expect(encoding).to.equal("json");
      expect(tx.id).to.equal(txID);
      expect(Object.keys(tx.unsignedTx)).to.deep.equal(["networkID", "blockchainID", "outputs", "inputs", "memo"]);
      expect(tx.unsignedTx.memo).to.equal("0x6869");
      expect(tx.unsignedTx.outputs).to.deep.include({
        assetID: AVAX_ID,
        fxID: FX_IDS[0],
        output: { addresses: [BOB_ADDRESS], amount: "5", locktime: "0", threshold: 1 },
      });
      expect(tx.unsignedTx.inputs[0]).to.deep.equal({
        txID: AVAX_ID,
        outputIndex: 1,
        assetID: AVAX_ID,
        fxID: "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ",
        input: { amount: EWOQ_GENESIS_UTXO.amount.toString(), signatureIndices: [0] },
      });
      expect(tx.credentials).to.have.length(1);
      expect(tx.credentials[0].fxID).to.equal(FX_IDS[0]);
      expect(tx.credentials[0].credential.signatures[0]).to.match(/^0x[0-9a-f]{130}$/);
    });

    it("getTx in json of an OperationTx shows the operation with its fx and inputIDs", async () => {
      const { x, user } = await fundedUser();
      const { assetID } = (await x("xvm.createVariableCapAsset", { ...user, name: "Var", symbol: "VAR", minterSets: [{ minters: [EWOQ_ADDRESS], threshold: 1 }] })) as { assetID: string };
      const { txID } = (await x("xvm.mint", { ...user, amount: 9, assetID, to: BOB_ADDRESS })) as TxReply;
      const { tx } = (await x("xvm.getTx", { txID, encoding: "json" })) as { tx: Record<string, any> };
      const op = tx.unsignedTx.operations[0];
      expect(op.assetID).to.equal(assetID);
      expect(op.inputIDs[0].txID).to.equal(assetID);
      expect(op.operation.transferOutput).to.deep.equal({ addresses: [BOB_ADDRESS], amount: "9", locktime: "0", threshold: 1 });
      expect(op.operation.mintOutput).to.deep.equal({ addresses: [EWOQ_ADDRESS], locktime: "0", threshold: 1 });
    });

    it("getTx of an unknown ID is not found; getTxStatus says Unknown", async () => {
      const { x } = fixture();
      const unknown = encodeCb58(new Uint8Array(32).fill(3));
      const error = await rejection(x("xvm.getTx", { txID: unknown }));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.match(/^not found/);
      expect(await x("xvm.getTxStatus", { txID: unknown })).to.deep.equal({ status: "Unknown" });
    });

    it("getTxStatus refuses a missing txID", async () => {
      const { x } = fixture();
      expect(await rejection(x("xvm.getTxStatus", {}))).to.include({ code: -32602, message: "nil transaction ID: missing parameter txID" });
    });

    it("getTx refuses a txID that is not a cb58 ID, naming it", async () => {
      const { x } = fixture();
      const error = await rejection(x("xvm.getTx", { txID: "not-an-id" }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.include('couldn\'t parse txID "not-an-id"');
    });

    it("getTx refuses an encoding other than cb58, hex and json", async () => {
      const { x } = fixture();
      const error = await rejection(x("xvm.getTx", { txID: AVAX_ID, encoding: "base64" }));
      expect(error).to.include({ code: -32602, message: 'invalid encoding "base64": expected "cb58" or "hex" or "json"' });
    });
  });

  describe("balances and assets", () => {
    it("getBalance counts only outputs the address owns alone unless includePartial", async () => {
      const { x, chain } = fixture();
      const tx = externalSend(BOB, 1n);
      tx.outputs = [transferOut(AVAX, 100n, [BOB]), transferOut(AVAX, EWOQ_GENESIS_UTXO.amount - 100n - FEE, [EWOQ, BOB])];
      chain.issueTx(signed(tx, [[EWOQ_KEY]]).bytes);
      expect(await x("xvm.getBalance", { address: BOB_ADDRESS, assetID: "AVAX" })).to.have.property("balance", "100");
      const partial = (await x("xvm.getBalance", { address: BOB_ADDRESS, assetID: "AVAX", includePartial: true })) as { balance: string; utxoIDs: unknown[] };
      expect(partial.balance).to.equal((EWOQ_GENESIS_UTXO.amount - FEE).toString());
      expect(partial.utxoIDs).to.have.length(2);
    });

    it("getBalance does not count an output still locked unless includePartial", async () => {
      const { x } = fixture({ fundedAddresses: [{ address: BOB, amount: 42n, locktime: 2_000_000_000n }] });
      expect(await x("xvm.getBalance", { address: BOB_ADDRESS, assetID: "AVAX" })).to.deep.equal({ balance: "0", utxoIDs: [] });
      expect(await x("xvm.getBalance", { address: BOB_ADDRESS, assetID: "AVAX", includePartial: true })).to.have.property("balance", "42");
    });

    it("getAllBalances names the native asset by its alias and other assets by ID", async () => {
      const { x, user } = await fundedUser();
      const { assetID } = (await x("xvm.createFixedCapAsset", { ...user, name: "Gold", symbol: "GLD", initialHolders: [{ address: BOB_ADDRESS, amount: 10 }] })) as { assetID: string };
      await x("xvm.send", { ...user, amount: 3, assetID: "AVAX", to: BOB_ADDRESS });
      const { balances } = (await x("xvm.getAllBalances", { address: BOB_ADDRESS })) as { balances: { asset: string; balance: string }[] };
      expect(balances).to.have.deep.members([
        { asset: assetID, balance: "10" },
        { asset: "AVAX", balance: "3" },
      ]);
    });

    it("getAssetDescription of a transaction that created no asset says so", async () => {
      const { x, user } = await fundedUser();
      const { txID } = (await x("xvm.send", { ...user, amount: 1, assetID: "AVAX", to: BOB_ADDRESS })) as TxReply;
      expect(await rejection(x("xvm.getAssetDescription", { assetID: txID }))).to.include({ code: -32000, message: "transaction doesn't create an asset" });
    });

    it("getAssetDescription of an unknown asset is not found", async () => {
      const { x } = fixture();
      const error = await rejection(x("xvm.getAssetDescription", { assetID: encodeCb58(new Uint8Array(32).fill(8)) }));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.match(/^not found/);
    });

    it("getTxFee reports the fees as strings", async () => {
      const { x } = fixture();
      expect(await x("xvm.getTxFee", {})).to.deep.equal({ txFee: "1000000", createAssetTxFee: "1000000" });
    });
  });

  describe("dispatch", () => {
    it("serves every method under both xvm.* and avm.*", async () => {
      const { x } = fixture();
      const params = { address: EWOQ_ADDRESS, assetID: "AVAX" };
      expect(await x("avm.getBalance", params)).to.deep.equal(await x("xvm.getBalance", params));
    });

    it("serves the 22 methods of the reference node's keystore-era service, under xvm.* and avm.* each", () => {
      const f = fixture();
      const names = [
        "createAddress", "createFixedCapAsset", "createNFTAsset", "createVariableCapAsset", "export", "exportKey", "getAddressTxs", "getAllBalances",
        "getAssetDescription", "getBalance", "getTx", "getTxFee", "getTxStatus", "getUTXOs", "import", "importKey", "issueTx", "listAddresses",
        "mint", "mintNFT", "send", "sendMultiple",
      ];
      expect(createExchangeChainApi(f.chain, f.keystore).methods).to.deep.equal([...names.map((m) => `avm.${m}`), ...names.map((m) => `xvm.${m}`)].sort());
    });

    it("answers an unknown method with -32601", async () => {
      const { x } = fixture();
      const error = await rejection(x("xvm.getBlockByHeight", {}));
      expect(error.code).to.equal(-32601);
      expect(error.message).to.include("xvm.getBlockByHeight");
    });

    it("accepts params as an array holding one object", async () => {
      const { x } = fixture();
      expect(await x("xvm.getBalance", [{ address: EWOQ_ADDRESS, assetID: "AVAX" }])).to.have.property("balance", "300000000000000000");
    });

    it("refuses positional params with a hint to send an object", async () => {
      const { x } = fixture();
      const error = await rejection(x("xvm.getBalance", [EWOQ_ADDRESS, "AVAX"]));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.include("named parameters");
    });

    it("accepts a bare cb58 short ID where the node accepts one", async () => {
      const { x } = fixture();
      expect(await x("xvm.getBalance", { address: encodeCb58(EWOQ), assetID: "AVAX" })).to.have.property("balance", "300000000000000000");
    });
  });

  it("a wallet transaction is indexed for the UTXOs' owners: the minted output's owner and the minter", async () => {
    const { x, user } = await fundedUser();
    const { assetID } = (await x("xvm.createVariableCapAsset", { ...user, name: "Var", symbol: "VAR", minterSets: [{ minters: [EWOQ_ADDRESS], threshold: 1 }] })) as { assetID: string };
    const { txID } = (await x("xvm.mint", { ...user, amount: 9, assetID, to: BOB_ADDRESS })) as TxReply;
    expect((await x("xvm.getAddressTxs", { address: BOB_ADDRESS, assetID })) as { txIDs: string[] }).to.have.property("txIDs").that.deep.equals([txID]);
    expect((await x("xvm.getAddressTxs", { address: EWOQ_ADDRESS, assetID })) as { txIDs: string[] }).to.have.property("txIDs").that.deep.equals([assetID, txID]);
  });
});
