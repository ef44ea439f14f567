import { expect } from "chai";

import { rejection } from "../helpers/chain";
import { subscriptionFixture, type SubscriptionFixture } from "../helpers/subscriptions";

const hex = (n: bigint) => `0x${n.toString(16)}`;

/**
 * A `logs` subscription's fromBlock / toBlock, as geth's filter system treats them: past logs
 * are never replayed; the bounds only limit which new blocks' logs are delivered, and geth's
 * invalid combinations are refused.
 */
describe("in-process provider: the block bounds of a logs subscription", () => {
  let f: SubscriptionFixture;
  const subscribe = (filter: Record<string, unknown>) => f.subscribe("logs", filter);
  const blocksOf = (subscription: string) => f.results<{ blockNumber: string }>(subscription).map((log) => BigInt(log.blockNumber));
  const head = async () => BigInt((await f.chain.rpc("eth_blockNumber")) as string);
  const store = async (value: number) => (await f.harness.store(value)).wait();

  beforeEach(async () => {
    f = await subscriptionFixture();
    await store(1);
  });

  afterEach(() => f.stop());

  it("fromBlock in the past replays no past log: only logs of new blocks arrive", async () => {
    const sub = await subscribe({ fromBlock: "0x0" });
    expect(blocksOf(sub)).to.deep.equal([]);
    await store(2);
    expect(blocksOf(sub)).to.deep.equal([await head()]);
  });

  it("fromBlock 'earliest' replays no past log either", async () => {
    const sub = await subscribe({ fromBlock: "earliest" });
    await store(2);
    expect(blocksOf(sub)).to.deep.equal([await head()]);
  });

  it("a future fromBlock holds back the logs of blocks before it", async () => {
    const from = (await head()) + 2n;
    const sub = await subscribe({ fromBlock: hex(from) });
    await store(2);
    await store(3);
    expect(blocksOf(sub)).to.deep.equal([from]);
  });

  it("toBlock stops the logs of blocks after it", async () => {
    const to = (await head()) + 1n;
    const sub = await subscribe({ fromBlock: "0x0", toBlock: hex(to) });
    await store(2);
    await store(3);
    expect(blocksOf(sub)).to.deep.equal([to]);
  });

  it("toBlock in the past delivers nothing", async () => {
    const sub = await subscribe({ fromBlock: "0x0", toBlock: "0x1" });
    await store(2);
    expect(blocksOf(sub)).to.deep.equal([]);
  });

  it("'latest' on both sides is the same as no bound", async () => {
    const sub = await subscribe({ fromBlock: "latest", toBlock: "latest" });
    await store(2);
    expect(blocksOf(sub)).to.deep.equal([await head()]);
  });

  it("refuses fromBlock after toBlock: invalid from and to block combination", async () => {
    const error = await rejection(subscribe({ fromBlock: "0x5", toBlock: "0x3" }));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.include("invalid from and to block combination");
  });

  it("refuses a numbered toBlock without a numbered fromBlock, as geth does", async () => {
    const error = await rejection(subscribe({ toBlock: "0x10" }));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.include("invalid from and to block combination");
  });

  it("refuses 'pending': pending logs are not supported", async () => {
    const error = await rejection(subscribe({ fromBlock: "pending" }));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.include("pending logs are not supported");
  });

  it("refuses a block hash as fromBlock", async () => {
    const error = await rejection(subscribe({ fromBlock: `0x${"ab".repeat(32)}` }));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.include("filter.fromBlock");
  });

  it("refuses blockHash together with fromBlock", async () => {
    const error = await rejection(subscribe({ blockHash: `0x${"ab".repeat(32)}`, fromBlock: "0x0" }));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.include("blockHash");
  });

  it("accepts blockHash alone and ignores it, as geth does: new logs keep arriving", async () => {
    const sub = await subscribe({ blockHash: `0x${"ab".repeat(32)}` });
    await store(2);
    expect(blocksOf(sub)).to.deep.equal([await head()]);
  });

  it("refuses a malformed blockHash", async () => {
    const error = await rejection(subscribe({ blockHash: "0x12" }));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.include("filter.blockHash");
  });
});
