import { expect } from "chai";

import { anvilPeer, startPeer, type PeerProcess } from "../../bench/peers";
import { TransferWorkload } from "../../bench/scenarios";
import { alive } from "../helpers/processes";


// The HTTP benchmark's third peer, as `npm run bench` starts it: the anvil binary from the
// @foundry-rs/anvil-linux-amd64 dev dependency, on a free loopback port, stopped by its pid.
describe("bench: anvil as a peer", function () {
  this.timeout(60_000);
  let peer: PeerProcess | undefined;

  after(async () => {
    await peer?.stop();
  });

  it("starts, runs the transfer workload with every balance checked, and is gone once stopped", async () => {
    const spec = anvilPeer();
    expect(spec.description).to.match(/^anvil \d+\.\d+\.\d+/);
    const started = await startPeer(spec);
    peer = started.peer;
    const pid = peer.pid!;
    expect(alive(pid)).to.equal(true);

    const workload = await TransferWorkload.prepare(peer.client, { cold: 4, timed: 3 });
    await workload.runBatch(3);
    const result = await workload.finish();
    expect(result.cold.transfers).to.equal(4);
    expect(result.transfers).to.equal(3);
    expect(result.verified).to.equal("7 recipients hold 1 token each, sender holds supply - 7");

    await peer.stop();
    expect(peer.hasExited).to.equal(true);
    expect(alive(pid)).to.equal(false);
  });
});
