import { expect } from "chai";
import * as fs from "node:fs";
import { type ManagedTestNode, startManagedNode, temporaryDirectory } from "./node";

interface Container {
  id: string;
  bytes: string;
  index: string;
  timestamp: string;
}

describe("index API kept in LevelDB (indexDbDir, the node's --db-dir)", () => {
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

  it("serves after a restart the containers indexed before it, unchanged", async () => {
    node = await startManagedNode({ indexEnabled: true, indexDbDir: dir });
    await node.sendX(1);
    await node.sendX(2);
    const before = await node.call<{ containers: Container[] }>("/ext/index/X/tx", "index.getContainerRange", { startIndex: 0, numToFetch: 10 });
    await node.close();

    node = await startManagedNode({ indexEnabled: true, indexDbDir: dir });
    const after = await node.call<{ containers: Container[] }>("/ext/index/X/tx", "index.getContainerRange", { startIndex: 0, numToFetch: 10 });
    expect(after).to.deep.equal(before);
    expect(await node.call("/ext/index/X/tx", "index.getIndex", { id: before.containers[1]!.id })).to.deep.equal({ index: "1" });
  });

  it("appends what is accepted after a restart at the next index", async () => {
    node = await startManagedNode({ indexEnabled: true, indexDbDir: dir });
    await node.sendX(1);
    await node.close();

    node = await startManagedNode({ indexEnabled: true, indexDbDir: dir });
    await node.sendX(2);
    const { containers } = await node.call<{ containers: Container[] }>("/ext/index/X/tx", "index.getContainerRange", { startIndex: 0, numToFetch: 10 });
    expect(containers.map((c) => c.index)).to.deep.equal(["0", "1"]);
  });
});
