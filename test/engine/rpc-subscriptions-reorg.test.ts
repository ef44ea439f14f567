import { expect } from "chai";
import { id } from "ethers";

import { subscriptionFixture, type SubscriptionFixture } from "../helpers/subscriptions";

const PUT = id("Put(address,uint256,uint256)");

interface LogResult {
  blockNumber: string;
  blockHash: string;
  topics: string[];
  removed: boolean;
}

/**
 * evm_revert and hardhat_reset take blocks off the chain: a `logs` subscriber gets their logs
 * again with `removed: true` (geth's reorg notifications, oldest block first), and newHeads then
 * reports the new branch as it is mined.
 */
describe("in-process provider: subscriptions across evm_revert and hardhat_reset", () => {
  let f: SubscriptionFixture;
  const subscribe = (...params: unknown[]) => f.subscribe(...params);
  const of = (subscription: string) => f.results<LogResult>(subscription);
  const snapshot = () => f.chain.rpc("evm_snapshot") as Promise<string>;
  const revert = (snap: string) => f.chain.rpc("evm_revert", [snap]);
  const head = async () => BigInt((await f.chain.rpc("eth_blockNumber")) as string);
  const store = async (value: number) => (await f.harness.store(value)).wait();

  beforeEach(async () => {
    f = await subscriptionFixture();
  });

  afterEach(() => f.stop());

  it("evm_revert sends the logs of the removed blocks again with removed: true, oldest block first", async () => {
    const sub = await subscribe("logs");
    const snap = await snapshot();
    await store(1);
    await (await f.harness.put(2, 20)).wait();
    const delivered = of(sub);
    expect(delivered).to.have.length(2);
    await revert(snap);
    expect(of(sub)).to.deep.equal([...delivered, ...delivered.map((log) => ({ ...log, removed: true }))]);
  });

  it("removed logs pass the subscription's address and topics filter", async () => {
    const sub = await subscribe("logs", { address: await f.harness.getAddress(), topics: [PUT] });
    const snap = await snapshot();
    await store(1);
    await (await f.harness.put(2, 20)).wait();
    await revert(snap);
    expect(of(sub).map((log) => [log.topics[0], log.removed])).to.deep.equal([
      [PUT, false],
      [PUT, true],
    ]);
  });

  it("removed logs respect the subscription's block bounds", async () => {
    const first = (await head()) + 1n;
    const sub = await subscribe("logs", { fromBlock: "0x0", toBlock: `0x${first.toString(16)}` });
    const snap = await snapshot();
    await store(1);
    await store(2);
    await revert(snap);
    expect(of(sub).map((log) => [BigInt(log.blockNumber), log.removed])).to.deep.equal([
      [first, false],
      [first, true],
    ]);
  });

  it("evm_revert that removes no block sends nothing", async () => {
    const logs = await subscribe("logs");
    const heads = await subscribe("newHeads");
    await revert(await snapshot());
    expect(of(logs)).to.deep.equal([]);
    expect(of(heads)).to.deep.equal([]);
  });

  it("evm_revert sends nothing to newHeads, newAcceptedTransactions and newPendingTransactions", async () => {
    const snap = await snapshot();
    await store(1);
    const subs = await Promise.all(["newHeads", "newAcceptedTransactions", "newPendingTransactions"].map((kind) => subscribe(kind)));
    await revert(snap);
    expect(f.messages).to.deep.equal([]);
    expect(subs).to.have.length(3);
  });

  it("after evm_revert, newHeads reports the new branch's block at the reverted height, with a new hash", async () => {
    const sub = await subscribe("newHeads");
    const snap = await snapshot();
    const base = await head();
    await store(1);
    await revert(snap);
    await store(2);
    const [removed, added] = f.results<{ number: string; hash: string }>(sub);
    expect(BigInt(added!.number)).to.equal(base + 1n);
    expect(added!.number).to.equal(removed!.number);
    expect(added!.hash).not.to.equal(removed!.hash);
  });

  it("after evm_revert, the new branch's logs arrive with removed: false", async () => {
    const sub = await subscribe("logs");
    const snap = await snapshot();
    await store(1);
    await revert(snap);
    const receipt = await store(2);
    const last = of(sub).at(-1)!;
    expect(last.removed).to.equal(false);
    expect(last.blockHash).to.equal(receipt!.blockHash);
  });

  it("a subscription ended with eth_unsubscribe gets no removed logs", async () => {
    const sub = await subscribe("logs");
    const snap = await snapshot();
    await store(1);
    await f.chain.rpc("eth_unsubscribe", [sub]);
    await revert(snap);
    expect(of(sub).map((log) => log.removed)).to.deep.equal([false]);
  });

  it("hardhat_reset sends every log of the former chain again with removed: true", async () => {
    const sub = await subscribe("logs");
    await store(1);
    const [delivered] = of(sub);
    await f.chain.rpc("hardhat_reset");
    expect(of(sub)).to.deep.equal([delivered, { ...delivered, removed: true }]);
  });

  it("hardhat_reset also removes the logs emitted before the subscription", async () => {
    const deployment = (await f.chain.rpc("eth_getLogs", [{ fromBlock: "0x0" }])) as LogResult[];
    await store(1);
    const before = (await f.chain.rpc("eth_getLogs", [{ fromBlock: "0x0" }])) as LogResult[];
    const sub = await subscribe("logs");
    await f.chain.rpc("hardhat_reset");
    expect(of(sub)).to.deep.equal(before.map((log) => ({ ...log, removed: true })));
    expect(before.length).to.be.greaterThan(deployment.length);
  });

  describe("polled log filters (eth_newFilter)", () => {
    const changes = (filter: string) => f.chain.rpc("eth_getFilterChanges", [filter]) as Promise<LogResult[]>;

    it("report the logs of the blocks evm_revert removed, again, with removed: true", async () => {
      const filter = (await f.chain.rpc("eth_newFilter", [{}])) as string;
      const snap = await snapshot();
      await store(1);
      const added = await changes(filter);
      expect(added.map((log) => log.removed)).to.deep.equal([false]);
      await revert(snap);
      expect(await changes(filter)).to.deep.equal(added.map((log) => ({ ...log, removed: true })));
    });

    it("report removed logs only within their address, topics and block bounds", async () => {
      const beyond = `0x${((await head()) + 100n).toString(16)}`;
      const filter = (await f.chain.rpc("eth_newFilter", [{ topics: [PUT], fromBlock: beyond }])) as string;
      const snap = await snapshot();
      await store(1);
      await (await f.harness.put(2, 20)).wait();
      await revert(snap);
      expect(await changes(filter)).to.deep.equal([]);
    });
  });
});
