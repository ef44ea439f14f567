import { expect } from "chai";
import hre from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { DEMO_ASSET, deployWrapperFixture, wrapRequest } from "./fixtures";
import { assetIdToCb58 } from "../../src/encoding";

async function failureMessage(assertion: Promise<void>): Promise<string> {
  try {
    await assertion;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the assertion should have failed");
}

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

  describe("with Hardhat 3's ethers first", () => {
    it("changeAssetBalance(ethers, account, asset, delta) measures a native-asset balance change", async () => {
      const { alice, wrapper } = await loadFixture(deployWrapperFixture);
      await expect(alice.sendTransaction(wrapRequest(await wrapper.getAddress(), 40n))).to.changeAssetBalance(hre.ethers, alice, DEMO_ASSET, -40n);
      await expect(wrapper.connect(alice).withdraw(15n)).to.changeAssetBalance(hre.ethers, alice.address, assetIdToCb58(DEMO_ASSET), 15n);
    });

    it("changeAssetBalance(ethers, ...) fails naming the expected and the actual change", async () => {
      const { alice, wrapper } = await loadFixture(deployWrapperFixture);
      const message = await failureMessage(expect(alice.sendTransaction(wrapRequest(await wrapper.getAddress(), 40n))).to.changeAssetBalance(hre.ethers, alice, DEMO_ASSET, -41n));
      expect(message).to.equal(`Expected the balance of asset ${assetIdToCb58(DEMO_ASSET)} for ${alice.address} to change by -41, but it changed by -40`);
    });

    it("changeAssetBalance(ethers, ...) takes a predicate and supports negation", async () => {
      const { alice, bob, wrapper } = await loadFixture(deployWrapperFixture);
      await expect(alice.sendTransaction(wrapRequest(await wrapper.getAddress(), 8n))).to.changeAssetBalance(hre.ethers, alice, DEMO_ASSET, (change) => change === -8n);
      await expect(alice.sendTransaction({ to: bob.address, value: 1n })).not.to.changeAssetBalance(hre.ethers, alice, DEMO_ASSET, -1n);
      const message = await failureMessage(expect(alice.sendTransaction({ to: bob.address, value: 1n })).not.to.changeAssetBalance(hre.ethers, alice, DEMO_ASSET, 0n));
      expect(message).to.match(/NOT to change by 0, but it did/);
    });

    it("changeAssetBalances(ethers, accounts, asset, deltas) measures several accounts, and fails with a clear message when wrong", async () => {
      const { alice, wrapper } = await loadFixture(deployWrapperFixture);
      const wrapperAddress = await wrapper.getAddress();
      await expect(alice.sendTransaction(wrapRequest(wrapperAddress, 60n))).to.changeAssetBalances(hre.ethers, [alice, wrapperAddress], DEMO_ASSET, [-60n, 60n]);
      const message = await failureMessage(expect(wrapper.connect(alice).withdraw(10n)).to.changeAssetBalances(hre.ethers, [alice, wrapperAddress], DEMO_ASSET, [10n, 0n]));
      expect(message).to.equal(`Expected the balances of asset ${assetIdToCb58(DEMO_ASSET)} for ${alice.address}, ${wrapperAddress} to change by 10, 0, respectively, but they changed by 10, -10`);
    });

    it("changeAssetBalances(ethers, ...) refuses a number of deltas unlike the number of accounts (ethers not counted)", async () => {
      const { alice, bob } = await loadFixture(deployWrapperFixture);
      const tx = alice.sendTransaction({ to: bob.address, value: 1n });
      expect(() => expect(tx).to.changeAssetBalances(hre.ethers, [alice, bob], DEMO_ASSET, [1n])).to.throw(
        "The number of accounts (2) is different from the number of expected balance changes (1)",
      );
      await tx;
    });

    it("reads the balances through the provider of the ethers it is given", async () => {
      const { alice, wrapper } = await loadFixture(deployWrapperFixture);
      const methods: string[] = [];
      const connectionEthers = {
        getSigners: () => hre.ethers.getSigners(),
        provider: {
          send: (method: string, params: unknown[]) => {
            methods.push(method);
            return hre.ethers.provider.send(method, params);
          },
        },
      };
      await expect(alice.sendTransaction(wrapRequest(await wrapper.getAddress(), 5n))).to.changeAssetBalance(connectionEthers, alice, DEMO_ASSET, -5n);
      expect(methods).to.deep.equal(["eth_getBlockByHash", "eth_getAssetBalance", "eth_getAssetBalance"]);
    });
  });
});
