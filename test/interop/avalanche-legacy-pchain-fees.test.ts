import { expect } from "chai";
// The legacy SDK (avalanche 3.x), unchanged: its PlatformVM builder pays the fixed 0.001 AVAX,
// the only fee it knows. Under the dynamic rule (the default) that is more than the dynamic
// fee, so its transactions are still accepted.
import { Avalanche, BN } from "avalanche";
import { NodeChains } from "../../src/node/node-chains";
import { LOCAL_NETWORK, LOCAL_TEST_KEY } from "../../src/network/constants";
import { type HttpNode, startHttpNode } from "../../src/node/http-server";
import { LOCAL_TEST_KEY_P_UTXOS } from "../../src/pchain";

const P_START = LOCAL_TEST_KEY_P_UTXOS.reduce((a, b) => a + b, 0n);

describe("the legacy avalanche 3.x SDK's platform-chain export under the dynamic fee rule", function () {
  this.timeout(30_000);
  let network: NodeChains;
  let node: HttpNode;

  before(async () => {
    network = await NodeChains.create();
    node = await startHttpNode({ host: "127.0.0.1", port: 0, routes: network.routes });
  });
  after(async () => {
    await node.close();
    await network.close();
  });

  it("PlatformVMAPI.buildExportTx (fixed fee 0.001 AVAX) is committed, and the fee state takes only its gas", async () => {
    const avalanche = new Avalanche("127.0.0.1", Number(new URL(node.url).port), "http", LOCAL_NETWORK.networkId);
    const pchain = avalanche.PChain();
    const keychain = pchain.keyChain();
    keychain.importKey(LOCAL_TEST_KEY);
    const pAddress = keychain.getAddressStrings()[0]!;
    const xAddress = pAddress.replace(/^P-/, "X-");
    const { utxos } = await pchain.getUTXOs([pAddress]);
    const unsigned = await pchain.buildExportTx(utxos, new BN(1_000_000_000), LOCAL_NETWORK.xChainId, [xAddress], [pAddress], [pAddress]);
    const txID = await pchain.issueTx(unsigned.sign(keychain));

    expect(await pchain.getTxStatus(txID)).to.deep.include({ status: "Committed" });
    const balance = (await pchain.getBalance(pAddress)) as unknown as { unlocked: BN };
    expect(BigInt(balance.unlocked.toString())).to.equal(P_START - 1_000_000_000n - LOCAL_NETWORK.txFee);
    const state = (await pchain.callMethod("platform.getFeeState")).data.result as { capacity: number; excess: number };
    expect(state.excess).to.be.greaterThan(0).and.lessThan(Number(LOCAL_NETWORK.txFee));
  });
});
