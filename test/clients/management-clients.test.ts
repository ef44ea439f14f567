import { expect } from "chai";

import { createNodeClient, NodeHttpError, NodeApiError } from "../../src/clients";
import { startManagedNode, type ManagedNode } from "../helpers/managed-node";

const PASSWORD = "raccoon-velvet-42";

describe("clients: auth, health, info's node methods and the bearer token", function () {
  this.timeout(120_000);
  let n: ManagedNode;

  before(async () => {
    n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD });
  });
  after(async () => {
    await n.close();
  });

  it("setAuthToken makes every later call send the token", async () => {
    const client = createNodeClient({ url: n.url });
    const error = await client.info.getNetworkID().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(NodeHttpError);
    expect((error as NodeHttpError).status).to.equal(401);
    client.setAuthToken(await client.auth.newToken(PASSWORD, ["*"]));
    expect(await client.info.getNetworkID()).to.equal(12345);
  });

  it("the authToken option sends the token from the first call", async () => {
    const token = await createNodeClient({ url: n.url }).auth.newToken(PASSWORD, ["/ext/info"]);
    expect(await createNodeClient({ url: n.url, authToken: token }).info.getNetworkName()).to.equal("local");
  });

  it("auth.newToken refuses an empty endpoint list before sending", async () => {
    const error = await createNodeClient({ url: n.url }).auth.newToken(PASSWORD, []).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RangeError);
  });

  it("auth.revokeToken and auth.changePassword resolve on success and reject with the node's message", async () => {
    const other = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD });
    try {
      const client = createNodeClient({ url: other.url });
      const token = await client.auth.newToken(PASSWORD, ["*"]);
      await client.auth.revokeToken(PASSWORD, token);
      const wrong = await client.auth.changePassword("not-the-password-1", "gravel-lantern-Oak-9").catch((e: unknown) => e);
      expect((wrong as NodeApiError).nodeMessage).to.equal("incorrect password");
      await client.auth.changePassword(PASSWORD, "gravel-lantern-Oak-9");
      expect(await client.auth.newToken("gravel-lantern-Oak-9", ["*"])).to.be.a("string");
    } finally {
      await other.close();
    }
  });

  it("info reads the node's identity, address, version, VMs, peers and uptime", async () => {
    const client = createNodeClient({ url: n.url });
    client.setAuthToken(await client.auth.newToken(PASSWORD, ["*"]));
    const identity = await client.info.getNodeID();
    expect(identity.nodeID).to.equal((await n.network.management.identity()).nodeID);
    expect(identity.nodePOP?.publicKey).to.match(/^0x[0-9a-f]{96}$/);
    expect(await client.info.getNodeIP()).to.equal("127.0.0.1:9651");
    const version = await client.info.getNodeVersion();
    expect(version.vmVersions).to.have.keys(["avm", "evm", "platform"]);
    expect(version.rpcProtocolVersion).to.be.a("number");
    const vms = await client.info.getVMs();
    expect(Object.values(vms.vms).flat().sort()).to.deep.equal(["avm", "evm", "platform"]);
    expect(Object.values(vms.fxs).sort()).to.deep.equal(["nftfx", "propertyfx", "secp256k1fx"]);
    expect(await client.info.peers()).to.deep.equal({ numPeers: 0, peers: [] });
    expect(await client.info.uptime()).to.deep.equal({ rewardingStakePercentage: 100, weightedAveragePercentage: 100 });
  });

  it("health reads the three reports", async () => {
    const client = createNodeClient({ url: n.url });
    client.setAuthToken(await client.auth.newToken(PASSWORD, ["/ext/health"]));
    const health = await client.health.health();
    expect(health.healthy).to.equal(true);
    expect(health.checks.C?.contiguousFailures).to.equal(0);
    expect(Object.keys((await client.health.readiness()).checks).sort()).to.deep.equal(["C", "X"]);
    expect(Object.keys((await client.health.liveness()).checks)).to.deep.equal(["node"]);
  });
});
