import { expect } from "chai";

import { RpcHarness__factory, type RpcHarness } from "../../typechain-types";
import { startChain, type TestChain } from "../helpers/chain";

const hexq = (n: bigint | number) => "0x" + n.toString(16);
const word = (n: bigint | number) => "0x" + n.toString(16).padStart(64, "0");

/**
 * Reads at past block numbers see the state as of that block. Timeline:
 * block D: harness deployed; block S1: store(1); block T: transfer of 1 coin; block S2: store(2).
 */
describe("standard JSON-RPC: reads at past blocks", () => {
  let chain: TestChain;
  let harness: RpcHarness;
  let target: string;
  let from: string;
  let to: string;
  let beforeDeploy: string;
  let deployed: string;
  let afterStore1: string;
  let afterTransfer: string;
  let afterStore2: string;

  const height = async () => (await chain.rpc("eth_blockNumber")) as string;

  before(async () => {
    chain = await startChain();
    from = chain.signers[0]!.address;
    to = chain.signers[1]!.address;
    beforeDeploy = await height();
    harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await harness.waitForDeployment();
    target = await harness.getAddress();
    deployed = await height();
    await (await harness.store(1)).wait();
    afterStore1 = await height();
    await (await chain.signers[0]!.sendTransaction({ to, value: 10n ** 18n })).wait();
    afterTransfer = await height();
    await (await harness.store(2)).wait();
    afterStore2 = await height();
  });

  it("eth_getBalance at an older block returns the balance then", async () => {
    const recipientThen = BigInt((await chain.rpc("eth_getBalance", [to, afterStore1])) as string);
    const recipientNow = BigInt((await chain.rpc("eth_getBalance", [to, afterTransfer])) as string);
    expect(recipientNow - recipientThen).to.equal(10n ** 18n);
    expect(await chain.rpc("eth_getBalance", [to, "latest"])).to.equal(hexq(recipientNow));
  });

  it("eth_getBalance at genesis is the initial 10000 coin, even for an account that has spent since", async () => {
    expect(await chain.rpc("eth_getBalance", [from, "earliest"])).to.equal(hexq(10_000n * 10n ** 18n));
    expect(await chain.rpc("eth_getBalance", [from, "0x0"])).to.equal(hexq(10_000n * 10n ** 18n));
  });

  it("eth_getBalance accepts a block hash (EIP-1898 object and bare hash)", async () => {
    const block = (await chain.rpc("eth_getBlockByNumber", [afterStore1, false])) as { hash: string };
    const expected = await chain.rpc("eth_getBalance", [to, afterStore1]);
    expect(await chain.rpc("eth_getBalance", [to, { blockHash: block.hash }])).to.equal(expected);
    expect(await chain.rpc("eth_getBalance", [to, { blockNumber: afterStore1 }])).to.equal(expected);
    expect(await chain.rpc("eth_getBalance", [to, block.hash])).to.equal(expected);
  });

  it("eth_getCode before the deployment block is 0x, after it the runtime code", async () => {
    expect(await chain.rpc("eth_getCode", [target, beforeDeploy])).to.equal("0x");
    const code = (await chain.rpc("eth_getCode", [target, deployed])) as string;
    expect(code.length).to.be.greaterThan(2);
    expect(await chain.rpc("eth_getCode", [target, "latest"])).to.equal(code);
  });

  it("eth_getStorageAt at each block sees the value stored then", async () => {
    expect(await chain.rpc("eth_getStorageAt", [target, "0x0", deployed])).to.equal(word(0));
    expect(await chain.rpc("eth_getStorageAt", [target, "0x0", afterStore1])).to.equal(word(1));
    expect(await chain.rpc("eth_getStorageAt", [target, "0x0", afterTransfer])).to.equal(word(1));
    expect(await chain.rpc("eth_getStorageAt", [target, "0x0", afterStore2])).to.equal(word(2));
  });

  it("eth_getStorageAt accepts a 32-byte slot and returns a 32-byte word", async () => {
    expect(await chain.rpc("eth_getStorageAt", [target, word(0), "latest"])).to.equal(word(2));
    expect(await chain.rpc("eth_getStorageAt", [target, word(99), "latest"])).to.equal(word(0));
  });

  it("eth_getTransactionCount at each block is the nonce then", async () => {
    const n = (tag: string) => chain.rpc("eth_getTransactionCount", [from, tag]);
    expect(await n(beforeDeploy)).to.equal("0x0");
    expect(await n(deployed)).to.equal("0x1");
    expect(await n(afterStore1)).to.equal("0x2");
    expect(await n(afterStore2)).to.equal("0x4");
    expect(await n("latest")).to.equal("0x4");
    expect(await n("pending")).to.equal("0x4");
  });

  it("eth_call at an older block runs against the old state", async () => {
    const data = harness.interface.encodeFunctionData("stored");
    expect(await chain.rpc("eth_call", [{ to: target, data }, afterStore1])).to.equal(word(1));
    expect(await chain.rpc("eth_call", [{ to: target, data }, afterStore2])).to.equal(word(2));
    expect(await chain.rpc("eth_call", [{ to: target, data }, "latest"])).to.equal(word(2));
  });

  it("eth_call at a block before the deployment sees no code and returns 0x", async () => {
    const data = harness.interface.encodeFunctionData("stored");
    expect(await chain.rpc("eth_call", [{ to: target, data }, beforeDeploy])).to.equal("0x");
  });

  it("ethers contract calls with blockTag read the old state", async () => {
    expect(await harness.stored({ blockTag: Number(afterStore1) })).to.equal(1n);
    expect(await harness.stored()).to.equal(2n);
    expect(await chain.provider.getBalance(from, 0)).to.equal(10_000n * 10n ** 18n);
  });

  it("eth_call at an older block does not change the state at that block or at the head", async () => {
    const data = harness.interface.encodeFunctionData("store", [99]);
    await chain.rpc("eth_call", [{ from, to: target, data }, afterStore1]);
    await chain.rpc("eth_call", [{ from, to: target, data }, "latest"]);
    expect(await chain.rpc("eth_getStorageAt", [target, "0x0", afterStore1])).to.equal(word(1));
    expect(await chain.rpc("eth_getStorageAt", [target, "0x0", "latest"])).to.equal(word(2));
  });

  it("reads at a block above the head fail rather than answer with the latest state", async () => {
    const above = hexq(BigInt(afterStore2) + 10n);
    for (const [method, params] of [
      ["eth_getBalance", [from, above]],
      ["eth_getCode", [target, above]],
      ["eth_getStorageAt", [target, "0x0", above]],
      ["eth_getTransactionCount", [from, above]],
      ["eth_call", [{ to: target, data: "0x" }, above]],
    ] as const) {
      let failed = false;
      try {
        await chain.rpc(method, [...params]);
      } catch (error) {
        failed = true;
        expect((error as Error).message, method).to.match(/not (known|found)/);
      }
      expect(failed, method).to.equal(true);
    }
  });
});
