import { expect } from "chai";
import { privateKeyToAddresses } from "../../src/encoding";
import { LOCAL_TEST_KEY } from "../../src/network/constants";
import type { CliNode } from "../helpers/cli-node";
import { eventually, health, isBootstrapped, type PeerNode, PeerNodes } from "../helpers/peer-nodes";

const C = "/ext/bc/C/rpc";
const X = "/ext/bc/X";
const AVAX = "/ext/bc/C/avax";
const P = "/ext/bc/P";
const KEYSTORE = "/ext/keystore";
const USER = { username: "follower-user", password: "Corr3ct-Horse-Battery-Staple" };
const RECIPIENT = "0x00000000000000000000000000000000000c0ffe";
/** The local test key's addresses on the contract chain: bech32 (atomic outputs) and EVM. */
const TEST_KEY_C = "C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
const TEST_KEY_EVM = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
/** An exchange-chain address nobody else uses. */
const X_RECIPIENT = privateKeyToAddresses(new Uint8Array(32).fill(7), "local").exchange;

interface Block {
  hash: string;
  number: string;
}

/** What every node must answer the same once caught up. */
async function view(node: CliNode, xAddress: string) {
  const range = (route: string) =>
    node
      .call<{ containers: { id: string; bytes: string }[] }>(route, "index.getContainerRange", { startIndex: 0, numToFetch: 1024, encoding: "hex" })
      .then((r) => r.containers.map((c) => [c.id, c.bytes]))
      .catch(() => []);
  return {
    head: await node.call<Block>(C, "eth_getBlockByNumber", ["latest", false]).then((b) => [b.number, b.hash]),
    balance: await node.call<string>(C, "eth_getBalance", [RECIPIENT, "latest"]),
    testKeyBalance: await node.call<string>(C, "eth_getBalance", [TEST_KEY_EVM, "latest"]),
    xBalance: await node.call(X, "avm.getBalance", { address: xAddress, assetID: "AVAX" }),
    xRecipient: await node.call(X, "avm.getBalance", { address: X_RECIPIENT, assetID: "AVAX" }),
    xUtxos: await node.call(X, "avm.getUTXOs", { addresses: [xAddress, X_RECIPIENT], limit: 100 }),
    cIndex: await range("/ext/index/C/block"),
    xIndex: await range("/ext/index/X/tx"),
    pIndex: await range("/ext/index/P/block"),
  };
}

async function sameHead(nodes: CliNode[]): Promise<boolean> {
  const heads = await Promise.all(nodes.map((n) => n.call<Block>(C, "eth_getBlockByNumber", ["latest", false]).then((b) => b.hash)));
  return heads.every((h) => h === heads[0]);
}

