import { expect } from "chai";
import * as fs from "node:fs";
import { type ManagedTestNode, startManagedNode, temporaryDirectory } from "./node";
import { rejection } from "../helpers/chain";
import { openDataDirectory } from "../../src/storage";
import { LOCAL_NETWORK } from "../../src/network/constants";

interface Container {
  id: string;
  bytes: string;
  index: string;
  timestamp: string;
}

describe("index API in the node's data directory (--db-dir)", () => {
  let dir: string;
  let node: ManagedTestNode | undefined;
  beforeEach(() => {
    dir = temporaryDirectory("index-db");
  });
  afterEach(async () => {
    await node?.close();
    node = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const range = (n: ManagedTestNode) => n.call<{ containers: Container[] }>("/ext/index/X/tx", "index.getContainerRange", { startIndex: 0, numToFetch: 10 });

  it("serves after a restart the containers indexed before it, unchanged", async () => {
    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    await node.sendX(1);
    await node.sendX(2);
    const before = await range(node);
    await node.close();

    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    expect(await range(node)).to.deep.equal(before);
    expect(await node.call("/ext/index/X/tx", "index.getIndex", { id: before.containers[1]!.id })).to.deep.equal({ index: "1" });
  });

  it("appends what is accepted after a restart at the next index", async () => {
    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    await node.sendX(1);
    await node.close();

    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    await node.sendX(2);
    expect((await range(node)).containers.map((c) => c.index)).to.deep.equal(["0", "1"]);
  });

  it("refuses to start with indexing off after it was on, naming the chain and --index-allow-incomplete", async () => {
    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    await node.close();
    node = undefined;
    const error = await rejection(startManagedNode({ indexEnabled: false, dbDir: dir }));
    expect(error.message).to.include("running would cause index for chain X to become incomplete but incomplete indices are disabled");
    expect(error.message).to.include("--index-allow-incomplete");
  });

  it("starts with indexing off after it was on when incomplete indexes are allowed", async () => {
    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    await node.close();
    node = await startManagedNode({ indexEnabled: false, indexAllowIncomplete: true, dbDir: dir });
    expect(node.network.operator.indexes.size).to.equal(0);
  });

  it("refuses to index again after a run without indexing, unless incomplete indexes are allowed", async () => {
    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    await node.close();
    node = await startManagedNode({ indexEnabled: false, indexAllowIncomplete: true, dbDir: dir });
    await node.close();
    node = undefined;
    const error = await rejection(startManagedNode({ indexEnabled: true, dbDir: dir }));
    expect(error.message).to.include("index for chain X is incomplete but incomplete indices are disabled");
    node = await startManagedNode({ indexEnabled: true, indexAllowIncomplete: true, dbDir: dir });
    await node.sendX(3);
    expect((await range(node)).containers).to.have.length(1);
  });

  it("refuses to index a data directory that ran without indexing, unless incomplete indexes are allowed", async () => {
    node = await startManagedNode({ dbDir: dir });
    await node.close();
    node = undefined;
    expect((await rejection(startManagedNode({ indexEnabled: true, dbDir: dir }))).message).to.include("is incomplete");
  });

  it("indexes from a fresh data directory without asking for incomplete indexes", async () => {
    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    await node.sendX(1);
    expect((await range(node)).containers).to.have.length(1);
  });

  it("indexes at restart what the chains accepted while the index did not see it (a stop between a commit and its index entry)", async () => {
    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    await node.sendX(1);
    await node.sendX(2);
    const before = await range(node);
    await node.close();
    node = undefined;
    // What a kill between the second transaction's commit and its index entry leaves: the index one short.
    const data = await openDataDirectory(dir, { networkId: LOCAL_NETWORK.networkId, evmChainId: LOCAL_NETWORK.evmChainId });
    const index = data.independentStore().namespace("index/X-tx/");
    index.del("c/0000000000000001");
    for await (const [key] of index.entries("id/")) if ((await index.get(key))?.at(-1) === 1) index.del(key);
    index.put("next", Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 1));
    await index.commit();
    await data.close();

    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    const after = await range(node);
    expect(after.containers.map((c) => [c.id, c.index])).to.deep.equal(before.containers.map((c) => [c.id, c.index]));
  });
});
