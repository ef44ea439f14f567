import { expect } from "chai";
// The legacy SDK (avalanche 3.x), used unchanged as a real client of the management APIs.
import { Avalanche } from "avalanche";

import { LOCAL_NETWORK } from "../../src/network/constants";
import { startManagedNode, type ManagedNode } from "../helpers/managed-node";

const PASSWORD = "raccoon-velvet-42";

/**
 * What the SDK's error keeps of a 401: its fetch adapter (used on Node >= 17) drops the answer's
 * status and body and keeps only the code ERR_BAD_REQUEST.
 */
function refusal(error: unknown): unknown {
  return (error as { code?: unknown }).code;
}

describe("the legacy avalanche 3.x SDK against the node's auth, info and health APIs", function () {
  this.timeout(120_000);
  let n: ManagedNode;
  let avalanche: Avalanche;

  before(async () => {
    n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD });
    avalanche = new Avalanche("127.0.0.1", n.node.port, "http", 12345);
  });
  after(async () => {
    await n.close();
  });

  it("AuthAPI.newToken gives a token that InfoAPI and HealthAPI send after Avalanche.setAuthToken", async () => {
    const token = (await avalanche.Auth().newToken(PASSWORD, ["*"])) as string;
    expect(token.split(".")).to.have.length(3);
    avalanche.setAuthToken(token);
    expect(await avalanche.Info().getNetworkID()).to.equal("12345");
    expect((await avalanche.Health().health()).healthy).to.equal(true);
  });

  it("InfoAPI reads the network, chains, node and fees", async () => {
    const token = (await avalanche.Auth().newToken(PASSWORD, ["/ext/info"])) as string;
    avalanche.setAuthToken(token);
    const info = avalanche.Info();
    expect(await info.getNetworkName()).to.equal("local");
    expect(await info.getBlockchainID("X")).to.equal(LOCAL_NETWORK.xChainId);
    expect(await info.isBootstrapped("C")).to.equal(true);
    expect(await info.getNodeID()).to.equal((await n.network.management.identity()).nodeID);
    expect(await info.getNodeVersion()).to.match(/^nativekit\//);
    const fees = await info.getTxFee();
    expect(fees.txFee.toString()).to.equal(String(LOCAL_NETWORK.txFee));
    expect(fees.creationTxFee.toString()).to.equal(String(LOCAL_NETWORK.createAssetTxFee));
    expect(await info.peers([])).to.deep.equal([]);
    expect(await info.uptime()).to.deep.equal({ rewardingStakePercentage: "100.0000", weightedAveragePercentage: "100.0000" });
  });

  it("a call without a token is refused (HTTP 401: the SDK rejects with ERR_BAD_REQUEST)", async () => {
    const info = new Avalanche("127.0.0.1", n.node.port, "http", 12345).Info();
    let error: unknown;
    await info.getNetworkID().catch((e: unknown) => (error = e));
    expect(refusal(error)).to.equal("ERR_BAD_REQUEST");
    expect((await n.post("/ext/info", "info.getNetworkID")).status).to.equal(401);
  });

  it("AuthAPI.revokeToken answers true and the token stops working", async () => {
    const token = (await avalanche.Auth().newToken(PASSWORD, ["*"])) as string;
    expect(await avalanche.Auth().revokeToken(PASSWORD, token)).to.equal(true);
    const revoked = new Avalanche("127.0.0.1", n.node.port, "http", 12345);
    revoked.setAuthToken(token);
    const info = revoked.Info();
    let error: unknown;
    await info.getNetworkID().catch((e: unknown) => (error = e));
    expect(refusal(error)).to.equal("ERR_BAD_REQUEST");
    const answer = await n.post("/ext/info", "info.getNetworkID", {}, { authorization: `Bearer ${token}` });
    expect(answer.body.error?.message).to.equal("the provided auth token was revoked");
  });

  it("AuthAPI.changePassword answers true and the new password makes tokens", async () => {
    const other = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD });
    try {
      const sdk = new Avalanche("127.0.0.1", other.node.port, "http", 12345);
      expect(await sdk.Auth().changePassword(PASSWORD, "gravel-lantern-Oak-9")).to.equal(true);
      expect(((await sdk.Auth().newToken("gravel-lantern-Oak-9", ["*"])) as string).split(".")).to.have.length(3);
    } finally {
      await other.close();
    }
  });
});
