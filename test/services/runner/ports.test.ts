/** Ports of the runner's nodes: the reference's fixed layout, a taken port refused or reassigned, free ports. */
import { expect } from "chai";
import net from "node:net";
import { RunnerError } from "../../../src/services/runner/errors";
import { choosePorts, freePort, portIsFree } from "../../../src/services/runner/ports";

/** Listens on a free port of 127.0.0.1 until closed. */
async function occupyPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("network runner: ports", () => {
  it("continues the fixed layout after the network's ports: HTTP +2, staking = HTTP + 1", async () => {
    const base = (await freePort()) & ~1; // an even port near a free one
    const taken = [{ httpPort: base, stakingPort: base + 1 }];
    const chosen = await choosePorts(2, { dynamicPorts: false, reassignPortsIfUsed: true }, taken);
    // Reassignment only replaces a taken port, so the layout holds wherever these are free.
    let checked = 0;
    for (const [i, ports] of chosen.entries()) {
      const expected = { httpPort: base + 2 + 2 * i, stakingPort: base + 3 + 2 * i };
      if (!(await portIsFree(expected.httpPort)) || !(await portIsFree(expected.stakingPort))) continue;
      expect(ports).to.deep.equal(expected);
      checked++;
    }
    expect(checked, "no expected pair was free to compare").to.be.greaterThan(0);
  });

  it("refuses a fixed port in use, naming it", async () => {
    const held = await occupyPort();
    try {
      let error: unknown;
      try {
        await choosePorts(1, { dynamicPorts: false, reassignPortsIfUsed: false }, [{ httpPort: held.port - 2, stakingPort: held.port - 1 }]);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(RunnerError);
      expect((error as RunnerError).message).to.equal(`port ${held.port} is already in use (pass reassignPortsIfUsed or dynamicPorts)`);
    } finally {
      await held.close();
    }
  });

  it("replaces a fixed port in use with a free one when reassignPortsIfUsed", async () => {
    const held = await occupyPort();
    try {
      const [ports] = await choosePorts(1, { dynamicPorts: false, reassignPortsIfUsed: true }, [{ httpPort: held.port - 2, stakingPort: held.port - 1 }]);
      expect(ports!.httpPort).not.to.equal(held.port);
    } finally {
      await held.close();
    }
  });

  it("gives distinct free ports with dynamicPorts, none of the network's", async () => {
    const taken = [{ httpPort: await freePort(), stakingPort: await freePort() }];
    const chosen = await choosePorts(3, { dynamicPorts: true, reassignPortsIfUsed: false }, taken);
    const all = [...taken, ...chosen].flatMap((p) => [p.httpPort, p.stakingPort]);
    expect(new Set(all).size).to.equal(8);
  });
});
