import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { Avalanche } from "avalanche";
import { decodeCb58, decodeNodeBytes, encodeCb58, hexToBytes } from "../../src/encoding";
import { decodeProposerBlock } from "../../src/node/indexer/proposer-block";
import { OperatorApis } from "../../src/node/operator-apis";
import { NodeChains } from "../../src/node/node-chains";
import { startHttpNode } from "../../src/node/http-server";
import { type ManagedTestNode, startManagedNode } from "./node";

interface Container {
  id: string;
  bytes: string;
  timestamp: string;
  encoding: string;
  index: string;
}

const X_TX = "/ext/index/X/tx";
const X_VTX = "/ext/index/X/vtx";
const P_BLOCK = "/ext/index/P/block";
const C_BLOCK = "/ext/index/C/block";
const UNKNOWN_ID = encodeCb58(new Uint8Array(32).fill(7));

describe("index API (/ext/index/..., --index-enabled)", () => {
  let node: ManagedTestNode;
  beforeEach(async () => {
    node = await startManagedNode({ indexEnabled: true });
  });
  afterEach(() => node.close());

  const container = (p: string, method: string, params: unknown) => node.call<Container>(p, method, params);

  describe("an index where nothing was accepted", () => {
    for (const p of [X_TX, X_VTX, P_BLOCK, C_BLOCK]) {
      it(`${p} is served and says "no containers have been accepted"`, async () => {
        expect(await node.failure(p, "index.getLastAccepted", { encoding: "hex" })).to.deep.equal({ code: -32000, message: "no containers have been accepted" });
      });
    }

    it("getContainerRange on an empty index says no containers have been accepted", async () => {
      expect((await node.failure(X_TX, "index.getContainerRange", { startIndex: 0, numToFetch: 10 })).message).to.equal("no containers have been accepted");
    });

    it("does not index the genesis transactions or the genesis block", async () => {
      expect(node.network.exchange.acceptedTxs().length).to.be.greaterThan(0);
      expect((await node.failure(X_TX, "index.getContainerByIndex", { index: 0 })).message).to.equal("no container at index 0");
      expect((await node.failure(C_BLOCK, "index.getContainerByIndex", { index: 0 })).message).to.equal("no container at index 0");
    });
  });

  describe("the exchange chain's transaction index (/ext/index/X/tx)", () => {
    it("indexes each accepted transaction, from index 0, with its ID and its signed bytes", async () => {
      const txID = await node.sendX();
      const c = await container(X_TX, "index.getLastAccepted", { encoding: "hex" });
      expect(c).to.include({ id: txID, index: "0", encoding: "hex" });
      const { tx } = await node.call<{ tx: string }>("/ext/bc/X", "avm.getTx", { txID, encoding: "hex" });
      expect(c.bytes).to.equal(tx);
    });

    it("numbers transactions in acceptance order without gaps", async () => {
      const ids = [await node.sendX(1), await node.sendX(2), await node.sendX(3)];
      const { containers } = await node.call<{ containers: Container[] }>(X_TX, "index.getContainerRange", { startIndex: 0, numToFetch: 10, encoding: "hex" });
      expect(containers.map((c) => [c.index, c.id])).to.deep.equal(ids.map((id, i) => [String(i), id]));
    });

    it("getContainerByIndex, getContainerByID, getIndex and isAccepted agree", async () => {
      await node.sendX(1);
      const txID = await node.sendX(2);
      const byIndex = await container(X_TX, "index.getContainerByIndex", { index: "1", encoding: "hex" });
      const byId = await container(X_TX, "index.getContainerByID", { id: txID, encoding: "hex" });
      expect(byIndex).to.deep.equal(byId);
      expect(await node.call(X_TX, "index.getIndex", { id: txID })).to.deep.equal({ index: "1" });
      expect(await node.call(X_TX, "index.isAccepted", { id: txID })).to.deep.equal({ isAccepted: true });
    });

    it("writes hex as 0x + bytes + a 4-byte checksum, and also answers hexnc and cb58", async () => {
      const txID = await node.sendX();
      const hex = await container(X_TX, "index.getContainerByID", { id: txID, encoding: "hex" });
      const raw = decodeNodeBytes(hex.bytes, "hex");
      expect(sha256(raw).slice(28)).to.deep.equal(hexToBytes(`0x${hex.bytes.slice(-8)}`));
      const cb58 = await container(X_TX, "index.getContainerByID", { id: txID, encoding: "cb58" });
      expect(cb58.encoding).to.equal("cb58");
      expect(decodeCb58(cb58.bytes)).to.deep.equal(raw);
      const hexnc = await container(X_TX, "index.getContainerByID", { id: txID, encoding: "hexnc" });
      expect(hexToBytes(hexnc.bytes)).to.deep.equal(raw);
    });

    it("answers hex when no encoding is given", async () => {
      await node.sendX();
      expect((await container(X_TX, "index.getLastAccepted", {})).encoding).to.equal("hex");
    });

    it("stamps each container with its acceptance time: RFC 3339, nanoseconds, the node's offset", async () => {
      const before = Date.now();
      await node.sendX();
      const after = Date.now();
      const { timestamp } = await container(X_TX, "index.getLastAccepted", {});
      expect(timestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/);
      const ms = Date.parse(timestamp);
      expect(ms).to.be.within(before - 1, after + 1);
    });

    it("leaves the vertex and platform-chain indexes empty", async () => {
      await node.sendX();
      await node.sendC();
      for (const p of [X_VTX, P_BLOCK]) expect((await node.failure(p, "index.getLastAccepted", {})).message).to.equal("no containers have been accepted");
    });
  });

  describe("the contract chain's block index (/ext/index/C/block)", () => {
    it("stores the first block after genesis as its raw RLP, under the block's hash", async () => {
      const hash = await node.sendC();
      const c = await container(C_BLOCK, "index.getContainerByIndex", { index: 0, encoding: "hex" });
      expect(c.id).to.equal(encodeCb58(hexToBytes(hash)));
      const rlp = node.network.engine.resolveBlock({ hash }).block.serialize();
      expect(decodeNodeBytes(c.bytes, "hex")).to.deep.equal(rlp);
    });

    it("wraps every later block in an unsigned proposer block whose parent is the previous container", async () => {
      await node.sendC();
      const hash = await node.sendC();
      const [first, second] = (await node.call<{ containers: Container[] }>(C_BLOCK, "index.getContainerRange", { startIndex: 0, numToFetch: 2 })).containers;
      const bytes = decodeNodeBytes(second!.bytes, "hex");
      expect([...bytes.subarray(0, 6)]).to.deep.equal([0, 0, 0, 0, 0, 0]); // codec version 0, type ID 0
      const record = node.network.engine.resolveBlock({ hash });
      expect(decodeProposerBlock(bytes)).to.deep.equal({
        parentId: decodeCb58(first!.id),
        timestamp: record.block.header.timestamp,
        pChainHeight: 0n,
        certificate: new Uint8Array(0),
        block: record.block.serialize(),
        signature: new Uint8Array(0),
      });
    });

    it("names a proposer block by the sha256 of its bytes without the empty signature's length", async () => {
      await node.sendC();
      await node.sendC();
      const c = await container(C_BLOCK, "index.getLastAccepted", {});
      const bytes = decodeNodeBytes(c.bytes, "hex");
      expect(c.id).to.equal(encodeCb58(sha256(bytes.subarray(0, bytes.length - 4))));
    });
  });

  describe("refusals, in the reference node's words", () => {
    beforeEach(async () => {
      await node.sendX(1);
      await node.sendX(2);
    });

    it("an index past the last: no container at index <n>", async () => {
      expect(await node.failure(X_TX, "index.getContainerByIndex", { index: 5 })).to.deep.equal({ code: -32000, message: "no container at index 5" });
    });

    it("a range starting past the last: start index (<s>) > last accepted index (<l>)", async () => {
      expect((await node.failure(X_TX, "index.getContainerRange", { startIndex: 3, numToFetch: 1 })).message).to.equal("start index (3) > last accepted index (1)");
    });

    it("numToFetch 0 is refused (the reference's rule, not the seed's 0 to 1024)", async () => {
      expect((await node.failure(X_TX, "index.getContainerRange", { startIndex: 0, numToFetch: 0 })).message).to.equal("numToFetch must be in [1,1024] but is 0");
    });

    it("numToFetch 1025 is refused", async () => {
      expect((await node.failure(X_TX, "index.getContainerRange", { startIndex: 0, numToFetch: 1025 })).message).to.equal("numToFetch must be in [1,1024] but is 1025");
    });

    it("a range running past the last is cut at the last accepted container", async () => {
      const { containers } = await node.call<{ containers: Container[] }>(X_TX, "index.getContainerRange", { startIndex: "1", numToFetch: "1024" });
      expect(containers.map((c) => c.index)).to.deep.equal(["1"]);
    });

    it("an unknown ID: not found (getContainerByID, getIndex)", async () => {
      expect(await node.failure(X_TX, "index.getContainerByID", { id: UNKNOWN_ID })).to.deep.equal({ code: -32000, message: "not found" });
      expect(await node.failure(X_TX, "index.getIndex", { id: UNKNOWN_ID })).to.deep.equal({ code: -32000, message: "not found" });
    });

    it("an unknown ID is not accepted (isAccepted answers false)", async () => {
      expect(await node.call(X_TX, "index.isAccepted", { id: UNKNOWN_ID })).to.deep.equal({ isAccepted: false });
    });

    it("an ID that is not cb58 is an invalid parameter", async () => {
      const { code, message } = await node.failure(X_TX, "index.getIndex", { id: "not-an-id" });
      expect(code).to.equal(-32602);
      expect(message).to.match(/^id "not-an-id" is not a cb58 ID/);
    });

    it("an unknown encoding is an invalid parameter", async () => {
      expect((await node.failure(X_TX, "index.getLastAccepted", { encoding: "json" })).code).to.equal(-32602);
    });
  });

  describe("the legacy avalanche SDK's IndexAPI, unchanged", () => {
    it("reads the exchange chain's and the contract chain's indexes", async () => {
      const txID = await node.sendX();
      await node.sendC();
      const index = new Avalanche("127.0.0.1", node.http.port, "http", 12345).Index();
      const last = await index.getLastAccepted("hex", X_TX);
      expect(last).to.include({ id: txID, index: "0" });
      expect(await index.getContainerByIndex("0", "hex", X_TX)).to.deep.equal(last);
      expect(await index.getContainerByID(txID, "hex", X_TX)).to.deep.equal(last);
      expect(await index.getContainerRange(0, 100, "hex", X_TX)).to.deep.equal({ containers: [last] });
      expect(await index.getIndex(txID, "hex", X_TX)).to.equal("0");
      expect(await index.isAccepted(txID, "hex", X_TX)).to.deep.equal({ isAccepted: true });
      expect((await index.getLastAccepted("hex", C_BLOCK)).index).to.equal("0");
    });
  });
});

describe("index API: indexing starts when it is turned on", () => {
  it("indexes only the blocks accepted after, and wraps the next block on the chain's real parent", async () => {
    const network = await NodeChains.create();
    const engine = network.engine;
    await engine.mineBlock();
    const management = await OperatorApis.create({ network: network.network, engine, exchange: network.exchange }, { indexEnabled: true });
    const http = await startHttpNode({ port: 0, routes: management.routes });
    try {
      const { record } = await engine.mineBlock();
      const response = await fetch(`${http.url}${C_BLOCK}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "index.getContainerRange", params: { startIndex: 0, numToFetch: 5 } }),
      });
      const { result } = (await response.json()) as { result: { containers: Container[] } };
      expect(result.containers.map((c) => c.index)).to.deep.equal(["0"]);
      const wrapped = decodeProposerBlock(decodeNodeBytes(result.containers[0]!.bytes, "hex"));
      expect(wrapped.parentId).to.deep.equal(hexToBytes(engine.resolveBlock(1n).hash));
      expect(wrapped.block).to.deep.equal(record.block.serialize());
    } finally {
      await http.close();
      await management.close();
    }
  });
});
