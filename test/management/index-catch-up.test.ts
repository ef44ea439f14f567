import { expect } from "chai";
import * as fs from "node:fs";
import { type ManagedTestNode, startManagedNode, temporaryDirectory } from "./node";
import { decodeCb58, decodeNodeBytes, decodePrivateKey } from "../../src/encoding";
import { decodeProposerBlock } from "../../src/node/indexer/proposer-block";
import { LOCAL_NETWORK, LOCAL_TEST_KEY } from "../../src/network/constants";
import { PlatformWallet } from "../../src/pchain";
import { openDataDirectory } from "../../src/storage";

/**
 * A node restarted on its data directory with `--index-enabled`: its indexes answer as before,
 * and an index left behind its chain (a stop between a block's commit and its index entry)
 * catches up from the containers it holds, ending as an index that saw every block.
 */
interface Container {
  id: string;
  bytes: string;
  index: string;
  timestamp: string;
}

const C_BLOCK = "/ext/index/C/block";
const P_BLOCK = "/ext/index/P/block";
const X_TX = "/ext/index/X/tx";

async function platformBlocks(node: ManagedTestNode, count: number): Promise<void> {
  const chain = node.network.platform;
  const wallet = new PlatformWallet(chain, [decodePrivateKey(LOCAL_TEST_KEY)]);
  const owner = wallet.addresses[0]!;
  for (let i = 0; i < count; i++) await chain.issue(wallet.multisigAlias({ owners: [owner], threshold: 1, memo: new TextEncoder().encode(`block ${i}`) }).bytes);
}

/** What a client sees of an index: its last container, two by index and the whole range. */
async function answers(node: ManagedTestNode, path: string): Promise<unknown[]> {
  const call = (method: string, params: Record<string, unknown>) => node.call<unknown>(path, method, { encoding: "hex", ...params });
  return [
    await call("index.getLastAccepted", {}),
    await call("index.getContainerByIndex", { index: 0 }),
    await call("index.getContainerByIndex", { index: 1 }),
    await call("index.getContainerRange", { startIndex: 0, numToFetch: 100 }),
  ];
}

/** Leaves the index in `folder` (C-block, P-block, ...) holding its first `keep` containers only. */
async function truncateIndex(dir: string, folder: string, keep: number): Promise<void> {
  const data = await openDataDirectory(dir, { networkId: LOCAL_NETWORK.networkId, evmChainId: LOCAL_NETWORK.evmChainId });
  const index = data.independentStore().namespace(`index/${folder}/`);
  for await (const [key] of index.entries("c/")) if (parseInt(key.slice(2), 16) >= keep) index.del(key);
  for await (const [key, value] of index.entries("id/")) if (new DataView(value.buffer, value.byteOffset, 8).getBigUint64(0) >= BigInt(keep)) index.del(key);
  index.put("next", new Uint8Array(new BigUint64Array([BigInt(keep)]).buffer).reverse());
  await index.commit();
  await data.close();
}

const withoutTimes = (containers: Container[]) => containers.map(({ id, bytes, index }) => ({ id, bytes, index }));
const range = async (node: ManagedTestNode, path: string) =>
  withoutTimes((await node.call<{ containers: Container[] }>(path, "index.getContainerRange", { startIndex: 0, numToFetch: 100, encoding: "hex" })).containers);

describe("index API of a node restarted on its data directory", function () {
  this.timeout(120_000);
  let dir: string;
  let node: ManagedTestNode | undefined;
  beforeEach(async () => {
    dir = temporaryDirectory("index-catch-up");
    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    for (let i = 0; i < 5; i++) await node.sendC();
    await node.sendX(1);
    await node.sendX(2);
    await platformBlocks(node, 3);
  });
  afterEach(async () => {
    await node?.close();
    node = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const path of [C_BLOCK, P_BLOCK, X_TX]) {
    it(`answers ${path} exactly as before the restart`, async () => {
      const before = await answers(node!, path);
      await node!.close();
      node = await startManagedNode({ indexEnabled: true, dbDir: dir });
      expect(await answers(node, path)).to.deep.equal(before);
    });
  }

  for (const [path, folder, keep] of [
    [C_BLOCK, "C-block", 2],
    [P_BLOCK, "P-block", 1],
  ] as const) {
    it(`catches ${path} up from the containers it holds, as an index that saw every block`, async () => {
      const before = await range(node!, path);
      await node!.close();
      node = undefined;
      await truncateIndex(dir, folder, keep);
      node = await startManagedNode({ indexEnabled: true, dbDir: dir });
      expect(await range(node, path)).to.deep.equal(before);
    });
  }

  it("announces the first block after a restart as the block after the last one indexed", async () => {
    await node!.close();
    node = await startManagedNode({ indexEnabled: true, dbDir: dir });
    await node.sendC();
    const all = await range(node, C_BLOCK);
    expect(all).to.have.length(6);
    expect(decodeProposerBlock(decodeNodeBytes(all[5]!.bytes, "hex")).parentId).to.deep.equal(decodeCb58(all[4]!.id));
  });
});
