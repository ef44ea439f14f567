import { expect } from "chai";

import { createNodeClient } from "../../src/clients";
import { CREDENTIALS, type FakeNode, startFakeNode } from "./fake-node";

describe("clients/createNodeClient", () => {
  let node: FakeNode;
  before(async () => {
    node = await startFakeNode();
  });
  after(() => node.close());
  beforeEach(() => node.reset());

  it("wires xvm, cvm, keystore and info to one transport with the nativekit names (xvm/cvm) by default", async () => {
    node.on("/ext/bc/X", "xvm.getTxStatus", { result: { status: "Accepted" } });
    node.on("/ext/bc/C/cvm", "cvm.getAtomicTxStatus", { result: { status: "Accepted", blockHeight: "1" } });
    node.on("/ext/keystore", "keystore.listUsers", { result: { users: [] } });
    node.on("/ext/info", "info.getNetworkID", { result: { networkID: "12345" } });
    const client = createNodeClient({ url: node.url });
    await client.xvm.getTxStatus({ txID: "t" });
    await client.cvm.getAtomicTxStatus({ txID: "t" });
    await client.keystore.listUsers();
    await client.info.getNetworkID();
    expect(client.naming).to.equal("nativekit");
    expect(client.transport.url).to.equal(node.url);
    expect(node.requests.map((r) => `${r.path} ${r.method}`)).to.deep.equal([
      "/ext/bc/X xvm.getTxStatus",
      "/ext/bc/C/cvm cvm.getAtomicTxStatus",
      "/ext/keystore keystore.listUsers",
      "/ext/info info.getNetworkID",
    ]);
  });

  it("uses avm/avax with the reference naming", async () => {
    node.on("/ext/bc/X", "avm.listAddresses", { result: { addresses: [] } });
    node.on("/ext/bc/C/avax", "avax.import", { result: { txID: "t" } });
    const client = createNodeClient({ url: node.url, naming: "reference" });
    await client.xvm.listAddresses({ credentials: CREDENTIALS });
    await client.cvm.import({ credentials: CREDENTIALS, to: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", sourceChain: "X" });
    expect(node.requests.map((r) => `${r.path} ${r.method}`)).to.deep.equal([
      "/ext/bc/X avm.listAddresses",
      "/ext/bc/C/avax avax.import",
    ]);
  });

  it("still takes the deprecated seed naming: xvm/cvm, reported as seed", async () => {
    node.on("/ext/bc/X", "xvm.listAddresses", { result: { addresses: [] } });
    node.on("/ext/bc/C/cvm", "cvm.import", { result: { txID: "t" } });
    const client = createNodeClient({ url: node.url, naming: "seed" });
    await client.xvm.listAddresses({ credentials: CREDENTIALS });
    await client.cvm.import({ credentials: CREDENTIALS, to: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", sourceChain: "X" });
    expect(client.naming).to.equal("seed");
    expect(node.requests.map((r) => `${r.path} ${r.method}`)).to.deep.equal([
      "/ext/bc/X xvm.listAddresses",
      "/ext/bc/C/cvm cvm.import",
    ]);
  });

  it("sends the headers given in the options with every call", async () => {
    node.on("/ext/info", "info.getNetworkName", { result: { networkName: "local" } });
    await createNodeClient({ url: node.url, headers: { Authorization: "Bearer abc" } }).info.getNetworkName();
    expect(node.requests[0]!.headers.authorization).to.equal("Bearer abc");
  });
});
