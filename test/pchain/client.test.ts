import { expect } from "chai";
import { createPlatformChainClient, createTransport, NodeApiError } from "../../src/clients";
import { LOCAL_TEST_KEY } from "../../src/network/constants";
import { addressOf, EWOQ, pAddress, type PNode, startWithUser, testKey, USER, xAddress } from "./helpers";

describe("clients/platform: the typed platform chain client", function () {
  this.timeout(30_000);
  let node: PNode;
  before(async () => {
    node = await startWithUser();
  });
  after(async () => node.close());
  const client = () => createPlatformChainClient({ transport: createTransport({ url: node.http.url }) });

  it("reads height, balance, blockchains and chain IDs (getBlockchainID by alias)", async () => {
    const p = client();
    expect(await p.getHeight()).to.equal(0n);
    expect((await p.getBalance({ addresses: [pAddress(EWOQ)] })).balance).to.equal(30_000_000n * 10n ** 9n);
    expect(await p.getBlockchainID("X")).to.equal(node.network.network.xChainId);
    expect(await p.getBlockchainID("C")).to.equal(node.network.network.cChainId);
    expect(await p.getBlockchainID("P")).to.equal("11111111111111111111111111111111LpoYY");
    expect(await p.getStakingAssetID()).to.equal(node.network.network.nativeAsset.id);
  });

  it("exports (under both names), creates an alias and reads it back", async () => {
    const p = client();
    const credentials = USER;
    const { txID } = await p.export({ credentials, to: xAddress(EWOQ), amount: 10n ** 9n });
    expect(await p.getTxStatus({ txID })).to.equal("Committed");
    const tx = await p.getTx({ txID, encoding: "json" });
    expect((tx.tx as { id: string }).id).to.equal(txID);
    const owners = [addressOf(testKey(31)), addressOf(testKey(32))].map(pAddress);
    const { alias } = await p.createMultisigAlias({ credentials, addresses: owners, threshold: 2, memo: "x" });
    const info = await p.getMultisigAlias({ address: alias });
    expect(info.threshold).to.equal(2);
    expect([...info.addresses].sort()).to.deep.equal([...owners].sort());
    expect(await p.getHeight()).to.equal(2n);
    const pages: string[] = [];
    for await (const utxo of p.iterateUTXOs({ addresses: [pAddress(EWOQ)], limit: 1 })) pages.push(utxo);
    expect(pages.length > 0).to.equal(true);
    expect(await p.importKey({ credentials, privateKey: LOCAL_TEST_KEY })).to.equal(pAddress(EWOQ));
  });

  it("reports the node's errors as NodeApiError", async () => {
    const error = await client()
      .getMultisigAlias({ address: pAddress(EWOQ) })
      .then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(NodeApiError);
  });
});
