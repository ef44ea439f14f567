import { expect } from "chai";

import {
  createExchangeChainClient,
  createTransport,
  decodeNodeBytes,
  type ExchangeChainClient,
  NodeApiError,
  NodeResponseError,
  TxRejectedError,
  TxWaitTimeoutError,
  type XvmTxStatus,
} from "../../src/clients";
import { CREDENTIALS, type FakeNode, rejectionOf, startFakeNode } from "./fake-node";

const X = "/ext/bc/X";
const TX_ID = "2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD";
const ASSET_ID = "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe";
const ADDRESS = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
const CHANGE = "X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2";

describe("clients/xvm", () => {
  let node: FakeNode;
  let xvm: ExchangeChainClient;
  before(async () => {
    node = await startFakeNode();
    xvm = createExchangeChainClient({ transport: createTransport({ url: node.url }) });
  });
  after(() => node.close());
  beforeEach(() => node.reset());

  const reference = () => createExchangeChainClient({ transport: createTransport({ url: node.url }), naming: "reference" });
  const sent = () => node.requests[node.requests.length - 1]!.params;

  describe("paths and method names", () => {
    it("posts xvm.send to /ext/bc/X with the seed naming", async () => {
      node.on(X, "xvm.send", { result: { txID: TX_ID, changeAddr: CHANGE } });
      await xvm.send({ credentials: CREDENTIALS, amount: 1n, assetID: "AVAX", to: ADDRESS });
      expect(node.requests.map((r) => `${r.path} ${r.method}`)).to.deep.equal(["/ext/bc/X xvm.send"]);
    });

    it("posts avm.send to /ext/bc/X with the reference naming", async () => {
      node.on(X, "avm.send", { result: { txID: TX_ID, changeAddr: CHANGE } });
      await reference().send({ credentials: CREDENTIALS, amount: 1n, assetID: "AVAX", to: ADDRESS });
      expect(node.requests.map((r) => `${r.path} ${r.method}`)).to.deep.equal(["/ext/bc/X avm.send"]);
    });

    it("posts xvm.buildGenesis to /ext/vm/xvm, and avm.buildGenesis to /ext/vm/avm", async () => {
      node.on("/ext/vm/xvm", "xvm.buildGenesis", { result: { bytes: "111", encoding: "cb58" } });
      node.on("/ext/vm/avm", "avm.buildGenesis", { result: { bytes: "111", encoding: "cb58" } });
      const params = { networkID: 12345, genesisData: {} };
      await xvm.buildGenesis(params);
      await reference().buildGenesis(params);
      expect(node.requests.map((r) => `${r.path} ${r.method}`)).to.deep.equal([
        "/ext/vm/xvm xvm.buildGenesis",
        "/ext/vm/avm avm.buildGenesis",
      ]);
    });

    it("posts to /ext/bc/<chain> for another exchange-chain instance", async () => {
      const chain = "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed";
      node.on(`/ext/bc/${chain}`, "xvm.getTxStatus", { result: { status: "Accepted" } });
      const client = createExchangeChainClient({ transport: createTransport({ url: node.url }), chain });
      expect(await client.getTxStatus({ txID: TX_ID })).to.equal("Accepted");
    });
  });

  describe("parameters", () => {
    it("send: amount as a decimal string, credentials flattened, omitted optionals not sent", async () => {
      node.on(X, "xvm.send", { result: { txID: TX_ID, changeAddr: CHANGE } });
      await xvm.send({ credentials: CREDENTIALS, amount: 18_446_744_073_709_551_615n, assetID: "AVAX", to: ADDRESS });
      expect(sent()).to.deep.equal({
        amount: "18446744073709551615",
        assetID: "AVAX",
        to: ADDRESS,
        username: CREDENTIALS.username,
        password: CREDENTIALS.password,
      });
    });

    it("send: passes memo, from and changeAddr when given", async () => {
      node.on(X, "xvm.send", { result: { txID: TX_ID, changeAddr: CHANGE } });
      await xvm.send({ credentials: CREDENTIALS, amount: 5n, assetID: "AVAX", to: ADDRESS, memo: "hi", from: [ADDRESS], changeAddr: CHANGE });
      expect(sent()).to.include({ memo: "hi", changeAddr: CHANGE });
      expect((sent() as { from: string[] }).from).to.deep.equal([ADDRESS]);
    });

    it("rejects an amount that is not a bigint in 0..2^64-1 without calling the node", async () => {
      const negative = await rejectionOf(xvm.send({ credentials: CREDENTIALS, amount: -1n, assetID: "AVAX", to: ADDRESS }));
      const tooLarge = await rejectionOf(xvm.send({ credentials: CREDENTIALS, amount: 1n << 64n, assetID: "AVAX", to: ADDRESS }));
      const number = await rejectionOf(xvm.send({ credentials: CREDENTIALS, amount: 5 as unknown as bigint, assetID: "AVAX", to: ADDRESS }));
      expect(negative).to.be.instanceOf(RangeError).with.property("message", "xvm.send: amount must be from 0 to 2^64-1, got -1");
      expect(tooLarge).to.be.instanceOf(RangeError);
      expect(number).to.be.instanceOf(TypeError).with.property("message", "xvm.send: amount must be a bigint, got number 5");
      expect(node.requests).to.have.length(0);
    });

    it("sendMultiple: every output amount as a decimal string", async () => {
      node.on(X, "xvm.sendMultiple", { result: { txID: TX_ID, changeAddr: CHANGE } });
      await xvm.sendMultiple({
        credentials: CREDENTIALS,
        outputs: [
          { assetID: "AVAX", amount: 1n, to: ADDRESS },
          { assetID: ASSET_ID, amount: 2n, to: CHANGE },
        ],
      });
      expect((sent() as { outputs: unknown }).outputs).to.deep.equal([
        { assetID: "AVAX", amount: "1", to: ADDRESS },
        { assetID: ASSET_ID, amount: "2", to: CHANGE },
      ]);
    });

    it("createFixedCapAsset: holder amounts as strings, denomination as a number", async () => {
      node.on(X, "xvm.createFixedCapAsset", { result: { assetID: ASSET_ID, changeAddr: CHANGE } });
      const result = await xvm.createFixedCapAsset({
        credentials: CREDENTIALS,
        name: "Gold",
        symbol: "GLD",
        denomination: 2,
        initialHolders: [{ address: ADDRESS, amount: 10_000n }],
      });
      expect(result).to.deep.equal({ assetID: ASSET_ID, changeAddr: CHANGE });
      expect(sent()).to.deep.equal({
        name: "Gold",
        symbol: "GLD",
        denomination: 2,
        initialHolders: [{ amount: "10000", address: ADDRESS }],
        username: CREDENTIALS.username,
        password: CREDENTIALS.password,
      });
    });

    it("createVariableCapAsset: minter sets with a numeric threshold; denomination omitted when not given", async () => {
      node.on(X, "xvm.createVariableCapAsset", { result: { assetID: ASSET_ID, changeAddr: CHANGE } });
      await xvm.createVariableCapAsset({
        credentials: CREDENTIALS,
        name: "Silver",
        symbol: "SLV",
        minterSets: [{ minters: [ADDRESS, CHANGE], threshold: 2 }],
      });
      expect(sent()).to.not.have.property("denomination");
      expect((sent() as { minterSets: unknown }).minterSets).to.deep.equal([{ minters: [ADDRESS, CHANGE], threshold: 2 }]);
    });

    it("createNFTAsset: name, symbol and minter sets", async () => {
      node.on(X, "xvm.createNFTAsset", { result: { assetID: ASSET_ID, changeAddr: CHANGE } });
      await xvm.createNFTAsset({ credentials: CREDENTIALS, name: "Art", symbol: "ART", minterSets: [{ minters: [ADDRESS], threshold: 1 }] });
      expect(sent()).to.include({ name: "Art", symbol: "ART", username: "alice" });
    });

    it("mint: amount as a string, asset and recipient", async () => {
      node.on(X, "xvm.mint", { result: { txID: TX_ID, changeAddr: CHANGE } });
      expect(await xvm.mint({ credentials: CREDENTIALS, amount: 7n, assetID: ASSET_ID, to: ADDRESS })).to.deep.equal({
        txID: TX_ID,
        changeAddr: CHANGE,
      });
      expect(sent()).to.include({ amount: "7", assetID: ASSET_ID, to: ADDRESS });
    });

    it("mintNFT: a byte payload is sent hex-encoded with its checksum and encoding hex", async () => {
      node.on(X, "xvm.mintNFT", { result: { txID: TX_ID, changeAddr: CHANGE } });
      await xvm.mintNFT({ credentials: CREDENTIALS, assetID: ASSET_ID, to: ADDRESS, payload: new Uint8Array([1, 2, 3]) });
      const params = sent() as { payload: string; encoding: string };
      expect(params.encoding).to.equal("hex");
      expect(params.payload).to.have.length(2 + 2 * (3 + 4));
      expect(decodeNodeBytes(params.payload, "hex")).to.deep.equal(new Uint8Array([1, 2, 3]));
    });

    it("mintNFT: a string payload is sent as is, without an encoding unless given", async () => {
      node.on(X, "xvm.mintNFT", { result: { txID: TX_ID, changeAddr: CHANGE } });
      await xvm.mintNFT({ credentials: CREDENTIALS, assetID: ASSET_ID, to: ADDRESS, payload: "2Zc54v4ek37TEwu4LiV3j41PUMRd6acDDU3ZCVSxE7X" });
      expect(sent()).to.include({ payload: "2Zc54v4ek37TEwu4LiV3j41PUMRd6acDDU3ZCVSxE7X" });
      expect(sent()).to.not.have.property("encoding");
    });

    it("export: destination address, amount as a string and asset", async () => {
      node.on(X, "xvm.export", { result: { txID: TX_ID, changeAddr: CHANGE } });
      await xvm.export({ credentials: CREDENTIALS, to: "C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", amount: 1_000_000_000n, assetID: "AVAX" });
      expect(sent()).to.include({ to: "C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", amount: "1000000000", assetID: "AVAX" });
    });

    it("import: to and sourceChain; returns the txID", async () => {
      node.on(X, "xvm.import", { result: { txID: TX_ID } });
      expect(await xvm.import({ credentials: CREDENTIALS, to: ADDRESS, sourceChain: "C" })).to.equal(TX_ID);
      expect(sent()).to.deep.equal({ to: ADDRESS, sourceChain: "C", username: "alice", password: CREDENTIALS.password });
    });

    it("getAddressTxs: cursor as a decimal string, pageSize as a number; no cursor on the first page", async () => {
      node.on(X, "xvm.getAddressTxs", { result: { txIDs: [], cursor: "0" } });
      await xvm.getAddressTxs({ address: ADDRESS, assetID: "AVAX", pageSize: 10 });
      await xvm.getAddressTxs({ address: ADDRESS, assetID: "AVAX", cursor: 20n });
      expect(node.requests.map((r) => r.params)).to.deep.equal([
        { address: ADDRESS, assetID: "AVAX", pageSize: 10 },
        { address: ADDRESS, cursor: "20", assetID: "AVAX" },
      ]);
    });

    it("getAssetDescription: sends an empty assetID for the native asset", async () => {
      node.on(X, "xvm.getAssetDescription", { result: { assetID: ASSET_ID, name: "Avalanche", symbol: "AVAX", denomination: "9" } });
      await xvm.getAssetDescription();
      expect(sent()).to.deep.equal({ assetID: "" });
    });

    it("issueTx: bytes are sent hex-encoded with encoding hex; returns the txID", async () => {
      node.on(X, "xvm.issueTx", { result: { txID: TX_ID } });
      expect(await xvm.issueTx({ tx: new Uint8Array([0, 0, 1]) })).to.equal(TX_ID);
      const params = sent() as { tx: string; encoding: string };
      expect(params.encoding).to.equal("hex");
      expect(decodeNodeBytes(params.tx, "hex")).to.deep.equal(new Uint8Array([0, 0, 1]));
    });

    it("buildGenesis: holder amounts as strings, minter thresholds and networkID as numbers", async () => {
      node.on("/ext/vm/xvm", "xvm.buildGenesis", { result: { bytes: "0x00", encoding: "hex" } });
      await xvm.buildGenesis({
        networkID: 12345,
        encoding: "hex",
        genesisData: {
          asset1: { name: "one", symbol: "ONE", initialState: { fixedCap: [{ amount: 100000n, address: "local1abc" }] } },
          asset2: { name: "two", symbol: "TWO", denomination: 1, initialState: { variableCap: [{ minters: ["local1abc"], threshold: 1 }] } },
        },
      });
      expect(sent()).to.deep.equal({
        networkID: 12345,
        encoding: "hex",
        genesisData: {
          asset1: { name: "one", symbol: "ONE", initialState: { fixedCap: [{ amount: "100000", address: "local1abc" }] } },
          asset2: { name: "two", symbol: "TWO", denomination: 1, initialState: { variableCap: [{ minters: ["local1abc"], threshold: 1 }] } },
        },
      });
    });

    it("buildGenesis: a byte memo is hex-encoded and makes the request hex when no encoding is given", async () => {
      node.on("/ext/vm/xvm", "xvm.buildGenesis", { result: { bytes: "0x00", encoding: "hex" } });
      const result = await xvm.buildGenesis({
        networkID: 1,
        genesisData: { a: { name: "A", symbol: "A", memo: new Uint8Array([0xbe, 0xef]), initialState: { fixedCap: [] } } },
      });
      const params = sent() as { encoding: string; genesisData: { a: { memo: string } } };
      expect(params.encoding).to.equal("hex");
      expect(decodeNodeBytes(params.genesisData.a.memo, "hex")).to.deep.equal(new Uint8Array([0xbe, 0xef]));
      expect(result).to.deep.equal({ bytes: "0x00", encoding: "hex" });
    });

    it("getUTXOs: limit, startIndex, sourceChain and encoding when given, nothing else", async () => {
      node.on(X, "xvm.getUTXOs", { result: { numFetched: "0", utxos: [], endIndex: { address: ADDRESS, utxo: "11111111111111111111111111111111LpoYY" }, encoding: "hex" } });
      await xvm.getUTXOs({ addresses: [ADDRESS] });
      await xvm.getUTXOs({ addresses: [ADDRESS], limit: 5, startIndex: { address: ADDRESS, utxo: TX_ID }, sourceChain: "C", encoding: "hex" });
      expect(node.requests.map((r) => r.params)).to.deep.equal([
        { addresses: [ADDRESS] },
        { addresses: [ADDRESS], limit: 5, startIndex: { address: ADDRESS, utxo: TX_ID }, sourceChain: "C", encoding: "hex" },
      ]);
    });
  });

  describe("results", () => {
    it("getBalance: parses a string balance into a bigint and lists the UTXO IDs", async () => {
      node.on(X, "xvm.getBalance", { result: { balance: "299999999999900000", utxoIDs: [{ txID: TX_ID, outputIndex: "1" }] } });
      expect(await xvm.getBalance({ address: ADDRESS, assetID: "AVAX" })).to.deep.equal({
        balance: 299_999_999_999_900_000n,
        utxoIDs: [{ txID: TX_ID, outputIndex: 1 }],
      });
    });

    it("getBalance: parses a numeric balance, even one beyond 2^53, exactly", async () => {
      node.on(X, "xvm.getBalance", (request) => ({
        status: 200,
        contentType: "application/json",
        body: `{"jsonrpc":"2.0","id":${String(request.id)},"result":{"balance":18446744073709551615}}`,
      }));
      const { balance, utxoIDs } = await xvm.getBalance({ address: ADDRESS, assetID: "AVAX" });
      expect(balance).to.equal(18_446_744_073_709_551_615n);
      expect(utxoIDs).to.deep.equal([]);
    });

    it("getAllBalances: parses every balance, string or number", async () => {
      node.on(X, "xvm.getAllBalances", { result: { balances: [{ asset: "AVAX", balance: "102" }, { asset: ASSET_ID, balance: 7 }] } });
      expect(await xvm.getAllBalances({ address: ADDRESS })).to.deep.equal([
        { asset: "AVAX", balance: 102n },
        { asset: ASSET_ID, balance: 7n },
      ]);
    });

    it("getAssetDescription: accepts the assetId spelling and a string denomination", async () => {
      node.on(X, "xvm.getAssetDescription", { result: { assetId: ASSET_ID, name: "Gold", symbol: "GLD", denomination: "2" } });
      expect(await xvm.getAssetDescription({ assetID: "GLD" })).to.deep.equal({ assetID: ASSET_ID, name: "Gold", symbol: "GLD", denomination: 2 });
    });

    it("getAddressTxs: parses the cursor into a bigint", async () => {
      node.on(X, "xvm.getAddressTxs", { result: { txIDs: [TX_ID], cursor: "1" } });
      expect(await xvm.getAddressTxs({ address: ADDRESS, assetID: "AVAX" })).to.deep.equal({ txIDs: [TX_ID], cursor: 1n });
    });

    it("getTx: returns the encoded transaction and its encoding", async () => {
      node.on(X, "xvm.getTx", { result: { tx: "0x0000abcd", encoding: "hex" } });
      expect(await xvm.getTx({ txID: TX_ID, encoding: "hex" })).to.deep.equal({ tx: "0x0000abcd", encoding: "hex" });
    });

    it("getTx: with encoding json returns the transaction object", async () => {
      const tx = { unsignedTx: { networkID: 12345, memo: "0x" }, credentials: [] };
      node.on(X, "xvm.getTx", { result: { tx, encoding: "json" } });
      const result = await xvm.getTx({ txID: TX_ID, encoding: "json" });
      expect(result.tx).to.deep.equal(tx);
    });

    it("createAddress, listAddresses, exportKey and importKey return the value of their one field", async () => {
      const key = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";
      node.on(X, "xvm.createAddress", { result: { address: ADDRESS } });
      node.on(X, "xvm.listAddresses", { result: { addresses: [ADDRESS, CHANGE] } });
      node.on(X, "xvm.exportKey", { result: { privateKey: key } });
      node.on(X, "xvm.importKey", { result: { address: ADDRESS } });
      expect(await xvm.createAddress({ credentials: CREDENTIALS })).to.equal(ADDRESS);
      expect(await xvm.listAddresses({ credentials: CREDENTIALS })).to.deep.equal([ADDRESS, CHANGE]);
      expect(await xvm.exportKey({ credentials: CREDENTIALS, address: ADDRESS })).to.equal(key);
      expect(await xvm.importKey({ credentials: CREDENTIALS, privateKey: key })).to.equal(ADDRESS);
    });

    it("getUTXOs: parses numFetched (string) into a number, with utxos, endIndex and encoding", async () => {
      const endIndex = { address: ADDRESS, utxo: TX_ID };
      node.on(X, "xvm.getUTXOs", { result: { numFetched: "2", utxos: ["0xaa", "0xbb"], endIndex, encoding: "hex" } });
      expect(await xvm.getUTXOs({ addresses: [ADDRESS], encoding: "hex" })).to.deep.equal({
        numFetched: 2,
        utxos: ["0xaa", "0xbb"],
        endIndex,
        encoding: "hex",
      });
    });

    it("reports a result field of the wrong type as NodeResponseError naming the field", async () => {
      node.on(X, "xvm.getBalance", { result: { balance: "12.5" } });
      const error = await rejectionOf(xvm.getBalance({ address: ADDRESS, assetID: "AVAX" }));
      expect(error).to.be.instanceOf(NodeResponseError);
      expect(error.message).to.equal(
        'xvm.getBalance failed: unexpected answer from the node: result.balance must be a uint64 (a decimal string or a non-negative integer), got "12.5"',
      );
    });

    it("passes the node's error message through verbatim", async () => {
      node.on(X, "xvm.send", { error: { code: -32000, message: "insufficient funds: have 5, need 10" } });
      const error = await rejectionOf(xvm.send({ credentials: CREDENTIALS, amount: 10n, assetID: "AVAX", to: ADDRESS }));
      expect(error).to.be.instanceOf(NodeApiError);
      expect(error.message).to.equal("xvm.send failed: insufficient funds: have 5, need 10 (code -32000)");
      expect((error as NodeApiError).nodeMessage).to.equal("insufficient funds: have 5, need 10");
    });
  });

  describe("iterators", () => {
    const utxoPage = (utxos: string[], end: string, numFetched = utxos.length) => ({
      result: { numFetched: String(numFetched), utxos, endIndex: { address: ADDRESS, utxo: end }, encoding: "cb58" },
    });

    it("iterateUTXOs: walks pages from endIndex to startIndex, skips a repeated UTXO, stops below the limit", async () => {
      node.on(X, "xvm.getUTXOs", utxoPage(["u1", "u2"], "e1"), utxoPage(["u2", "u3"], "e2"), utxoPage(["u4"], "e3"));
      const seen: string[] = [];
      for await (const utxo of xvm.iterateUTXOs({ addresses: [ADDRESS], limit: 2 })) seen.push(utxo);
      expect(seen).to.deep.equal(["u1", "u2", "u3", "u4"]);
      expect(node.requests.map((r) => (r.params as { startIndex?: unknown }).startIndex)).to.deep.equal([
        undefined,
        { address: ADDRESS, utxo: "e1" },
        { address: ADDRESS, utxo: "e2" },
      ]);
      expect(node.requests.every((r) => (r.params as { limit: number }).limit === 2)).to.equal(true);
    });

    it("iterateUTXOs: after a full page, an empty page ends the walk", async () => {
      node.on(X, "xvm.getUTXOs", utxoPage(["u1", "u2"], "e1"), utxoPage([], "e1"));
      const seen: string[] = [];
      for await (const utxo of xvm.iterateUTXOs({ addresses: [ADDRESS], limit: 2 })) seen.push(utxo);
      expect(seen).to.deep.equal(["u1", "u2"]);
      expect(node.requests).to.have.length(2);
    });

    it("iterateUTXOs: without a limit, a page is full at 1024 UTXOs", async () => {
      const full = Array.from({ length: 1024 }, (_, i) => `u${i}`);
      node.on(X, "xvm.getUTXOs", utxoPage(full, "e1"), utxoPage(["last"], "e2"));
      let count = 0;
      for await (const _ of xvm.iterateUTXOs({ addresses: [ADDRESS] })) count++;
      expect(count).to.equal(1025);
      expect(node.requests[0]!.params).to.not.have.property("limit");
    });

    it("iterateAddressTxs: follows the cursor until a short page", async () => {
      node.on(
        X,
        "xvm.getAddressTxs",
        { result: { txIDs: ["t1", "t2"], cursor: "2" } },
        { result: { txIDs: ["t3"], cursor: "3" } },
      );
      const seen: string[] = [];
      for await (const txID of xvm.iterateAddressTxs({ address: ADDRESS, assetID: "AVAX", pageSize: 2 })) seen.push(txID);
      expect(seen).to.deep.equal(["t1", "t2", "t3"]);
      expect(node.requests.map((r) => (r.params as { cursor?: string }).cursor)).to.deep.equal([undefined, "2"]);
    });
  });

  describe("waitForTxStatus", () => {
    it("resolves once Accepted, reporting each new status", async () => {
      node.on(X, "xvm.getTxStatus", { result: { status: "Unknown" } }, { result: { status: "Processing" } }, { result: { status: "Processing" } }, { result: { status: "Accepted" } });
      const statuses: XvmTxStatus[] = [];
      expect(await xvm.waitForTxStatus(TX_ID, { intervalMs: 1, onStatus: (s) => statuses.push(s) })).to.equal("Accepted");
      expect(statuses).to.deep.equal(["Unknown", "Processing", "Accepted"]);
      expect(node.requests).to.have.length(4);
      expect(node.requests[0]!.params).to.deep.equal({ txID: TX_ID });
    });

    it("throws TxRejectedError when the transaction is Rejected", async () => {
      node.on(X, "xvm.getTxStatus", { result: { status: "Processing" } }, { result: { status: "Rejected" } });
      const error = await rejectionOf(xvm.waitForTxStatus(TX_ID, { intervalMs: 1 }));
      expect(error).to.be.instanceOf(TxRejectedError);
      expect(error.message).to.equal(`waitForTxStatus (xvm.getTxStatus): transaction ${TX_ID} is Rejected (it will never be accepted)`);
    });

    it("throws TxWaitTimeoutError with the last status after timeoutMs", async () => {
      node.on(X, "xvm.getTxStatus", { result: { status: "Processing" } });
      const error = await rejectionOf(xvm.waitForTxStatus(TX_ID, { timeoutMs: 40, intervalMs: 5 }));
      expect(error).to.be.instanceOf(TxWaitTimeoutError);
      expect((error as TxWaitTimeoutError).lastStatus).to.equal("Processing");
      expect(error.message).to.contain("was not Accepted within 40 ms (last status: Processing)");
    });
  });
});
