import { expect } from "chai";
import hre from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { DEMO_ASSET, deployWrapperFixture, wrapRequest } from "./fixtures";
import { assetIdToCb58 } from "../../src/encoding";

describe("chai matchers on the nativekit network", () => {
  it("emit/withArgs sees the wrapper's Deposit event with the original sender", async () => {
    const { alice, wrapper } = await loadFixture(deployWrapperFixture);
    await expect(alice.sendTransaction(wrapRequest(await wrapper.getAddress(), 25n)))
      .to.emit(wrapper, "Deposit")
      .withArgs(alice.address, 25n);
  });

  it("revertedWith decodes the wrapper's reason string", async () => {
    const { alice, wrapper } = await loadFixture(deployWrapperFixture);
    await expect(wrapper.connect(alice).withdraw(1n)).to.be.revertedWith("Insufficient funds for withdrawal");
  });

  it("revertedWithCustomError decodes a custom error, also through nativeAssetCall", async () => {
    const { harness, recorder } = await loadFixture(deployWrapperFixture);
    const callData = recorder.interface.encodeFunctionData("failCustom");
    await expect(harness.assetCall(await recorder.getAddress(), BigInt(DEMO_ASSET), 0n, callData))
      .to.be.revertedWithCustomError(recorder, "RecorderFailure")
      .withArgs(7n);
  });

  it("revertedWith works for a transaction sent with an explicit gas limit", async () => {
    const { alice, wrapper } = await loadFixture(deployWrapperFixture);
    await expect(wrapper.connect(alice).withdraw(1n, { gasLimit: 200_000 })).to.be.revertedWith("Insufficient funds for withdrawal");
  });

  it("changeEtherBalance(s) measure native-coin transfers", async () => {
    const { alice, bob } = await loadFixture(deployWrapperFixture);
    await expect(alice.sendTransaction({ to: bob.address, value: 1000n })).to.changeEtherBalance(bob, 1000n);
    await expect(alice.sendTransaction({ to: bob.address, value: 7n })).to.changeEtherBalances([alice, bob], [-7n, 7n], { includeFee: false });
  });

  it("changeTokenBalance(s) measure wrapped-token transfers", async () => {
    const { alice, bob, wrapper } = await loadFixture(deployWrapperFixture);
    await (await alice.sendTransaction(wrapRequest(await wrapper.getAddress(), 100n))).wait();
    await expect(wrapper.connect(alice).transfer(bob.address, 30n)).to.changeTokenBalance(wrapper, bob, 30n);
    await expect(wrapper.connect(alice).transfer(bob.address, 5n)).to.changeTokenBalances(wrapper, [alice, bob], [-5n, 5n]);
  });

  it("changeAssetBalance measures a native-asset balance change", async () => {
    const { alice, wrapper } = await loadFixture(deployWrapperFixture);
    await expect(alice.sendTransaction(wrapRequest(await wrapper.getAddress(), 40n))).to.changeAssetBalance(alice, DEMO_ASSET, -40n);
    await expect(wrapper.connect(alice).withdraw(15n)).to.changeAssetBalance(alice, assetIdToCb58(DEMO_ASSET), 15n);
  });

  it("changeAssetBalances measures several accounts at once, and fails with a clear message when wrong", async () => {
    const { alice, wrapper } = await loadFixture(deployWrapperFixture);
    const wrapperAddress = await wrapper.getAddress();
    await expect(alice.sendTransaction(wrapRequest(wrapperAddress, 60n))).to.changeAssetBalances([alice, wrapperAddress], DEMO_ASSET, [-60n, 60n]);
    let message = "";
    try {
      await expect(wrapper.connect(alice).withdraw(10n)).to.changeAssetBalances([alice, wrapperAddress], DEMO_ASSET, [10n, 0n]);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).to.match(/to change by 10, 0, respectively, but they changed by 10, -10/);
  });

  it("changeAssetBalance supports negation", async () => {
    const { alice, bob } = await loadFixture(deployWrapperFixture);
    await expect(alice.sendTransaction({ to: bob.address, value: 1n })).not.to.changeAssetBalance(alice, DEMO_ASSET, -1n);
    void hre;
  });
});
