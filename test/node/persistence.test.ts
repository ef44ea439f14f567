import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NodeChains } from "../../src/node/node-chains";
import { LOCAL_NETWORK, LOCAL_TEST_KEY } from "../../src/network/constants";
import { rejection } from "../helpers/chain";
import { type CliNode, spawnCliNode, startedCliNode } from "../helpers/cli-node";

const C = "/ext/bc/C/rpc";
const X = "/ext/bc/X";
const USER = { username: "keeper", password: "Corr3ct-Horse-Battery-Staple" };
const AVAX = "/ext/bc/C/avax";
const P = "/ext/bc/P";
const RECIPIENT = "0x00000000000000000000000000000000000c0ffe";
/** The local test key's addresses on the contract chain: bech32 (atomic outputs) and EVM. */
const TEST_KEY_C = "C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
const TEST_KEY_EVM = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";

interface Receipt {
  blockHash: string;
  blockNumber: string;
  status: string;
}

/** The keystore user holding the local test key, and its exchange-chain address (made once per data directory). */
async function exchangeUser(node: CliNode): Promise<string> {
  const users = await node.call<{ users: string[] }>("/ext/keystore", "keystore.listUsers", {});
  if (!users.users.includes(USER.username)) await node.call("/ext/keystore", "keystore.createUser", USER);
  return (await node.call<{ address: string }>(X, "avm.importKey", { ...USER, privateKey: LOCAL_TEST_KEY })).address;
}

