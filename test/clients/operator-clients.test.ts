import { expect } from "chai";
import * as fs from "node:fs";
import {
  createAdminClient,
  createIndexClient,
  createIpcsClient,
  createTransport,
  NodeApiError,
  readIpcMessages,
  type IndexContainer,
} from "../../src/clients";
import { type ManagedTestNode, startManagedNode, temporaryDirectory } from "../management/node";

describe("clients of the index, IPC and admin APIs, against the simulator", () => {
  let dir: string;
  let node: ManagedTestNode;
  beforeEach(async () => {
    dir = temporaryDirectory("clients");
    node = await startManagedNode({ indexEnabled: true, ipcsEnabled: true, ipcsPath: dir, adminApiEnabled: true, profileDir: dir });
  });
  afterEach(async () => {
    await node.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const transport = () => createTransport({ url: node.url });

  describe("index client", () => {
    it("reads a container by index, by ID, as the last accepted, in a range, with its index and acceptance", async () => {
      const txID = await node.sendX();
      const index = createIndexClient({ transport: transport(), index: "X/tx" });
      const last = await index.getLastAccepted();
      expect(last).to.include({ id: txID, index: 0n, encoding: "hex" });
      expect(last.bytes).to.be.instanceOf(Uint8Array);
      expect(await index.getContainerByIndex(0n)).to.deep.equal(last);
      expect(await index.getContainerByID(txID)).to.deep.equal(last);
      expect(await index.getContainerRange(0n, 5)).to.deep.equal([last]);
      expect(await index.getIndex(txID)).to.equal(0n);
      expect(await index.isAccepted(txID)).to.equal(true);
    });

    it("decodes cb58 containers to the same bytes", async () => {
      await node.sendX();
      const hex = await createIndexClient({ transport: transport() }).getLastAccepted();
      const cb58 = await createIndexClient({ transport: transport(), encoding: "cb58" }).getLastAccepted();
      expect(cb58.bytes).to.deep.equal(hex.bytes);
    });

    it("reports the node's refusal as a NodeApiError", async () => {
      const error = await createIndexClient({ transport: transport(), index: "P/block" }).getLastAccepted().catch((e: unknown) => e);
      expect(error).to.be.instanceOf(NodeApiError);
      expect((error as NodeApiError).nodeMessage).to.equal("no containers have been accepted");
    });

    it("refuses numToFetch outside 1 to 1024 before sending", async () => {
      const index = createIndexClient({ transport: transport() });
      for (const n of [0, 1025]) {
        const error = await index.getContainerRange(0n, n).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(RangeError);
      }
    });

    it("walks every container in order, 1024 per request", async () => {
      // 1030 empty blocks, mined in two batches.
      for (const count of [1000, 30]) {
        const batch = Array.from({ length: count }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "evm_mine", params: [] }));
        await fetch(`${node.url}/ext/bc/C/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(batch) });
      }
      const calls: string[] = [];
      const base = transport();
      const counting = { url: base.url, call: (...args: Parameters<typeof base.call>) => (calls.push(args[1]), base.call(...args)) };
      const seen: IndexContainer[] = [];
      for await (const container of createIndexClient({ transport: counting, index: "C/block" }).containers()) seen.push(container);
      expect(seen.map((c) => c.index)).to.deep.equal(Array.from({ length: 1030 }, (_, i) => BigInt(i)));
      expect(calls).to.deep.equal(["index.getLastAccepted", "index.getContainerRange", "index.getContainerRange"]);
    });

    it("walks nothing on an empty index, and stops at a limit", async () => {
      const empty: IndexContainer[] = [];
      for await (const c of createIndexClient({ transport: transport() }).containers()) empty.push(c);
      expect(empty).to.deep.equal([]);
      await node.sendX(1);
      await node.sendX(2);
      await node.sendX(3);
      const some: bigint[] = [];
      for await (const c of createIndexClient({ transport: transport() }).containers({ start: 1n, limit: 1 })) some.push(c.index);
      expect(some).to.deep.equal([1n]);
    });
  });

  describe("ipcs client", () => {
    it("publishes a chain, lists it and unpublishes it", async () => {
      const ipcs = createIpcsClient({ transport: transport() });
      const sockets = await ipcs.publishBlockchain("X");
      expect(sockets.decisionsURL).to.match(/-decisions$/);
      expect(await ipcs.getPublishedBlockchains()).to.have.length(1);
      await ipcs.unpublishBlockchain("X");
      expect(await ipcs.getPublishedBlockchains()).to.deep.equal([]);
    });

    it("reads the framed messages of a socket while transactions are accepted", async () => {
      const { decisionsURL } = await createIpcsClient({ transport: transport() }).publishBlockchain("X");
      const messages = readIpcMessages(decisionsURL);
      const first = messages.next();
      const txID = await node.sendX();
      const { value } = await first;
      const indexed = await createIndexClient({ transport: transport() }).getContainerByID(txID);
      expect(value).to.deep.equal(indexed.bytes);
      await messages.return?.(undefined);
    });

    it("ends the iteration when the node unpublishes the chain", async () => {
      const ipcs = createIpcsClient({ transport: transport() });
      const { consensusURL } = await ipcs.publishBlockchain("C");
      const messages = readIpcMessages(consensusURL);
      const next = messages.next();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await ipcs.unpublishBlockchain("C");
      expect(await next).to.deep.equal({ value: undefined, done: true });
    });
  });

  describe("admin client", () => {
    it("sets the log level, profiles and reads the VM configuration", async () => {
      const admin = createAdminClient({ transport: transport() });
      await admin.setLogLevel("debug");
      expect((await admin.getVMConfig())["log-level"]).to.equal("debug");
      await admin.startCPUProfiler();
      await admin.stopCPUProfiler();
      await admin.lockProfile();
      expect(fs.readdirSync(dir).filter((f) => !f.includes("-"))).to.deep.equal(["cpu.cpuprofile", "lock.json"]);
    });

    it("reports a refusal as a NodeApiError", async () => {
      const error = await createAdminClient({ transport: transport() }).stopCPUProfiler().catch((e: unknown) => e);
      expect((error as NodeApiError).nodeMessage).to.equal("cpu profiler doesn't exist");
    });
  });
});
