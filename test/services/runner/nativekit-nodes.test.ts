/**
 * The runner with its default executable, nativekit's own node (`bin/nativekit.js node`): each
 * node a real process answering the node's APIs with the NodeID of the certificate the runner
 * made for it. The five-node network is started once, its start-up time measured and printed.
 */
import { expect } from "chai";
import path from "node:path";
import { createInfoClient, createTransport } from "../../../src/clients";
import type { ClusterInfo } from "../../../src/clients/runner";
import { alive } from "../../helpers/processes";
import { startTestRunner, type TestRunner } from "./helpers";

const NATIVEKIT_BIN = path.join(__dirname, "..", "..", "..", "bin", "nativekit.js");

/** The result of a JSON-RPC call to `uri` + `route`; throws the node's error message. */
async function rpc<T>(uri: string, route: string, method: string, params: unknown = []): Promise<T> {
  const response = await fetch(`${uri}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

function flagsOf(base64: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(base64, "base64").toString("utf8")) as Record<string, unknown>;
}

describe("network runner: nativekit's own nodes", function () {
  this.timeout(600_000);
  let runner: TestRunner;
  let clusterInfo: ClusterInfo;
  let startMs: number;

  before(async () => {
    runner = await startTestRunner();
    const began = Date.now();
    // logLevel reaches each node as --log-level, which nativekit's node reads as the reference's does.
    clusterInfo = (await runner.client.start({ dynamicPorts: true, rootDataDir: runner.dataDir, logLevel: "info" })).clusterInfo!;
    startMs = Date.now() - began;
    console.log(`      five-node network of nativekit nodes started in ${(startMs / 1000).toFixed(1)} s (start call to all healthy)`);
  });
  after(async () => {
    await runner.close();
  });

  it("starts five nodes by default, all healthy, running nativekit's node", () => {
    expect(clusterInfo.nodeNames).to.deep.equal(["node1", "node2", "node3", "node4", "node5"]);
    expect(clusterInfo.healthy).to.equal(true);
    for (const info of Object.values(clusterInfo.nodeInfos)) expect(info.execPath).to.equal(NATIVEKIT_BIN);
    expect(runner.server.control.nodePids.filter(alive)).to.have.length(5);
  });

  it("gives each node its own NodeID, which the node itself reports", async () => {
    const ids = await Promise.all(
      Object.values(clusterInfo.nodeInfos).map(async (info) => {
        const { nodeID } = await createInfoClient({ transport: createTransport({ url: info.uri }) }).getNodeID();
        expect(nodeID).to.equal(info.id);
        return nodeID;
      }),
    );
    expect(new Set(ids).size).to.equal(5);
  });

  it("starts node2…node5 bootstrapping from node1", () => {
    const node1 = clusterInfo.nodeInfos.node1!;
    expect(flagsOf(node1.config)).not.to.have.property("bootstrap-ids");
    for (const name of ["node2", "node3", "node4", "node5"]) {
      const flags = flagsOf(clusterInfo.nodeInfos[name]!.config);
      expect(flags["bootstrap-ids"]).to.equal(node1.id);
      expect(flags["bootstrap-ips"]).to.equal(`127.0.0.1:${flagsOf(node1.config)["staking-port"]}`);
    }
  });

  it("connects node1 with the four nodes following it (info.peers)", async () => {
    const { peers } = await rpc<{ peers: { nodeID: string }[] }>(clusterInfo.nodeInfos.node1!.uri, "/ext/info", "info.peers", {});
    const followers = ["node2", "node3", "node4", "node5"].map((name) => clusterInfo.nodeInfos[name]!.id);
    expect(peers.map((p) => p.nodeID).sort()).to.deep.equal(followers.sort());
  });

  it("shows a transfer sent to node3 on all five nodes (time printed)", async () => {
    const uris = clusterInfo.nodeNames.map((name) => clusterInfo.nodeInfos[name]!.uri);
    const node3 = clusterInfo.nodeInfos.node3!.uri;
    const [from] = await rpc<string[]>(node3, "/ext/bc/C/rpc", "eth_accounts");
    const sent = Date.now();
    const hash = await rpc<string>(node3, "/ext/bc/C/rpc", "eth_sendTransaction", [{ from, to: "0x00000000000000000000000000000000000c0ffe", value: "0x7" }]);
    for (;;) {
      const receipts = await Promise.all(uris.map((uri) => rpc<{ blockHash: string } | null>(uri, "/ext/bc/C/rpc", "eth_getTransactionReceipt", [hash])));
      if (receipts.every((r) => r !== null && r.blockHash === receipts[0]!.blockHash)) break;
      expect(Date.now() - sent, "the transfer should reach every node within 30 s").to.be.lessThan(30_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.log(`      the transfer sent to node3 was in the same block on all five nodes ${Date.now() - sent} ms after it was sent`);
  });

  it("restarts a node on its db dir with the same NodeID", async () => {
    const { clusterInfo: after } = await runner.client.restartNode({ name: "node5" });
    expect(after!.nodeInfos.node5!.id).to.equal(clusterInfo.nodeInfos.node5!.id);
    const { nodeID } = await createInfoClient({ transport: createTransport({ url: after!.nodeInfos.node5!.uri }) }).getNodeID();
    expect(nodeID).to.equal(clusterInfo.nodeInfos.node5!.id);
  });

  it("stops every node process", async () => {
    const pids = runner.server.control.nodePids;
    await runner.client.stop();
    expect(pids.filter(alive)).to.deep.equal([]);
  });
});
