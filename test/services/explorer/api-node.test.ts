/**
 * End to end: `nativekit node --index-enabled` as a child process, a transaction sent to it over
 * its APIs, the explorer's ingest following it, and the API answering that transaction — with
 * the balances the node itself reports.
 */
import { expect } from "chai";
import { createExplorerApi, mountExplorerApi } from "../../../src/services/explorer/api";
import { createExplorerReader } from "../../../src/services/explorer/reader";
import { startExplorerServer, type ExplorerServer } from "../../../src/services/explorer";
import { createNodeClient, type Credentials, type NodeClient } from "../../../src/clients";
import { LOCAL_TEST_KEY } from "../../../src/network/constants";
import { encodeCb58 } from "../../../src/encoding";
import { startedCliNode, type CliNode } from "../../helpers/cli-node";
import { alive } from "../../helpers/processes";
import { ethers } from "ethers";
import { TEST_KEY_HEX } from "./helpers";

const CREDENTIALS: Credentials = { username: "explorer-api-test", password: "a-Strong-passw0rd-for-tests" };
const bare = (address: string) => address.replace(/^[XPC]-/, "");

describe("explorer API over a real node's index (nativekit node --index-enabled)", function () {
  this.timeout(180_000);
  let node: CliNode;
  let client: NodeClient;
  let explorer: ExplorerServer;
  let from: string;
  let to: string;
  let txID: string;
  let cHash: string;
  let provider: ethers.JsonRpcProvider;

  before(async () => {
    node = await startedCliNode(["--index-enabled"]);
    client = createNodeClient({ url: node.url });
    await client.keystore.createUser(CREDENTIALS);
    from = await client.xvm.importKey({ credentials: CREDENTIALS, privateKey: LOCAL_TEST_KEY });
    to = await client.xvm.createAddress({ credentials: CREDENTIALS });
    ({ txID } = await client.xvm.send({ credentials: CREDENTIALS, to, amount: 7_000_000n, assetID: "AVAX" }));
    await client.xvm.waitForTxStatus(txID);
    provider = new ethers.JsonRpcProvider(`${node.url}/ext/bc/C/rpc`, undefined, { staticNetwork: true, cacheTimeout: -1 });
    const sent = await new ethers.Wallet(TEST_KEY_HEX, provider).sendTransaction({ to: "0x000000000000000000000000000000000000dEaD", value: 4242n });
    await sent.wait();
    cHash = sent.hash.toLowerCase();
    explorer = await startExplorerServer({ nodeUrl: node.url, pollIntervalMs: 50 });
    const { database, context } = explorer.service;
    mountExplorerApi(explorer.http, createExplorerApi({ reader: createExplorerReader(database, context), context }));
    await explorer.service.ingester.waitUntilCaughtUp(60_000);
  });
  after(async () => {
    provider?.destroy();
    await explorer?.close();
    if (node !== undefined) {
      await node.stop();
      expect(alive(node.pid)).to.equal(false);
    }
  });

  const get = async (path: string) => {
    const response = await fetch(`${explorer.url}${path}`);
    return { status: response.status, body: (await response.json()) as any };
  };

  it("answers the sent transaction with its output to the receiver and its signer", async () => {
    const { status, body } = await get(`/v2/transactions/${txID}`);
    expect(status).to.equal(200);
    expect(body).to.include({ id: txID, chainID: explorer.service.context.chains.X, type: "base" });
    const paid = body.outputs.find((o: { addresses: string[] }) => o.addresses.includes(bare(to)));
    expect(paid).to.include({ amount: "7000000", assetID: explorer.service.context.nativeAssetId, redeemingTransactionID: "" });
    expect(body.inputs.flatMap((i: { credentials: { address: string }[] }) => i.credentials.map((c) => c.address))).to.include(bare(from));
    expect(BigInt(body.inputTotals[explorer.service.context.nativeAssetId]) - BigInt(body.outputTotals[explorer.service.context.nativeAssetId])).to.equal(BigInt(body.txFee));
  });

  it("answers the receiver's and the sender's balances as the node reports them", async () => {
    for (const address of [to, from]) {
      const { body } = await get(`/x/addresses/${address}`);
      const { balance } = await client.xvm.getBalance({ address, assetID: "AVAX" });
      expect(body.assets[explorer.service.context.nativeAssetId].balance, address).to.equal(balance.toString());
    }
  });

  it("lists the transaction for the receiver on the legacy /x, and finds it by search", async () => {
    const { body } = await get(`/x/transactions?address=${to}`);
    expect(body.transactions.map((t: { id: string }) => t.id)).to.deep.equal([txID]);
    const found = await get(`/v2/search?query=${txID}`);
    expect(found.body.results[0]).to.include({ type: "transaction", score: 1 });
  });

  it("answers the contract-chain transfer and the latest block as the node has them", async () => {
    const { body } = await get(`/v2/ctransactions?hash=${cHash}`);
    expect(body.Transactions).to.have.length(1);
    expect(body.Transactions[0]).to.include({ hash: cHash, value: "4242", toAddr: "0x000000000000000000000000000000000000dead" });
    const head = await provider.getBlock("latest");
    const latest = await get("/v2/ctxdata");
    expect(latest.body.header).to.include({ number: String(head!.number), hash: head!.hash!.toLowerCase(), gasUsed: head!.gasUsed.toString() });
  });

  it("answers through the explorer's own server: 405 for POST, 404 for an unknown ID", async () => {
    const post = await fetch(`${explorer.url}/v2/transactions`, { method: "POST" });
    expect(post.status).to.equal(405);
    const unknown = encodeCb58(new Uint8Array(32).fill(1));
    const missing = await get(`/v2/transactions/${unknown}`);
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ code: 404, message: `transaction ${unknown} is not known to this explorer` });
  });
});
