import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPlatformChainClient, createTransport } from "../../src/clients";
import { LOCAL_TEST_KEY_P_UTXOS } from "../../src/pchain";
import { EWOQ, FEE, pAddress, type PNode, startPNode, startWithUser, USER, xAddress } from "./helpers";

const P_START = LOCAL_TEST_KEY_P_UTXOS.reduce((a, b) => a + b, 0n);

interface FeeState {
  capacity: number;
  excess: number;
  price: number;
  timestamp: string;
}

/** The platform chain's fee state over its life: the typed client, the keystore wallet's fee, snapshots and restarts. */
describe("pchain fee state", function () {
  this.timeout(60_000);
  let node: PNode | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await node?.close();
    node = undefined;
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const feeState = (n: PNode) => n.call<FeeState>("platform.getFeeState");

  it("the typed client reads getFeeConfig (weights by name) and getFeeState as bigints", async () => {
    node = await startPNode();
    const p = createPlatformChainClient({ transport: createTransport({ url: node.http.url }) });
    expect(await p.getFeeConfig()).to.deep.equal({
      weights: { bandwidth: 1n, dbRead: 1_000n, dbWrite: 1_000n, compute: 4n },
      maxCapacity: 1_000_000n,
      maxPerSecond: 100_000n,
      targetPerSecond: 50_000n,
      minPrice: 1n,
      excessConversionConstant: 2_164_043n,
    });
    expect(await p.getFeeState()).to.deep.equal({ capacity: 1_000_000n, excess: 0n, price: 1n, timestamp: "2024-07-15T04:00:00Z" });
  });

  it("the keystore wallet (platform.exportAVAX) still pays the fixed 0.001 AVAX, above the dynamic fee, and its gas moves the fee state", async () => {
    node = await startWithUser();
    await node.call("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    const balance = await node.call<{ unlocked: string }>("platform.getBalance", { addresses: [pAddress(EWOQ)] });
    expect(BigInt(balance.unlocked)).to.equal(P_START - 1_000_000_000n - FEE);
    const state = await feeState(node);
    expect(state.excess).to.be.greaterThan(0);
    expect(state.capacity).to.equal(1_000_000 - state.excess);
  });

  it("evm_revert puts the fee state back with the rest of the platform chain", async () => {
    node = await startWithUser();
    const before = await feeState(node);
    const snapshot = await node.network.provider.request({ method: "evm_snapshot", params: [] });
    await node.call("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    expect((await feeState(node)).excess).to.be.greaterThan(0);
    await node.network.provider.request({ method: "evm_revert", params: [snapshot] });
    expect(await feeState(node)).to.deep.equal(before);
  });

  it("a restart on the data directory gives the same fee state back (recomputed from the stored blocks)", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-pchain-fees-"));
    node = await startWithUser({ management: { dbDir: dir } });
    await node.call("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    await node.call("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "2000000000" });
    const before = await feeState(node);
    await node.close();
    node = await startPNode({ management: { dbDir: dir } });
    expect(await feeState(node)).to.deep.equal(before);
  });
});
