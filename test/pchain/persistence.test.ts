import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EWOQ, pAddress, type PNode, startPNode, startWithUser, testKey, addressOf, USER, xAddress } from "./helpers";
import { rejection } from "../helpers/chain";

/** The platform chain in the node's data directory: its blocks replayed at start give every answer back. */
describe("pchain persistence (--db-dir)", function () {
  this.timeout(120_000);
  let dir: string;
  let node: PNode | undefined;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-pchain-db-"))));
  afterEach(async () => {
    await node?.close();
    node = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const answers = async (n: PNode, txIDs: string[], alias: string) => ({
    height: await n.call("platform.getHeight"),
    last: await n.call("platform.getBlockByHeight", { height: (await n.call<{ height: string }>("platform.getHeight")).height }),
    balance: await n.call("platform.getBalance", { addresses: [pAddress(EWOQ)] }),
    utxos: await n.call("platform.getUTXOs", { addresses: [pAddress(EWOQ)], limit: 100 }),
    txs: await Promise.all(txIDs.map((txID) => n.call("platform.getTx", { txID }))),
    statuses: await Promise.all(txIDs.map((txID) => n.call("platform.getTxStatus", { txID }))),
    alias: await n.call("platform.getMultisigAlias", { address: alias }),
    xAtomic: await n.call("avm.getUTXOs", { addresses: [xAddress(EWOQ)], sourceChain: "P", limit: 100 }, "/ext/bc/X"),
  });

  it("serves after a restart every block, transaction, UTXO, balance and alias it had, and goes on from its last block", async () => {
    node = await startWithUser({ management: { dbDir: dir } });
    const exported = await node.call<{ txID: string }>("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    const owners = [1, 2, 3].map((n) => pAddress(addressOf(testKey(n))));
    const created = await node.call<{ txID: string; alias: string }>("platform.createMultisigAlias", { ...USER, addresses: owners, threshold: 2, memo: "kept" });
    const txIDs = [exported.txID, created.txID];
    const before = await answers(node, txIDs, created.alias);
    await node.close();

    node = await startPNode({ management: { dbDir: dir } });
    expect(await answers(node, txIDs, created.alias)).to.deep.equal(before);
    await node.call("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    const next = await node.call<{ height: string }>("platform.getHeight");
    expect(BigInt(next.height)).to.equal(BigInt((before.height as { height: string }).height) + 1n);
  });

  it("keeps the chain as evm_revert left it", async () => {
    node = await startWithUser({ management: { dbDir: dir } });
    const snapshot = await node.network.provider.request({ method: "evm_snapshot", params: [] });
    const { txID } = await node.call<{ txID: string }>("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    await node.network.provider.request({ method: "evm_revert", params: [snapshot] });
    await node.close();

    node = await startPNode({ management: { dbDir: dir } });
    expect(await node.call("platform.getHeight")).to.deep.equal({ height: "0" });
    expect(await node.call("platform.getTxStatus", { txID })).to.deep.include({ status: "Unknown" });
  });

  it("refuses a data directory holding a platform chain of another genesis", async () => {
    node = await startPNode({ management: { dbDir: dir } });
    await node.close();
    node = undefined;
    const error = await rejection(startPNode({ management: { dbDir: dir }, platformGenesis: { allocations: [{ address: addressOf(testKey(9)), amount: 5n }] } }));
    expect(error.message).to.include("holds a platform chain with genesis");
  });
});