describe("nodes that agree: a producer and followers as real processes", function () {
  this.timeout(300_000);
  const nodes = new PeerNodes();
  let producer: PeerNode;
  let follower1: PeerNode;
  let follower2: PeerNode;
  let xAddress: string;
  const all = () => [producer.node, follower1.node, follower2.node];

  before(async () => {
    producer = await nodes.start();
    [follower1, follower2] = await Promise.all([nodes.start(PeerNodes.following(producer)), nodes.start(PeerNodes.following(producer))]);
    await eventually("followers bootstrapped", async () => (await isBootstrapped(follower1.node)) && (await isBootstrapped(follower2.node)));
    // Follower 2's keystore holds the test key (a follower's keystore is its own).
    await follower2.node.call(KEYSTORE, "keystore.createUser", USER);
    xAddress = (await follower2.node.call<{ address: string }>(X, "avm.importKey", { ...USER, privateKey: LOCAL_TEST_KEY })).address;
    await follower2.node.call(AVAX, "avax.importKey", { ...USER, privateKey: LOCAL_TEST_KEY });
    await follower2.node.call(P, "platform.importKey", { ...USER, privateKey: LOCAL_TEST_KEY });
  });
  after(() => nodes.stopAll());

  it("applies a contract-chain transfer sent to a follower on every node, in the same block", async () => {
    const [from] = await follower2.node.call<string[]>(C, "eth_accounts");
    const hash = await follower2.node.call<string>(C, "eth_sendTransaction", [{ from, to: RECIPIENT, value: "0x7" }]);
    const answered = Date.now();
    // Read-your-writes on the node written to: answered once applied there.
    const receipt = await follower2.node.call<{ blockHash: string } | null>(C, "eth_getTransactionReceipt", [hash]);
    expect(receipt).to.not.equal(null);
    await eventually("the block on every node", async () => {
      const receipts = await Promise.all(all().map((n) => n.call<{ blockHash: string } | null>(C, "eth_getTransactionReceipt", [hash])));
      return receipts.every((r) => r?.blockHash === receipt!.blockHash);
    });
    console.log(`      contract-chain transfer visible on all 3 nodes ${Date.now() - answered} ms after the follower answered`);
    const balances = await Promise.all(all().map((n) => n.call<string>(C, "eth_getBalance", [RECIPIENT, "latest"])));
    expect(new Set(balances).size).to.equal(1);
  });

  it("applies an exchange-chain send made with a follower's keystore on every node", async () => {
    const { txID } = await follower2.node.call<{ txID: string }>(X, "avm.send", { ...USER, assetID: "AVAX", amount: 5000, to: X_RECIPIENT });
    const answered = Date.now();
    await eventually("the send accepted on every node", async () => {
      const statuses = await Promise.all(all().map((n) => n.call<{ status: string }>(X, "avm.getTxStatus", { txID })));
      return statuses.every((s) => s.status === "Accepted");
    });
    console.log(`      exchange-chain send visible on all 3 nodes ${Date.now() - answered} ms after the follower answered`);
    const balances = await Promise.all(all().map((n) => n.call<{ balance: string }>(X, "avm.getBalance", { address: X_RECIPIENT, assetID: "AVAX" })));
    expect(balances.map((b) => b.balance)).to.deep.equal(["5000", "5000", "5000"]);
  });

  it("applies an exchange-to-contract export and import sent to a follower on every node, in order", async () => {
    const exported = await follower2.node.call<{ txID: string }>(X, "avm.export", { ...USER, assetID: "AVAX", amount: 1_000_000_000, to: TEST_KEY_C });
    const imported = await follower2.node.call<{ txID: string }>(AVAX, "avax.import", { ...USER, to: TEST_KEY_EVM, sourceChain: "X" });
    await eventually("the import accepted on every node", async () => {
      const statuses = await Promise.all(all().map((n) => n.call<{ status: string }>(AVAX, "avax.getAtomicTxStatus", { txID: imported.txID })));
      return statuses.every((s) => s.status === "Accepted");
    });
    const exportStatus = await Promise.all(all().map((n) => n.call<{ status: string }>(X, "avm.getTxStatus", { txID: exported.txID })));
    expect(exportStatus.map((s) => s.status)).to.deep.equal(["Accepted", "Accepted", "Accepted"]);
    await eventually("same head everywhere", () => sameHead(all()));
    const views = await Promise.all(all().map((n) => view(n, xAddress)));
    expect(views[1]).to.deep.equal(views[0]);
    expect(views[2]).to.deep.equal(views[0]);
    expect(views[0].cIndex.length).to.be.greaterThan(1);
    expect(views[0].xIndex.length).to.be.greaterThan(1);
  });

  it("applies a platform-to-exchange export and import sent to a follower on every node", async () => {
    const exported = await follower2.node.call<{ txID: string }>(P, "platform.exportAVAX", { ...USER, amount: 2_000_000, to: xAddress });
    const imported = await follower2.node.call<{ txID: string }>(X, "avm.import", { ...USER, sourceChain: "P", to: xAddress });
    await eventually("the import accepted on every node", async () => {
      const statuses = await Promise.all(all().map((n) => n.call<{ status: string }>(X, "avm.getTxStatus", { txID: imported.txID })));
      return statuses.every((s) => s.status === "Accepted");
    });
    const pStatus = await Promise.all(all().map((n) => n.call<{ status: string }>(P, "platform.getTxStatus", { txID: exported.txID })));
    expect(pStatus.map((s) => s.status)).to.deep.equal(["Committed", "Committed", "Committed"]);
    const heights = await Promise.all(all().map((n) => n.call<{ height: string }>(P, "platform.getHeight", {})));
    expect(new Set(heights.map((h) => h.height)).size).to.equal(1);
    const views = await Promise.all(all().map((n) => view(n, xAddress)));
    expect(views[1]).to.deep.equal(views[0]);
    expect(views[2]).to.deep.equal(views[0]);
    expect(views[0].pIndex.length).to.be.greaterThan(0);
  });

  it("makes a transaction the producer accepted visible on every follower within a second", async () => {
    const [from] = await producer.node.call<string[]>(C, "eth_accounts");
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const hash = await producer.node.call<string>(C, "eth_sendTransaction", [{ from, to: RECIPIENT, value: "0x1" }]);
      const answered = Date.now();
      await eventually("the transaction on every follower", async () => {
        const receipts = await Promise.all([follower1.node, follower2.node].map((n) => n.call<unknown>(C, "eth_getTransactionReceipt", [hash])));
        return receipts.every((r) => r !== null);
      });
      times.push(Date.now() - answered);
    }
    console.log(`      producer's answer to visible on both followers (5 transfers, polled every 50 ms): ${times.join(", ")} ms`);
    expect(Math.max(...times)).to.be.lessThan(1000);
  });

  it("lists connected peers with the reference's fields in info.peers", async () => {
    const onProducer = await producer.node.call<{ numPeers: string; peers: Record<string, unknown>[] }>("/ext/info", "info.peers", {});
    expect(onProducer.numPeers).to.equal("2");
    expect(onProducer.peers.map((p) => p.nodeID).sort()).to.deep.equal([follower1.nodeID, follower2.nodeID].sort());
    const onFollower = await follower1.node.call<{ numPeers: string; peers: Record<string, unknown>[] }>("/ext/info", "info.peers", { nodeIDs: [producer.nodeID] });
    expect(onFollower.peers).to.have.length(1);
    const peer = onFollower.peers[0]!;
    expect(peer).to.include({ nodeID: producer.nodeID, publicIP: `127.0.0.1:${producer.stakingPort}`, observedUptime: "100" });
    expect(peer.benched).to.deep.equal([]);
    expect(Date.parse(String(peer.lastReceived))).to.be.greaterThan(0);
    expect(Date.parse(String(peer.lastSent))).to.be.greaterThan(0);
    expect(String(peer.version)).to.match(/^nativekit\//);
  });

  it("refuses to mine on a follower", async () => {
    const error = await follower1.node.call(C, "evm_mine", []).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).to.match(/evm_mine is not available on a node that follows another/);
  });

  it("catches a killed follower up from its data directory after a restart", async () => {
    await follower1.node.stop("SIGKILL");
    const [from] = await producer.node.call<string[]>(C, "eth_accounts");
    await producer.node.call(C, "eth_sendTransaction", [{ from, to: RECIPIENT, value: "0x9" }]);
    follower1 = await nodes.start([], follower1);
    await eventually("the restarted follower bootstrapped", () => isBootstrapped(follower1.node));
    await eventually("same head everywhere", () => sameHead(all()));
    expect((await health(follower1.node)).healthy).to.equal(true);
  });

  it("catches a paused follower up once it resumes, after its producer dropped the silent link", async () => {
    process.kill(follower2.node.pid, "SIGSTOP");
    try {
      const [from] = await producer.node.call<string[]>(C, "eth_accounts");
      await producer.node.call(C, "eth_sendTransaction", [{ from, to: RECIPIENT, value: "0xa" }]);
      await eventually(
        "the producer dropping the paused follower",
        async () => (await producer.node.call<{ peers: { nodeID: string }[] }>("/ext/info", "info.peers", {})).peers.every((p) => p.nodeID !== follower2.nodeID),
        15_000,
      );
    } finally {
      process.kill(follower2.node.pid, "SIGCONT");
    }
    await eventually("same head everywhere", () => sameHead(all()));
    await eventually("the resumed follower healthy", async () => (await health(follower2.node)).healthy);
  });

  it("reports a follower unhealthy while its producer is silent, and healthy again once it answers", async () => {
    process.kill(producer.node.pid, "SIGSTOP");
    try {
      await eventually(
        "the follower reporting the lost link",
        async () => {
          const report = await health(follower1.node);
          return !report.healthy && /not connected to a bootstrap peer/.test(report.checks.network?.error ?? "");
        },
        15_000,
      );
    } finally {
      process.kill(producer.node.pid, "SIGCONT");
    }
    await eventually("the follower healthy again", async () => (await health(follower1.node)).healthy, 20_000);
    const [from] = await follower1.node.call<string[]>(C, "eth_accounts");
    await follower1.node.call(C, "eth_sendTransaction", [{ from, to: RECIPIENT, value: "0xd" }]);
    await eventually("same head everywhere", () => sameHead(all()));
  });

  it("refuses on the producer what would take accepted blocks back", async () => {
    const error = await producer.node.call(C, "evm_revert", ["0x1"]).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).to.match(/evm_revert is not available on a node with a peer network/);
  });

  it("keeps following a producer restarted on its data directory", async () => {
    expect(await producer.node.stop("SIGTERM")).to.equal(0);
    producer = await nodes.start([], producer);
    const [from] = await producer.node.call<string[]>(C, "eth_accounts");
    await producer.node.call(C, "eth_sendTransaction", [{ from, to: RECIPIENT, value: "0xb" }]);
    const { txID } = await follower2.node.call<{ txID: string }>(X, "avm.send", { ...USER, assetID: "AVAX", amount: 1000, to: X_RECIPIENT });
    await eventually("the send accepted on every node", async () => {
      const statuses = await Promise.all(all().map((n) => n.call<{ status: string }>(X, "avm.getTxStatus", { txID })));
      return statuses.every((s) => s.status === "Accepted");
    });
    await eventually("same head everywhere", () => sameHead(all()));
    const views = await Promise.all(all().map((n) => view(n, xAddress)));
    expect(views[1]).to.deep.equal(views[0]);
    expect(views[2]).to.deep.equal(views[0]);
  });

  it("makes a transaction sent to the third of five nodes visible on all five", async () => {
    const more = await Promise.all([nodes.start(PeerNodes.following(producer)), nodes.start(PeerNodes.following(producer))]);
    const five = [...all(), ...more.map((m) => m.node)];
    await eventually("the new followers bootstrapped", async () => (await Promise.all(more.map((m) => isBootstrapped(m.node)))).every(Boolean));
    const [from] = await follower2.node.call<string[]>(C, "eth_accounts");
    const sent = Date.now();
    const hash = await follower2.node.call<string>(C, "eth_sendTransaction", [{ from, to: RECIPIENT, value: "0xc" }]);
    const answered = Date.now();
    await eventually("the transfer on all five nodes", async () => {
      const receipts = await Promise.all(five.map((n) => n.call<{ blockHash: string } | null>(C, "eth_getTransactionReceipt", [hash])));
      return receipts.every((r) => r !== null && r.blockHash === receipts[0]!.blockHash);
    });
    console.log(`      five nodes: the follower answered in ${answered - sent} ms; visible on all five ${Date.now() - answered} ms later`);
    await eventually("same head on all five", () => sameHead(five));
    const views = await Promise.all(five.map((n) => view(n, xAddress)));
    for (const v of views.slice(1)) expect(v).to.deep.equal(views[0]);
    const onProducer = await producer.node.call<{ numPeers: string }>("/ext/info", "info.peers", {});
    expect(onProducer.numPeers).to.equal("4");
  });

  describe("refusals (both nodes started together)", () => {
    let impostor: PeerNode;
    let stranger: PeerNode;
    before(async () => {
      [impostor, stranger] = await Promise.all([
        nodes.start(PeerNodes.following(producer, follower1.nodeID)),
        nodes.start([...PeerNodes.following(producer), "--network-id", "1337"]),
      ]);
    });

    it("refuses a bootstrap peer whose certificate is not the node ID named", async () => {
      await eventually("the refusal reported", async () => {
        const report = await health(impostor.node);
        return !report.healthy && /refused bootstrap peer .* its certificate is NodeID-\S+, --bootstrap-ids names/.test(report.checks.network?.error ?? "");
      });
      expect(await isBootstrapped(impostor.node)).to.equal(false);
      // The node's output goes out in batches at most 20 ms apart: the line may follow the health report.
      await eventually("the refusal printed", async () => impostor.node.output().includes(`--bootstrap-ids names ${follower1.nodeID}`), 2_000);
      expect(impostor.node.output()).to.include(`--bootstrap-ids names ${follower1.nodeID}`);
    });

    it("is refused by a producer of another network ID", async () => {
      await eventually("the refusal reported", async () => {
        const report = await health(stranger.node);
        return !report.healthy && /network ID 1337, this node is on network 12345/.test(report.checks.network?.error ?? "");
      });
      expect(await isBootstrapped(stranger.node)).to.equal(false);
    });
  });
});
