import { expect } from "chai";
import hre from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { DEMO_ASSET, deployWrapperFixture, wrapRequest } from "./fixtures";

describe("WrappedNativeAsset on the default network (Hardhat style)", () => {
  it("wrapping through nativeAssetCall credits the sender, not the precompile or the wrapper", async () => {
    const { alice, wrapper } = await loadFixture(deployWrapperFixture);
    await expect(alice.sendTransaction(wrapRequest(await wrapper.getAddress(), 300n)))
      .to.changeTokenBalance(wrapper, alice, 300n)
      .and.to.changeAssetBalances([alice, wrapper], DEMO_ASSET, [-300n, 300n]);
  });

  it("withdraw burns, sends the asset back and emits Withdrawal", async () => {
    const { alice, wrapper } = await loadFixture(deployWrapperFixture);
    await (await alice.sendTransaction(wrapRequest(await wrapper.getAddress(), 300n))).wait();
    await expect(wrapper.connect(alice).withdraw(100n))
      .to.emit(wrapper, "Withdrawal")
      .withArgs(alice.address, 100n)
      .and.to.changeAssetBalance(alice, DEMO_ASSET, 100n);
    expect(await wrapper.totalSupply()).to.equal(200n);
  });

  it("a contract that calls nativeAssetCall with call data is the msg.sender its callee sees", async () => {
    const { harness, recorder } = await loadFixture(deployWrapperFixture);
    const harnessAddress = await harness.getAddress();
    await hre.network.provider.send("nativekit_setAssetBalance", [harnessAddress, DEMO_ASSET, "0x64"]);
    const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(DEMO_ASSET)]);
    await expect(harness.assetCall(await recorder.getAddress(), BigInt(DEMO_ASSET), 64n, callData))
      .to.emit(recorder, "Recorded")
      .withArgs(harnessAddress, 0n, 64n);
  });

  it("a contract can wrap for itself: the wrapper credits the contract", async () => {
    const { harness, wrapper } = await loadFixture(deployWrapperFixture);
    const harnessAddress = await harness.getAddress();
    await hre.network.provider.send("nativekit_setAssetBalance", [harnessAddress, DEMO_ASSET, "0x32"]);
    await expect(harness.deposit(await wrapper.getAddress(), 50n)).to.changeTokenBalance(wrapper, harnessAddress, 50n);
  });

  it("a failing inner call surfaces the callee's reason through the library", async () => {
    const { harness, recorder } = await loadFixture(deployWrapperFixture);
    const callData = recorder.interface.encodeFunctionData("fail", ["inner says no"]);
    await expect(harness.assetCall(await recorder.getAddress(), BigInt(DEMO_ASSET), 0n, callData)).to.be.revertedWith("inner says no");
  });

  it("sending more than the contract holds fails with NativeAssetCallFailed", async () => {
    const { harness, recorder, wrapper } = await loadFixture(deployWrapperFixture);
    await expect(harness.assetCall(await recorder.getAddress(), BigInt(DEMO_ASSET), 1n, "0x"))
      .to.be.revertedWithCustomError(wrapper, "NativeAssetCallFailed")
      .withArgs(await recorder.getAddress(), BigInt(DEMO_ASSET), 1n);
  });
});
