import { expect } from "chai";

import { createInfoClient, createKeystoreClient, createTransport, type InfoClient, type KeystoreClient } from "../../src/clients";
import { CREDENTIALS, type FakeNode, startFakeNode } from "./fake-node";

describe("clients/keystore and clients/info", () => {
  let node: FakeNode;
  let keystore: KeystoreClient;
  let info: InfoClient;
  before(async () => {
    node = await startFakeNode();
    const transport = createTransport({ url: node.url });
    keystore = createKeystoreClient({ transport });
    info = createInfoClient({ transport });
  });
  after(() => node.close());
  beforeEach(() => node.reset());

  describe("keystore", () => {
    it("createUser posts keystore.createUser to /ext/keystore with username and password", async () => {
      node.on("/ext/keystore", "keystore.createUser", { result: { success: true } });
      await keystore.createUser(CREDENTIALS);
      expect(node.requests.map((r) => [r.path, r.method, r.params])).to.deep.equal([
        ["/ext/keystore", "keystore.createUser", { username: "alice", password: CREDENTIALS.password }],
      ]);
    });

    it("deleteUser accepts the empty result of recent nodes", async () => {
      node.on("/ext/keystore", "keystore.deleteUser", { result: {} });
      await keystore.deleteUser(CREDENTIALS);
      expect(node.calls("keystore.deleteUser")).to.have.length(1);
    });

    it("listUsers returns the user names", async () => {
      node.on("/ext/keystore", "keystore.listUsers", { result: { users: ["alice", "bob"] } });
      expect(await keystore.listUsers()).to.deep.equal(["alice", "bob"]);
    });
  });

  describe("info", () => {
    it("getNetworkID parses a string network ID into a number", async () => {
      node.on("/ext/info", "info.getNetworkID", { result: { networkID: "12345" } });
      expect(await info.getNetworkID()).to.equal(12345);
    });

    it("getBlockchainID sends the alias and returns the ID", async () => {
      node.on("/ext/info", "info.getBlockchainID", { result: { blockchainID: "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed" } });
      expect(await info.getBlockchainID("X")).to.equal("2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed");
      expect(node.requests[0]!.params).to.deep.equal({ alias: "X" });
    });

    it("getTxFee parses creationTxFee and txFee into bigints, strings or numbers", async () => {
      node.on("/ext/info", "info.getTxFee", { result: { creationTxFee: "10000000", txFee: 1000000 } });
      expect(await info.getTxFee()).to.deep.equal({
        creationTxFee: 10_000_000n,
        txFee: 1_000_000n,
        all: { creationTxFee: 10_000_000n, txFee: 1_000_000n },
      });
    });

    it("getTxFee falls back to createAssetTxFee, as recent reference nodes name it", async () => {
      node.on("/ext/info", "info.getTxFee", { result: { txFee: "1000000", createAssetTxFee: "10000000", createSubnetTxFee: "100000000" } });
      const fees = await info.getTxFee();
      expect(fees.creationTxFee).to.equal(10_000_000n);
      expect(fees.all.createSubnetTxFee).to.equal(100_000_000n);
    });

    it("getNetworkName and isBootstrapped return the plain values", async () => {
      node.on("/ext/info", "info.getNetworkName", { result: { networkName: "local" } });
      node.on("/ext/info", "info.isBootstrapped", { result: { isBootstrapped: true } });
      expect(await info.getNetworkName()).to.equal("local");
      expect(await info.isBootstrapped("C")).to.equal(true);
      expect(node.calls("info.isBootstrapped")[0]!.params).to.deep.equal({ chain: "C" });
    });
  });
});
