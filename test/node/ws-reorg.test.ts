import { expect } from "chai";
import { Interface, WebSocketProvider } from "ethers";

import { PATHS } from "../../src/network/paths";
import { type HttpNode, startHttpNode } from "../../src/node/http-server";
import { NodeChains } from "../../src/node/node-chains";
import { createWebSocketRpc } from "../../src/node/ws-server";
import { RpcHarness__factory } from "../../typechain-types";
import { connectWsRpc, type WsRpcClient, type WsRpcError } from "../helpers/ws-rpc";

interface LogResult {
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  removed: boolean;
}

const harness = new Interface(RpcHarness__factory.abi);

/**
 * Over a real WebSocket at /ext/bc/C/ws: what evm_revert and hardhat_reset do to subscriptions
 * (removed logs, then the new branch), and a logs filter's fromBlock / toBlock (no replay).
 */
describe("WebSocket node: subscriptions across evm_revert, and logs bounds", () => {
  let network: NodeChains;
  let node: HttpNode;
  let client: WsRpcClient;
  let from: string;
  let contract: string;

  const wsUrl = () => `${node.url.replace(/^http/, "ws")}${PATHS.contractWs}`;
  const subscribe = (...params: unknown[]) => client.request("eth_subscribe", params) as Promise<string>;
  /** Sends store(value) to the test contract and waits for its receipt. */
  const store = async (value: number) => {
    const data = harness.encodeFunctionData("store", [value]);
    const hash = (await client.request("eth_sendTransaction", [{ from, to: contract, data }])) as string;
    return waitForReceipt(hash);
  };
  const waitForReceipt = async (hash: string) => {
    for (let i = 0; i < 500; i++) {
      const receipt = (await client.request("eth_getTransactionReceipt", [hash])) as { blockNumber: string; contractAddress: string | null } | null;
      if (receipt !== null) return receipt;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no receipt for ${hash}`);
  };
  const head = async () => BigInt((await client.request("eth_blockNumber")) as string);

  beforeEach(async () => {
    network = await NodeChains.create();
    node = await startHttpNode({ port: 0, routes: network.routes, upgrade: createWebSocketRpc({ routes: network.wsRoutes }) });
    client = await connectWsRpc(wsUrl());
    [from] = (await client.request("eth_accounts")) as string[];
    const deployed = (await client.request("eth_sendTransaction", [{ from, data: RpcHarness__factory.bytecode }])) as string;
    contract = (await waitForReceipt(deployed)).contractAddress!;
  });

  afterEach(async () => {
    client.close();
    await node.close();
    await network.close();
  });

  it("evm_revert sends the logs of the removed blocks again with removed: true", async () => {
    const sub = await subscribe("logs", { address: contract });
    const snapshot = await client.request("evm_snapshot");
    await store(1);
    await store(2);
    const delivered = (await client.waitForNotifications(sub, 2)) as LogResult[];
    expect(await client.request("evm_revert", [snapshot])).to.equal(true);
    const all = await client.waitForNotifications(sub, 4);
    expect(all).to.deep.equal([...delivered, ...delivered.map((log) => ({ ...log, removed: true }))]);
  });

  it("after evm_revert, newHeads reports the new branch's block at the reverted height", async () => {
    const sub = await subscribe("newHeads");
    const snapshot = await client.request("evm_snapshot");
    const base = await head();
    await store(1);
    await client.request("evm_revert", [snapshot]);
    await store(2);
    const [removed, added] = (await client.waitForNotifications(sub, 2)) as { number: string; hash: string }[];
    expect(BigInt(added!.number)).to.equal(base + 1n);
    expect(added!.number).to.equal(removed!.number);
    expect(added!.hash).not.to.equal(removed!.hash);
  });

  it("hardhat_reset sends the former chain's logs again with removed: true", async () => {
    const sub = await subscribe("logs", { address: contract });
    await store(1);
    const [delivered] = (await client.waitForNotifications(sub, 1)) as LogResult[];
    await client.request("hardhat_reset");
    expect(await client.waitForNotifications(sub, 2)).to.deep.equal([delivered, { ...delivered, removed: true }]);
  });

  it("a logs subscription with fromBlock 0x0 replays no past log", async () => {
    await store(1);
    const sub = await subscribe("logs", { address: contract, fromBlock: "0x0" });
    const receipt = await store(2);
    const logs = (await client.waitForNotifications(sub, 1)) as LogResult[];
    expect(logs.map((log) => log.blockNumber)).to.deep.equal([receipt.blockNumber]);
  });

  it("a logs subscription's toBlock stops the logs of later blocks", async () => {
    const to = (await head()) + 1n;
    const sub = await subscribe("logs", { address: contract, fromBlock: "0x0", toBlock: `0x${to.toString(16)}` });
    await store(1);
    await store(2);
    // An unbounded subscription sees a later block, so the bounded one had its chance to report it.
    const open = await subscribe("logs", { address: contract });
    await store(3);
    await client.waitForNotifications(open, 1);
    expect(((await client.waitForNotifications(sub, 1)) as LogResult[]).map((log) => BigInt(log.blockNumber))).to.deep.equal([to]);
  });

  it("refuses a logs subscription whose fromBlock is after its toBlock", async () => {
    const error = await subscribe("logs", { fromBlock: "0x5", toBlock: "0x3" }).then(
      () => undefined,
      (e: WsRpcError) => e,
    );
    expect(error?.code).to.equal(-32602);
    expect(error?.message).to.include("invalid from and to block combination");
  });

  it("ethers' contract.on gets the new branch's events after evm_revert, and is not called for removed logs", async () => {
    const provider = new WebSocketProvider(wsUrl());
    try {
      const signer = await provider.getSigner(0);
      const watched = RpcHarness__factory.connect(contract, signer);
      const values: bigint[] = [];
      await watched.on(watched.getEvent("Stored"), (_writer: string, value: bigint) => void values.push(value));
      // ethers subscribes in the background: wait until its eth_subscribe is in place.
      await until(async () => {
        await (await watched.store(1)).wait();
        return values.length > 0;
      });
      const snapshot = (await provider.send("evm_snapshot", [])) as string;
      await (await watched.store(2)).wait();
      await until(async () => values.at(-1) === 2n);
      await provider.send("evm_revert", [snapshot]);
      await (await watched.store(3)).wait();
      await until(async () => values.at(-1) === 3n);
      expect(values.filter((v) => v !== 1n)).to.deep.equal([2n, 3n]);
    } finally {
      await provider.destroy();
    }
  });
});

/** Runs `check` until it answers true; fails after about 5 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("timed out");
}