describe("nativekit node --db-dir: a node that keeps its state", function () {
  this.timeout(600_000);
  let dir: string;
  const running: CliNode[] = [];
  const start = async (args: string[] = []) => {
    const node = await startedCliNode(["--db-dir", dir, "--silent", ...args]);
    running.push(node);
    return node;
  };
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-node-db-"))));
  afterEach(async () => {
    for (const node of running.splice(0)) await node.stop("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("serves after a restart every block, receipt, balance, exchange-chain transaction, keystore user and index entry it had", async () => {
    let node = await start(["--index-enabled"]);
    const [from] = await node.call<string[]>(C, "eth_accounts");
    const hashes: string[] = [];
    for (let i = 0; i < 3; i++) hashes.push(await node.call<string>(C, "eth_sendTransaction", [{ from, to: RECIPIENT, value: "0x7" }]));
    const xAddress = await exchangeUser(node);
    const txIDs: string[] = [];
    for (let i = 1; i <= 2; i++) txIDs.push((await node.call<{ txID: string }>(X, "avm.send", { ...USER, assetID: "AVAX", amount: 1000 * i, to: xAddress })).txID);

    const snapshot = async (n: CliNode) => ({
      head: await n.call<{ hash: string; number: string }>(C, "eth_getBlockByNumber", ["latest", false]),
      receipts: await Promise.all(hashes.map((h) => n.call<Receipt>(C, "eth_getTransactionReceipt", [h]))),
      balance: await n.call<string>(C, "eth_getBalance", [RECIPIENT, "latest"]),
      nonce: await n.call<string>(C, "eth_getTransactionCount", [from, "latest"]),
      xStatus: await Promise.all(txIDs.map((txID) => n.call(X, "avm.getTxStatus", { txID }))),
      xBalance: await n.call(X, "avm.getBalance", { address: xAddress, assetID: "AVAX" }),
      xUtxos: await n.call(X, "avm.getUTXOs", { addresses: [xAddress], limit: 100 }),
      users: await n.call("/ext/keystore", "keystore.listUsers", {}),
      cIndex: await n.call("/ext/index/C/block", "index.getLastAccepted", { encoding: "hex" }),
      xIndex: await n.call("/ext/index/X/tx", "index.getContainerRange", { startIndex: 0, numToFetch: 10, encoding: "hex" }),
    });
    const before = await snapshot(node);
    expect(await node.stop("SIGTERM")).to.equal(0);

    node = await start(["--index-enabled"]);
    expect(await snapshot(node)).to.deep.equal(before);
    // The chain goes on from its head.
    const next = await node.call<string>(C, "eth_sendTransaction", [{ from, to: RECIPIENT, value: "0x1" }]);
    const receipt = await node.call<Receipt>(C, "eth_getTransactionReceipt", [next]);
    expect(BigInt(receipt.blockNumber)).to.equal(BigInt(before.head.number) + 1n);
    const block = await node.call<{ parentHash: string }>(C, "eth_getBlockByNumber", [receipt.blockNumber, false]);
    expect(block.parentHash).to.equal(before.head.hash);
  });

  it("loses no transaction answered as accepted when killed with SIGKILL at any moment, and its directory opens each time", async () => {
    const answeredC: string[] = [];
    const answeredX: string[] = [];
    const answeredImports: string[] = [];
    const answeredP: string[] = [];
    let sentC = 0;
    for (let round = 0; round < 4; round++) {
      const node = await start();
      // Everything answered in earlier rounds is there.
      for (const hash of answeredC) expect(await node.call<Receipt | null>(C, "eth_getTransactionReceipt", [hash]), `receipt of ${hash}`).to.not.equal(null);
      for (const txID of answeredX) expect(await node.call(X, "avm.getTxStatus", { txID })).to.deep.equal({ status: "Accepted" });
      for (const txID of answeredImports) expect(await node.call(AVAX, "avax.getAtomicTxStatus", { txID }), `import ${txID}`).to.deep.include({ status: "Accepted" });
      for (const txID of answeredP) expect(await node.call(P, "platform.getTxStatus", { txID }), `platform ${txID}`).to.deep.include({ status: "Committed" });
      const balance = BigInt(await node.call<string>(C, "eth_getBalance", [RECIPIENT, "latest"]));
      expect(balance >= BigInt(answeredC.length) && balance <= BigInt(sentC), `balance ${balance} within [${answeredC.length}, ${sentC}]`).to.equal(true);

      const [from] = await node.call<string[]>(C, "eth_accounts");
      const xAddress = await exchangeUser(node);
      let stop = false;
      const contract = (async () => {
        while (!stop) {
          sentC++;
          answeredC.push(await node.call<string>(C, "eth_sendTransaction", [{ from, to: RECIPIENT, value: "0x1" }]));
        }
      })().catch(() => undefined);
      const exchange = (async () => {
        while (!stop) answeredX.push((await node.call<{ txID: string }>(X, "avm.send", { ...USER, assetID: "AVAX", amount: 1, to: xAddress })).txID);
      })().catch(() => undefined);
      // Across the chains: an export from X, then its import into C (shared memory both ways).
      await node.call(AVAX, "avax.importKey", { ...USER, privateKey: LOCAL_TEST_KEY });
      const crossing = (async () => {
        while (!stop) {
          answeredX.push((await node.call<{ txID: string }>(X, "avm.export", { ...USER, assetID: "AVAX", amount: 1_000_000_000, to: TEST_KEY_C })).txID);
          answeredImports.push((await node.call<{ txID: string }>(AVAX, "avax.import", { ...USER, to: TEST_KEY_EVM, sourceChain: "X" })).txID);
        }
      })().catch(() => undefined);
      // The platform chain: exports to X (its blocks and the atomic memory, committed together).
      await node.call(P, "platform.importKey", { ...USER, privateKey: LOCAL_TEST_KEY });
      const platform = (async () => {
        while (!stop) answeredP.push((await node.call<{ txID: string }>(P, "platform.exportAVAX", { ...USER, to: xAddress, amount: 1_000_000 })).txID);
      })().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 600)));
      await node.stop("SIGKILL");
      running.splice(running.indexOf(node), 1);
      stop = true;
      await Promise.all([contract, exchange, crossing, platform]);
    }
    expect(answeredC.length, "transactions answered over the rounds").to.be.greaterThan(10);
    expect(answeredImports.length, "imports answered over the rounds").to.be.greaterThan(0);
    const last = await start();
    for (const hash of answeredC) expect(await last.call<Receipt | null>(C, "eth_getTransactionReceipt", [hash])).to.not.equal(null);
    for (const txID of answeredX) expect(await last.call(X, "avm.getTxStatus", { txID })).to.deep.equal({ status: "Accepted" });
    for (const txID of answeredImports) expect(await last.call(AVAX, "avax.getAtomicTxStatus", { txID })).to.deep.include({ status: "Accepted" });
    for (const txID of answeredP) expect(await last.call(P, "platform.getTxStatus", { txID })).to.deep.include({ status: "Committed" });
    expect(answeredP.length, "platform exports answered over the rounds").to.be.greaterThan(0);
  });

  it("refuses a directory whose contract chain has another chain ID, saying what to do", async () => {
    await (await start()).stop("SIGTERM");
    running.splice(0);
    const refused = await spawnCliNode(["--db-dir", dir, "--chain-id", "31337"]);
    expect(refused.started).to.equal(false);
    if (refused.started) return;
    expect(refused.code).to.equal(1);
    expect(refused.output).to.include("--chain-id 43112");
  });

  it("refuses a directory written for another network ID", async () => {
    await (await NodeChains.create({ management: { dbDir: dir } })).close();
    const error = await rejection(NodeChains.create({ network: { ...LOCAL_NETWORK, networkId: 1337 }, management: { dbDir: dir } }));
    expect(error.message).to.include("network 12345").and.include("this node runs network 1337");
  });

  it("refuses hardhat_reset once restored from its directory (the exchange chain cannot go back to genesis), and resets a fresh one", async () => {
    const fresh = await NodeChains.create({ management: { dbDir: dir } });
    try {
      await fresh.provider.request({ method: "hardhat_reset", params: [] });
    } finally {
      await fresh.close();
    }
    const restored = await NodeChains.create({ management: { dbDir: dir } });
    try {
      const error = await rejection(restored.provider.request({ method: "hardhat_reset", params: [] }));
      expect(error.message).to.equal(
        "hardhat_reset cannot take the exchange chain, the atomic memory and the platform chain back to genesis on a node restored from its data directory; stop the node and start it on a new --db-dir",
      );
    } finally {
      await restored.close();
    }
  });
});
