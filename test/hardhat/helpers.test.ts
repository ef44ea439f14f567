import { expect } from "chai";
import hre from "hardhat";
import {
  impersonateAccount,
  loadFixture,
  mine,
  setBalance,
  setCode,
  setStorageAt,
  stopImpersonatingAccount,
  takeSnapshot,
  time,
} from "@nomicfoundation/hardhat-network-helpers";
import { assetBalance, deployWrapperFixture, wrapRequest } from "./fixtures";

describe("Hardhat network helpers on the nativekit network", () => {
  it("loadFixture deploys once and restores the same state each time", async () => {
    const first = await loadFixture(deployWrapperFixture);
    await (await first.alice.sendTransaction(wrapRequest(await first.wrapper.getAddress(), 10n))).wait();
    const second = await loadFixture(deployWrapperFixture);
    expect(await second.wrapper.getAddress()).to.equal(await first.wrapper.getAddress());
    expect(await second.wrapper.totalSupply()).to.equal(0n);
  });

  it("time.increase moves the next block's timestamp forward", async () => {
    const before = await time.latest();
    await time.increase(3600);
    expect(await time.latest()).to.equal(before + 3600);
  });

  it("time.increaseTo and time.setNextBlockTimestamp set exact timestamps", async () => {
    const target = (await time.latest()) + 10_000;
    await time.increaseTo(target);
    expect(await time.latest()).to.equal(target);
    await time.setNextBlockTimestamp(target + 5);
    await mine();
    expect(await time.latest()).to.equal(target + 5);
  });

  it("mine(n) mines n blocks", async () => {
    const before = await hre.ethers.provider.getBlockNumber();
    await mine(5);
    expect(await hre.ethers.provider.getBlockNumber()).to.equal(before + 5);
  });

  it("impersonateAccount lets a test send from an address without its key", async () => {
    const stranger = "0x000000000000000000000000000000000000bEEF";
    await setBalance(stranger, 10n ** 18n);
    await impersonateAccount(stranger);
    const signer = await hre.ethers.getSigner(stranger);
    const [target] = await hre.ethers.getSigners();
    const before = await hre.ethers.provider.getBalance(target!.address);
    await (await signer.sendTransaction({ to: target!.address, value: 1000n })).wait();
    expect(await hre.ethers.provider.getBalance(target!.address)).to.equal(before + 1000n);
    await stopImpersonatingAccount(stranger);
  });

  it("setBalance, setCode and setStorageAt change the state at once", async () => {
    const address = "0x00000000000000000000000000000000000c0de1";
    await setBalance(address, 123n);
    expect(await hre.ethers.provider.getBalance(address)).to.equal(123n);
    await setCode(address, "0x6001600101");
    expect(await hre.ethers.provider.getCode(address)).to.equal("0x6001600101");
    await setStorageAt(address, 7, 42);
    expect(BigInt(await hre.ethers.provider.getStorage(address, 7))).to.equal(42n);
  });

  it("takeSnapshot restores native-coin and asset balances alike", async () => {
    const { alice, wrapper } = await loadFixture(deployWrapperFixture);
    const snapshot = await takeSnapshot();
    const assetBefore = await assetBalance(alice.address);
    await (await alice.sendTransaction(wrapRequest(await wrapper.getAddress(), 500n))).wait();
    expect(await assetBalance(alice.address)).to.equal(assetBefore - 500n);
    await snapshot.restore();
    expect(await assetBalance(alice.address)).to.equal(assetBefore);
    expect(await wrapper.balanceOf(alice.address)).to.equal(0n);
  });
});

describe("more network helpers on the nativekit network", () => {
  it("setBlockGasLimit changes the gas limit of the next blocks", async () => {
    const { setBlockGasLimit } = await import("@nomicfoundation/hardhat-network-helpers");
    await setBlockGasLimit(20_000_000);
    await mine();
    expect((await hre.ethers.provider.getBlock("latest"))!.gasLimit).to.equal(20_000_000n);
    await setBlockGasLimit(15_000_000);
  });

  it("setCoinbase and setPrevRandao set the next block's fields", async () => {
    const { setCoinbase, setPrevRandao } = await import("@nomicfoundation/hardhat-network-helpers");
    await setCoinbase("0x000000000000000000000000000000000000c0c0");
    await setPrevRandao(12345);
    await mine();
    const block = await hre.network.provider.send("eth_getBlockByNumber", ["latest", false]);
    expect(block.miner).to.equal("0x000000000000000000000000000000000000c0c0");
    expect(BigInt(block.mixHash)).to.equal(12345n);
    await setCoinbase("0x0100000000000000000000000000000000000000");
  });

  it("reset to a fork of an unreachable remote fails naming the remote, and leaves the chain as it was", async () => {
    const { reset } = await import("@nomicfoundation/hardhat-network-helpers");
    const before = await hre.network.provider.request({ method: "eth_blockNumber" });
    try {
      await reset("http://127.0.0.1:1");
      expect.fail("reset with forking should fail");
    } catch (error) {
      expect((error as Error).message).to.match(/fork remote http:\/\/127\.0\.0\.1:1\/ \(eth_chainId\): fetch failed/);
    }
    expect(await hre.network.provider.request({ method: "eth_blockNumber" })).to.equal(before);
  });

  it("setNextBlockBaseFeePerGas sets the next block's base fee", async () => {
    const { setNextBlockBaseFeePerGas } = await import("@nomicfoundation/hardhat-network-helpers");
    await setNextBlockBaseFeePerGas(30_000_000_000n);
    await mine();
    expect((await hre.ethers.provider.getBlock("latest"))!.baseFeePerGas).to.equal(30_000_000_000n);
  });
});
