import { expect } from "chai";

import { LOCAL_NETWORK } from "../../src/network/constants";
import { vmId } from "../../src/network/names";
import { type PNode, startPNode } from "./helpers";

const P_ID = "11111111111111111111111111111111LpoYY";

describe("platform.getConfiguration (Camino's answer, which caminojs reads)", function () {
  this.timeout(30_000);
  let node: PNode;
  before(async () => {
    node = await startPNode();
  });
  after(async () => node.close());

  it("answers the network's ID, fee asset, hrp and chains, with the reference local network's staking settings", async () => {
    expect(await node.call("platform.getConfiguration")).to.deep.equal({
      networkID: "12345",
      assetID: LOCAL_NETWORK.nativeAsset.id,
      assetSymbol: "AVAX",
      hrp: "local",
      blockchains: [
        { id: LOCAL_NETWORK.xChainId, name: "X-Chain", subnetID: P_ID, vmID: vmId("avm") },
        { id: LOCAL_NETWORK.cChainId, name: "C-Chain", subnetID: P_ID, vmID: vmId("evm") },
      ],
      // Durations in nanoseconds (Go's time.Duration): one day and one year.
      minStakeDuration: "86400000000000",
      maxStakeDuration: "31536000000000000",
      minValidatorStake: "2000000000000",
      maxValidatorStake: "3000000000000000",
      minDelegationFee: "20000",
      minDelegatorStake: "25000000000",
      minConsumptionRate: "100000",
      maxConsumptionRate: "120000",
      supplyCap: "720000000000000000",
      codecVersion: "0",
      verifyNodeSignature: false,
      lockModeBondDeposit: false,
    });
  });

  it("lists the same chains as platform.getBlockchains and the same asset as platform.getStakingAssetID", async () => {
    const configuration = await node.call<{ blockchains: unknown[]; assetID: string }>("platform.getConfiguration");
    expect(configuration.blockchains).to.deep.equal((await node.call<{ blockchains: unknown[] }>("platform.getBlockchains")).blockchains);
    expect(configuration.assetID).to.equal((await node.call<{ assetID: string }>("platform.getStakingAssetID")).assetID);
  });

  it("takes no parameters but tolerates an empty object, as the reference's struct{} does", async () => {
    expect(await node.call("platform.getConfiguration", {})).to.have.property("networkID", "12345");
  });
});
