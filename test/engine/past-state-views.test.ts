import { expect } from "chai";

import { NativeAssetsHarness__factory, RpcHarness__factory, type NativeAssetsHarness, type RpcHarness } from "../../typechain-types";
import { startChain, testAssetId, type TestChain } from "../helpers/chain";

const hexq = (n: bigint | number) => "0x" + n.toString(16);
const ASSET = testAssetId(0x77);

/**
 * The engine keeps one state view of a past block, with its VM, and moves it from block to block
 * (ChainState.pastView) so that calls on the block before the head (changeTokenBalance makes
 * them after each transaction) cost about as much as calls on the head. A kept or moved view must
 * answer exactly as a fresh one would.
 */
describe("calls on past blocks through kept state views", () => {
  let chain: TestChain;
  let harness: RpcHarness;
  let address: string;

  const height = async () => BigInt((await chain.rpc("eth_blockNumber")) as string);
  const storedAt = async (block: bigint | string) =>
    BigInt((await chain.rpc("eth_call", [{ to: address, data: harness.interface.encodeFunctionData("stored") }, typeof block === "string" ? block : hexq(block)])) as string);

  beforeEach(async () => {
    chain = await startChain();
    harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await harness.waitForDeployment();
    address = await harness.getAddress();
  });

  it("repeated calls on a past block keep answering that block's state while new blocks are mined", async () => {
    await (await harness.store(1)).wait();
    const one = await height();
    await (await harness.store(2)).wait();
    expect(await storedAt(one)).to.equal(1n);
    await (await harness.store(3)).wait();
    expect(await storedAt(one)).to.equal(1n);
    expect(await storedAt(one + 1n)).to.equal(2n);
    expect(await storedAt("latest")).to.equal(3n);
    expect(await storedAt(one)).to.equal(1n);
  });

  it("a call that writes on a past block leaves nothing behind for the next call there", async () => {
    await (await harness.store(5)).wait();
    const five = await height();
    await (await harness.store(6)).wait();
    const write = { to: address, data: harness.interface.encodeFunctionData("store", [42n]) };
    await chain.rpc("eth_call", [write, hexq(five)]);
    await chain.rpc("eth_estimateGas", [write, hexq(five)]);
    expect(await storedAt(five)).to.equal(5n);
  });

  it("past blocks read in turn, the view moving between them, each answer their own state", async () => {
    const heights: bigint[] = [];
    for (let v = 1; v <= 7; v++) {
      await (await harness.store(v)).wait();
      heights.push(await height());
    }
    await (await harness.store(100)).wait();
    for (let round = 0; round < 2; round++) {
      for (const [i, h] of heights.entries()) expect(await storedAt(h)).to.equal(BigInt(i + 1));
    }
  });

  it("a height mined again after evm_revert answers from its new block", async () => {
    await (await harness.store(1)).wait();
    const snapshot = await chain.rpc("evm_snapshot");
    await (await harness.store(2)).wait();
    const two = await height();
    await (await harness.store(3)).wait();
    expect(await storedAt(two)).to.equal(2n);
    await chain.rpc("evm_revert", [snapshot]);
    await (await harness.store(20)).wait();
    await (await harness.store(30)).wait();
    expect(await height()).to.equal(two + 1n);
    expect(await storedAt(two)).to.equal(20n);
  });

  it("after hardhat_reset no view of the old chain answers", async () => {
    await (await harness.store(9)).wait();
    const nine = await height();
    await (await harness.store(10)).wait();
    expect(await storedAt(nine)).to.equal(9n);
    await chain.rpc("hardhat_reset");
    expect(await chain.rpc("eth_getCode", [address, "latest"])).to.equal("0x");
    expect(await chain.rpc("eth_call", [{ to: address, data: harness.interface.encodeFunctionData("stored") }, "latest"])).to.equal("0x");
  });

  it("storage, balances and code read at alternating past blocks are each block's", async () => {
    const holder = chain.signers[2]!.address;
    await chain.rpc("hardhat_setBalance", [holder, hexq(111)]);
    await (await harness.store(1)).wait();
    const first = await height();
    await chain.rpc("hardhat_setBalance", [holder, hexq(222)]);
    await (await harness.store(2)).wait();
    const second = await height();
    await (await harness.store(3)).wait();
    for (let round = 0; round < 2; round++) {
      for (const [block, stored, balance] of [[first, 1n, 111n], [second, 2n, 222n]] as const) {
        expect(await storedAt(block)).to.equal(stored);
        expect(BigInt((await chain.rpc("eth_getBalance", [holder, hexq(block)])) as string)).to.equal(balance);
        expect(await chain.rpc("eth_getCode", [address, hexq(block)])).to.not.equal("0x");
      }
    }
    expect(await chain.rpc("eth_getCode", [address, hexq(first - 2n)])).to.equal("0x");
  });

  describe("native asset balances", () => {
    let assets: NativeAssetsHarness;
    let holder: string;
    const balanceAt = async (block: bigint) =>
      BigInt((await chain.rpc("eth_call", [{ to: await assets.getAddress(), data: assets.interface.encodeFunctionData("assetBalance", [holder, BigInt(ASSET)]) }, hexq(block)])) as string);

    beforeEach(async () => {
      assets = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
      await assets.waitForDeployment();
      holder = chain.signers[3]!.address;
    });

    it("a block whose balances were edited after evm_revert made it the head again is read with the edited balances", async () => {
      await chain.rpc("nativekit_setAssetBalance", [holder, ASSET, hexq(100)]);
      await chain.rpc("evm_mine");
      const a = await height();
      const snapshot = await chain.rpc("evm_snapshot");
      await chain.rpc("evm_mine");
      expect(await balanceAt(a)).to.equal(100n);
      await chain.rpc("evm_revert", [snapshot]);
      expect(await height()).to.equal(a);
      await chain.rpc("nativekit_setAssetBalance", [holder, ASSET, hexq(250)]);
      await chain.rpc("evm_mine");
      expect(await chain.rpc("eth_getAssetBalance", [holder, hexq(a), ASSET])).to.equal(hexq(250));
      expect(await balanceAt(a)).to.equal(250n);
    });

    it("alternating past blocks each answer their own asset balances", async () => {
      // Each edit is mined past (an edit at the head is recorded on the head block itself).
      await chain.rpc("nativekit_setAssetBalance", [holder, ASSET, hexq(7)]);
      await chain.rpc("evm_mine");
      const seven = await height();
      await chain.rpc("evm_mine");
      await chain.rpc("nativekit_setAssetBalance", [holder, ASSET, hexq(8)]);
      await chain.rpc("evm_mine");
      const eight = await height();
      await chain.rpc("evm_mine");
      for (let round = 0; round < 2; round++) {
        expect(await balanceAt(seven)).to.equal(7n);
        expect(await balanceAt(eight)).to.equal(8n);
      }
    });
  });
});
