import { expect } from "chai";

import {
  type AtomicTxStatus,
  type ContractChainClient,
  createContractChainClient,
  createTransport,
  TxRejectedError,
  TxWaitTimeoutError,
} from "../../src/clients";
import { assetIdToHex } from "../../src/encoding";
import { CREDENTIALS, type FakeNode, rejectionOf, startFakeNode } from "./fake-node";

const CVM = "/ext/bc/C/cvm";
const AVAX = "/ext/bc/C/avax";
const RPC = "/ext/bc/C/rpc";
const TX_ID = "2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD";
const ASSET_ID = "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe";
const EVM_ADDRESS = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
const X_ADDRESS = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
const C_ADDRESS = "C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";

describe("clients/cvm", () => {
  let node: FakeNode;
  let cvm: ContractChainClient;
  before(async () => {
    node = await startFakeNode();
    cvm = createContractChainClient({ transport: createTransport({ url: node.url }) });
  });
  after(() => node.close());
  beforeEach(() => node.reset());

  const sent = () => node.requests[node.requests.length - 1]!.params;
  const where = () => node.requests.map((r) => `${r.path} ${r.method}`);

  describe("paths and method names", () => {
    it("posts cvm.export to /ext/bc/C/cvm with the seed naming", async () => {
      node.on(CVM, "cvm.export", { result: { txID: TX_ID } });
      await cvm.export({ credentials: CREDENTIALS, to: X_ADDRESS, amount: 1n, assetID: "AVAX" });
      expect(where()).to.deep.equal(["/ext/bc/C/cvm cvm.export"]);
    });

    it("posts avax.export to /ext/bc/C/avax with the reference naming", async () => {
      node.on(AVAX, "avax.export", { result: { txID: TX_ID } });
      const reference = createContractChainClient({ transport: createTransport({ url: node.url }), naming: "reference" });
      await reference.export({ credentials: CREDENTIALS, to: X_ADDRESS, amount: 1n, assetID: "AVAX" });
      expect(where()).to.deep.equal(["/ext/bc/C/avax avax.export"]);
    });

    it("posts the eth_* helpers to /ext/bc/C/rpc under both namings", async () => {
      node.on(RPC, "eth_baseFee", { result: "0x5d21dba00" });
      const reference = createContractChainClient({ transport: createTransport({ url: node.url }), naming: "reference" });
      await cvm.baseFee();
      await reference.baseFee();
      expect(where()).to.deep.equal(["/ext/bc/C/rpc eth_baseFee", "/ext/bc/C/rpc eth_baseFee"]);
      expect(node.requests[0]!.params).to.deep.equal([]);
    });
  });

  describe("parameters", () => {
    it("export: amount as a decimal string and baseFee as a 0x hex quantity", async () => {
      node.on(CVM, "cvm.export", { result: { txID: TX_ID } });
      expect(
        await cvm.export({ credentials: CREDENTIALS, to: X_ADDRESS, amount: 5_000_000n, assetID: ASSET_ID, baseFee: 25_000_000_000n }),
      ).to.equal(TX_ID);
      expect(sent()).to.deep.equal({
        to: X_ADDRESS,
        amount: "5000000",
        assetID: ASSET_ID,
        baseFee: "0x5d21dba00",
        username: CREDENTIALS.username,
        password: CREDENTIALS.password,
      });
    });

    it("import: sends no baseFee when none is given", async () => {
      node.on(CVM, "cvm.import", { result: { txID: TX_ID } });
      expect(await cvm.import({ credentials: CREDENTIALS, to: EVM_ADDRESS, sourceChain: "X" })).to.equal(TX_ID);
      expect(sent()).to.deep.equal({ to: EVM_ADDRESS, sourceChain: "X", username: "alice", password: CREDENTIALS.password });
    });

    it("getUTXOs: requires sourceChain and checks it before calling the node", async () => {
      const error = await rejectionOf(cvm.getUTXOs({ addresses: [C_ADDRESS] } as unknown as Parameters<ContractChainClient["getUTXOs"]>[0]));
      expect(error).to.be.instanceOf(TypeError).with.property("message", "cvm.getUTXOs: sourceChain must be a non-empty string, got nothing");
      expect(node.requests).to.have.length(0);
    });

    it("exportKey and importKey: credentials plus address or key", async () => {
      const key = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";
      node.on(CVM, "cvm.exportKey", { result: { privateKey: key, privateKeyHex: "0x56289e99" } });
      node.on(CVM, "cvm.importKey", { result: { address: EVM_ADDRESS } });
      expect(await cvm.exportKey({ credentials: CREDENTIALS, address: EVM_ADDRESS })).to.deep.equal({ privateKey: key, privateKeyHex: "0x56289e99" });
      expect(await cvm.importKey({ credentials: CREDENTIALS, privateKey: key })).to.equal(EVM_ADDRESS);
      expect(node.requests.map((r) => r.params)).to.deep.equal([
        { username: "alice", password: CREDENTIALS.password, address: EVM_ADDRESS },
        { username: "alice", password: CREDENTIALS.password, privateKey: key },
      ]);
    });

    it("issueTx: a string tx is sent as is with the given encoding", async () => {
      node.on(CVM, "cvm.issueTx", { result: { txID: TX_ID } });
      expect(await cvm.issueTx({ tx: "0x00001234abcd", encoding: "hex" })).to.equal(TX_ID);
      expect(sent()).to.deep.equal({ tx: "0x00001234abcd", encoding: "hex" });
    });

    it("getAssetBalance: positional [address, block, cb58 asset ID], converting a hex asset ID to cb58", async () => {
      node.on(RPC, "eth_getAssetBalance", { result: "0x3e8" });
      expect(await cvm.getAssetBalance(EVM_ADDRESS, assetIdToHex(ASSET_ID))).to.equal(1000n);
      expect(sent()).to.deep.equal([EVM_ADDRESS, "latest", ASSET_ID]);
    });

    it("getAssetBalance: a block number is sent as a hex quantity", async () => {
      node.on(RPC, "eth_getAssetBalance", { result: "0x0" });
      await cvm.getAssetBalance(EVM_ADDRESS, ASSET_ID, 255n);
      expect(sent()).to.deep.equal([EVM_ADDRESS, "0xff", ASSET_ID]);
    });
  });

  describe("results", () => {
    it("getAtomicTx: parses blockHeight (a string) into a bigint", async () => {
      node.on(CVM, "cvm.getAtomicTx", { result: { tx: "0xabcd", encoding: "hex", blockHeight: "42" } });
      expect(await cvm.getAtomicTx({ txID: TX_ID, encoding: "hex" })).to.deep.equal({ tx: "0xabcd", encoding: "hex", blockHeight: 42n });
    });

    it("getAtomicTxStatus: no blockHeight unless Accepted", async () => {
      node.on(CVM, "cvm.getAtomicTxStatus", { result: { status: "Processing" } });
      expect(await cvm.getAtomicTxStatus({ txID: TX_ID })).to.deep.equal({ status: "Processing" });
    });

    it("getUTXOs: parses a page (numFetched as a number)", async () => {
      node.on(CVM, "cvm.getUTXOs", { result: { numFetched: 1, utxos: ["abc"], endIndex: { address: C_ADDRESS, utxo: TX_ID }, encoding: "cb58" } });
      const page = await cvm.getUTXOs({ addresses: [C_ADDRESS], sourceChain: "X" });
      expect(page).to.deep.equal({ numFetched: 1, utxos: ["abc"], endIndex: { address: C_ADDRESS, utxo: TX_ID }, encoding: "cb58" });
      expect(sent()).to.deep.equal({ addresses: [C_ADDRESS], sourceChain: "X" });
    });

    it("baseFee and maxPriorityFeePerGas: parse hex quantities into bigints", async () => {
      node.on(RPC, "eth_baseFee", { result: "0x5d21dba00" });
      node.on(RPC, "eth_maxPriorityFeePerGas", { result: "0x0" });
      expect(await cvm.baseFee()).to.equal(25_000_000_000n);
      expect(await cvm.maxPriorityFeePerGas()).to.equal(0n);
    });
  });

  describe("iterateUTXOs", () => {
    it("walks the pages of atomic UTXOs, sending sourceChain each time and skipping repeats", async () => {
      const page = (utxos: string[], end: string) => ({
        result: { numFetched: String(utxos.length), utxos, endIndex: { address: C_ADDRESS, utxo: end }, encoding: "hex" },
      });
      node.on(CVM, "cvm.getUTXOs", page(["0xA1", "0xa2"], "e1"), page(["0xa2", "0xa3"], "e2"), page([], "e2"));
      const seen: string[] = [];
      for await (const utxo of cvm.iterateUTXOs({ addresses: [C_ADDRESS], sourceChain: "X", limit: 2, encoding: "hex" })) seen.push(utxo);
      expect(seen).to.deep.equal(["0xA1", "0xa2", "0xa3"]);
      expect(node.requests.map((r) => (r.params as { sourceChain: string }).sourceChain)).to.deep.equal(["X", "X", "X"]);
    });
  });

  describe("waitForAtomicTxStatus", () => {
    it("keeps polling through Unknown and Processing and resolves with the block height when Accepted", async () => {
      node.on(CVM, "cvm.getAtomicTxStatus", { result: { status: "Unknown" } }, { result: { status: "Processing" } }, { result: { status: "Accepted", blockHeight: "7" } });
      const statuses: AtomicTxStatus[] = [];
      const result = await cvm.waitForAtomicTxStatus(TX_ID, { intervalMs: 1, onStatus: (s) => statuses.push(s) });
      expect(result).to.deep.equal({ status: "Accepted", blockHeight: 7n });
      expect(statuses).to.deep.equal(["Unknown", "Processing", "Accepted"]);
    });

    it("throws TxRejectedError when the transaction is Dropped", async () => {
      node.on(CVM, "cvm.getAtomicTxStatus", { result: { status: "Dropped" } });
      const error = await rejectionOf(cvm.waitForAtomicTxStatus(TX_ID, { intervalMs: 1 }));
      expect(error).to.be.instanceOf(TxRejectedError);
      expect((error as TxRejectedError).status).to.equal("Dropped");
      expect(error.message).to.contain("is Dropped (the node considered it invalid)");
    });

    it("throws TxWaitTimeoutError with the last status after timeoutMs", async () => {
      node.on(CVM, "cvm.getAtomicTxStatus", { result: { status: "Unknown" } });
      const error = await rejectionOf(cvm.waitForAtomicTxStatus(TX_ID, { timeoutMs: 30, intervalMs: 5 }));
      expect(error).to.be.instanceOf(TxWaitTimeoutError);
      expect((error as TxWaitTimeoutError).lastStatus).to.equal("Unknown");
    });
  });
});
