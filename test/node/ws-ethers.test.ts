import { expect } from "chai";
import { WebSocketProvider, type JsonRpcSigner } from "ethers";
import WebSocket from "ws";

import { NodeChains } from "../../src/node/node-chains";
import { type HttpNode, startHttpNode } from "../../src/node/http-server";
import { createWebSocketRpc } from "../../src/node/ws-server";
import { PATHS } from "../../src/network/paths";
import { RpcHarness__factory, type RpcHarness } from "../../typechain-types";

/** Resolves with the first value `listen` hands over, or fails after `ms`. */
function first<T>(listen: (resolve: (value: T) => void) => unknown, ms = 5000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing arrived within ${ms} ms`)), ms);
    listen((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/**
 * ethers v6's WebSocketProvider, unchanged, against the node's /ext/bc/C/ws: blocks, contract
 * events and pending transactions arrive through eth_subscribe, without polling.
 */
describe("WebSocket node with ethers' WebSocketProvider", () => {
  let network: NodeChains;
  let node: HttpNode;
  let provider: WebSocketProvider;
  let signer: JsonRpcSigner;
  let harness: RpcHarness;

  /** The head's number, read past ethers' cache of eth_blockNumber. */
  const head = async () => Number(await provider.send("eth_blockNumber", []));
  const wsUrl = (path: string = PATHS.contractWs) => `${node.url.replace(/^http/, "ws")}${path}`;

  beforeEach(async () => {
    network = await NodeChains.create();
    node = await startHttpNode({ port: 0, routes: network.routes, upgrade: createWebSocketRpc({ routes: network.wsRoutes }) });
    provider = new WebSocketProvider(wsUrl());
    signer = await provider.getSigner(0);
    harness = await new RpcHarness__factory(signer).deploy();
    await harness.waitForDeployment();
  });

  afterEach(async () => {
    await provider.destroy();
    await node.close();
    await network.close();
  });

  it("reads the chain ID over the WebSocket", async () => {
    expect((await provider.getNetwork()).chainId).to.equal(BigInt(network.network.evmChainId));
  });

  // ethers subscribes in the background after `on()` returns: each test repeats its action until
  // the first notification arrives, then checks that notification.
  it("delivers new blocks to provider.on('block')", async () => {
    const block = first<number>((resolve) => void provider.on("block", resolve));
    await repeatUntil(block, () => provider.send("evm_mine", []));
    const number = await block;
    const header = (await provider.send("eth_getBlockByNumber", [`0x${number.toString(16)}`, false])) as { number: string } | null;
    expect(header?.number).to.equal(`0x${number.toString(16)}`);
    expect(number).to.be.greaterThan(1);
  });

  it("delivers a contract's events to contract.on(...)", async () => {
    const event = first<[string, bigint]>((resolve) => void harness.on(harness.getEvent("Stored"), (writer: string, value: bigint) => resolve([writer, value])));
    await repeatUntil(event, async () => (await harness.store(42)).wait());
    expect(await event).to.deep.equal([await signer.getAddress(), 42n]);
  });

  it("delivers sent transactions to provider.on('pending')", async () => {
    const pending = first<string>((resolve) => void provider.on("pending", resolve));
    const sent: string[] = [];
    await repeatUntil(pending, async () => sent.push((await harness.store(7)).hash));
    expect(sent).to.include(await pending);
  });

  it("serves the same at /ext/bc/<cChainId>/ws", async () => {
    const other = new WebSocketProvider(wsUrl(`/ext/bc/${network.network.cChainId}/ws`));
    try {
      expect(Number(await other.send("eth_blockNumber", []))).to.equal(await head());
    } finally {
      await other.destroy();
    }
  });

  it("sends notifications as eth_subscription messages without an id, carrying the ID eth_subscribe returned", async () => {
    const client = new WebSocket(wsUrl());
    try {
      await first<void>((resolve) => client.once("open", () => resolve()));
      const messages: Record<string, unknown>[] = [];
      client.on("message", (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>));
      client.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
      await waitFor(() => messages.length === 1);
      const subscription = messages[0]!.result as string;
      await provider.send("evm_mine", []);
      await waitFor(() => messages.length === 2);
      const notification = messages[1]!;
      expect(Object.keys(notification).sort()).to.deep.equal(["jsonrpc", "method", "params"]);
      expect(notification.method).to.equal("eth_subscription");
      expect(notification.params).to.have.property("subscription", subscription);
      expect(notification.params).to.have.nested.property("result.number", `0x${(await head()).toString(16)}`);
    } finally {
      client.terminate();
    }
  });

  it("over HTTP, eth_subscribe answers that notifications are not supported", async () => {
    const response = await fetch(`${node.url}${PATHS.contractRpc}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }),
    });
    expect(await response.json()).to.have.nested.property("error.code", -32601);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error("timed out");
}

/** Runs `action` again and again (one at a time) until `arrived` settles. */
async function repeatUntil(arrived: Promise<unknown>, action: () => Promise<unknown>): Promise<void> {
  let done = false;
  arrived.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await action();
    await new Promise((r) => setTimeout(r, 20));
  }
}
