import { expect } from "chai";
import { id } from "ethers";

import type { SubscriptionMessage } from "../../src/engine/provider";
import { RpcHarness__factory, type RpcHarness } from "../../typechain-types";
import { rejection, startChain, type TestChain } from "../helpers/chain";

const STORED = id("Stored(address,uint256)");
const PUT = id("Put(address,uint256,uint256)");

/**
 * eth_subscribe on the in-process provider: notifications arrive as EIP-1193 `message` events,
 * `{ type: "eth_subscription", data: { subscription, result } }`, as the chain moves.
 */
describe("in-process provider: eth_subscribe", () => {
  let chain: TestChain;
  let harness: RpcHarness;
  let messages: SubscriptionMessage[];
  const record = (m: SubscriptionMessage) => messages.push(m);

  const subscribe = (...params: unknown[]) => chain.rpc("eth_subscribe", params) as Promise<string>;
  const of = (subscription: string) => messages.filter((m) => m.data.subscription === subscription).map((m) => m.data.result);
  const mine = () => chain.rpc("evm_mine");

  beforeEach(async () => {
    chain = await startChain();
    harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await harness.waitForDeployment();
    messages = [];
    chain.native.on("message", record);
  });

  afterEach(() => {
    chain.native.off("message", record);
  });

  it("returns a subscription ID of 16 bytes in hex", async () => {
    expect(await subscribe("newHeads")).to.match(/^0x[0-9a-f]{32}$/);
  });

  it("newHeads: each new block's header, as eth_getBlockByNumber gives it without transactions", async () => {
    const sub = await subscribe("newHeads");
    await mine();
    const block = (await chain.rpc("eth_getBlockByNumber", ["latest", false])) as Record<string, unknown>;
    const { transactions: _t, uncles: _u, ...header } = block;
    expect(of(sub)).to.deep.equal([header]);
  });

  it("emits the EIP-1193 message event shape", async () => {
    const sub = await subscribe("newHeads");
    await mine();
    expect(messages).to.have.length(1);
    expect(messages[0]!.type).to.equal("eth_subscription");
    expect(Object.keys(messages[0]!.data)).to.deep.equal(["subscription", "result"]);
    expect(messages[0]!.data.subscription).to.equal(sub);
  });

  it("logs: only the logs matching the address filter, as eth_getLogs formats them", async () => {
    const other = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await other.waitForDeployment();
    const sub = await subscribe("logs", { address: await harness.getAddress() });
    await (await other.store(1)).wait();
    await (await harness.store(2)).wait();
    const logs = await chain.rpc("eth_getLogs", [{ address: await harness.getAddress() }]);
    expect(of(sub)).to.deep.equal(logs);
    expect(of(sub)).to.have.length(1);
  });

  it("logs: the topics filter selects events", async () => {
    const sub = await subscribe("logs", { topics: [PUT] });
    await (await harness.store(1)).wait();
    await (await harness.put(7, 70)).wait();
    const topics = of(sub).map((l) => (l as { topics: string[] }).topics[0]);
    expect(topics).to.deep.equal([PUT]);
    expect(topics).not.to.include(STORED);
  });

  it("newPendingTransactions: the hash of each transaction sent", async () => {
    const sub = await subscribe("newPendingTransactions");
    const tx = await harness.store(3);
    expect(of(sub)).to.deep.equal([tx.hash]);
  });

  it("newPendingTransactions with true: the whole transaction", async () => {
    const sub = await subscribe("newPendingTransactions", true);
    const tx = await harness.store(3);
    const [full] = of(sub) as { hash: string; from: string; to: string }[];
    expect(full!.hash).to.equal(tx.hash);
    expect(full!.from.toLowerCase()).to.equal(chain.signers[0]!.address.toLowerCase());
    expect(full!.to.toLowerCase()).to.equal((await harness.getAddress()).toLowerCase());
  });

  it("newAcceptedTransactions: the hash of each transaction in an accepted block", async () => {
    const sub = await subscribe("newAcceptedTransactions");
    const tx = await harness.store(4);
    await tx.wait();
    expect(of(sub)).to.deep.equal([tx.hash]);
  });

  it("newAcceptedTransactions with true: the transaction as mined, with its block", async () => {
    const sub = await subscribe("newAcceptedTransactions", true);
    const receipt = (await (await harness.store(4)).wait())!;
    const mined = await chain.rpc("eth_getTransactionByHash", [receipt.hash]);
    expect(of(sub)).to.deep.equal([mined]);
  });

  it("eth_unsubscribe ends a subscription and answers true", async () => {
    const sub = await subscribe("newHeads");
    expect(await chain.rpc("eth_unsubscribe", [sub])).to.equal(true);
    await mine();
    expect(of(sub)).to.deep.equal([]);
  });

  it("a connection's session delivers only its own subscriptions, and none once closed", async () => {
    const pushed: unknown[] = [];
    const session = chain.native.openSession((n) => pushed.push(n));
    const sub = (await session.dispatch("eth_subscribe", ["newHeads"])) as string;
    await mine();
    expect(pushed).to.have.length(1);
    expect(messages).to.deep.equal([]);
    expect(await chain.rpc("eth_unsubscribe", [sub])).to.equal(false);
    session.close();
    await mine();
    expect(pushed).to.have.length(1);
  });

  it("eth_unsubscribe of an unknown ID answers false", async () => {
    expect(await chain.rpc("eth_unsubscribe", ["0x1234"])).to.equal(false);
  });

  it("an unknown subscription kind is an invalid-params error", async () => {
    const error = await rejection(subscribe("syncing"));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.include("newHeads");
  });

  it("delivers through ethers' BrowserProvider too (send passes the subscription on)", async () => {
    const sub = (await chain.provider.send("eth_subscribe", ["newHeads"])) as string;
    await chain.provider.send("evm_mine", []);
    expect(of(sub)).to.have.length(1);
    expect((of(sub)[0] as { number: string }).number).to.equal(await chain.rpc("eth_blockNumber"));
  });

  it("the connectionless API (what HTTP serves) refuses eth_subscribe: notifications are not supported", async () => {
    const error = await rejection(chain.native.dispatch("eth_subscribe", ["newHeads"]));
    expect(error.code).to.equal(-32601);
    expect(error.message).to.include("notifications not supported");
  });
});
