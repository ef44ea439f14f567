import { expect } from "chai";

import { JsonRpcHttpClient } from "../../bench/rpc-client";
import { COLD_CURVE_GROUP, TransferWorkload } from "../../bench/scenarios";
import { NodeChains } from "../../src/node/node-chains";
import { type HttpNode, startHttpNode } from "../../src/node/http-server";

// The benchmark's transfer workload, run small against the HTTP node, as `npm run bench` does.
describe("bench: the transfer workload", () => {
  let server: HttpNode;
  let client: JsonRpcHttpClient;

  before(async () => {
    const node = await NodeChains.create();
    server = await startHttpNode({ port: 0, routes: node.routes });
    client = new JsonRpcHttpClient(`${server.url}/ext/bc/C/rpc`);
  });

  after(async () => {
    client.close();
    await server.close();
  });

  it("times its cold transfers apart, runs its timed ones in batches and sums them up after checking every balance", async () => {
    const workload = await TransferWorkload.prepare(client, { cold: 3, warmup: 2, timed: 5 });
    expect(workload.coldPhase.transfers).to.equal(3);
    const first = await workload.runBatch(3);
    const second = await workload.runBatch(2);
    const result = await workload.finish();
    expect(result.cold.transfers).to.equal(3);
    expect(result.cold.perSecond).to.be.closeTo(3 / result.cold.seconds, 1e-9);
    expect(result.transfers).to.equal(5);
    expect(result.warmup).to.equal(2);
    expect(result.batches.map((b) => b.transfers)).to.deep.equal([3, 2]);
    expect(result.seconds).to.be.closeTo(first + second, 1e-9);
    expect(result.perSecond).to.be.closeTo(5 / (first + second), 1e-9);
    expect(result.verified).to.equal("10 recipients hold 1 token each, sender holds supply - 10");
  });

  it("gives the cold phase's curve: mean ms per transfer of each group of 50, a last smaller group included", async () => {
    const workload = await TransferWorkload.prepare(client, { cold: COLD_CURVE_GROUP + 2 });
    const { curveMs, seconds } = workload.coldPhase;
    expect(curveMs).to.have.length(2);
    // The groups' means, weighted by their sizes, add up to (at most) the phase's wall time.
    expect(curveMs[0]! * COLD_CURVE_GROUP + curveMs[1]! * 2).to.be.at.most(seconds * 1000);
  });

  it("can run its cold transfers alone (a start-up sample) and still verifies them", async () => {
    const workload = await TransferWorkload.prepare(client, { cold: 2 });
    const result = await workload.finish();
    expect(result.cold.transfers).to.equal(2);
    expect(result.transfers).to.equal(0);
    expect(result.perSecond).to.equal(0);
    expect(result.verified).to.equal("2 recipients hold 1 token each, sender holds supply - 2");
  });

  it("refuses to run more transfers than it was prepared for", async () => {
    const workload = await TransferWorkload.prepare(client, { timed: 1 });
    await workload.runBatch(1);
    let error: unknown;
    try {
      await workload.runBatch(1);
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/prepared for 1 transfers/);
  });
});
