/**
 * The suite benchmark's second test file: a wrapped native asset, wrapped and unwrapped
 * through the precompiles (deposit via nativeAssetCall, withdraw), with token transfers and
 * the changeAssetBalance matchers. It needs nativekit's network: Hardhat's has no precompiles.
 *
 *   npx hardhat test bench/suites/wrapped.suite.ts --network nativekit
 *
 * Every test account holds 1 000 000 units of the demo asset at genesis (hardhat.config.ts).
 * Keep WRAPPED_SUITE_TESTS in bench/suite.ts equal to the number of `it`s.
 */
import { expect } from "chai";
import hre from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";

import { unwrapTransaction, wrapTransaction } from "nativekit";
import { countTransactions } from "./counter";

const ASSET = "0x" + "a1".repeat(32);
const GENESIS_BALANCE = 1_000_000n;

async function assetBalance(address: string): Promise<bigint> {
  return BigInt((await hre.network.provider.request({ method: "eth_getAssetBalance", params: [address, "latest", ASSET] })) as string);
}

async function deployWrapper() {
  const [owner, alice, bob, carol] = await hre.ethers.getSigners();
  const wrapper = await hre.ethers.deployContract("WrappedNativeAsset", ["Wrapped Demo", "WDEMO", 6, BigInt(ASSET)]);
  await wrapper.waitForDeployment();
  return { wrapper, address: await wrapper.getAddress(), owner: owner!, alice: alice!, bob: bob!, carol: carol! };
}

/** The wrapper with 1000 wrapped by alice and 400 by bob. */
async function wrappedFixture() {
  const fixture = await deployWrapper();
  const { alice, bob, address } = fixture;
  await (await alice.sendTransaction(wrapTransaction(address, ASSET, 1000n))).wait();
  await (await bob.sendTransaction(wrapTransaction(address, ASSET, 400n))).wait();
  return fixture;
}

describe("WrappedNativeAsset (bench suite: wrap and unwrap through the precompiles)", function () {
  countTransactions("wrapped");

  describe("wrapping", () => {
    it("credits the depositor with wrapped tokens", async () => {
      const { wrapper, address, alice } = await loadFixture(deployWrapper);
      await expect(alice.sendTransaction(wrapTransaction(address, ASSET, 300n))).to.changeTokenBalance(wrapper, alice, 300n);
    });

    it("moves the asset from the depositor to the wrapper", async () => {
      const { wrapper, address, alice } = await loadFixture(deployWrapper);
      await expect(alice.sendTransaction(wrapTransaction(address, ASSET, 300n))).to.changeAssetBalances([alice, wrapper], ASSET, [-300n, 300n]);
    });

    it("emits Deposit with the depositor and the amount", async () => {
      const { wrapper, address, alice } = await loadFixture(deployWrapper);
      await expect(alice.sendTransaction(wrapTransaction(address, ASSET, 25n))).to.emit(wrapper, "Deposit").withArgs(alice.address, 25n);
    });

    it("adds up several deposits", async () => {
      const { wrapper, address, carol } = await loadFixture(deployWrapper);
      for (const amount of [1n, 10n, 100n]) await (await carol.sendTransaction(wrapTransaction(address, ASSET, amount))).wait();
      expect(await wrapper.balanceOf(carol.address)).to.equal(111n);
      expect(await assetBalance(carol.address)).to.equal(GENESIS_BALANCE - 111n);
    });

    it("keeps the supply equal to the wrapper's asset balance", async () => {
      const { wrapper, address } = await loadFixture(wrappedFixture);
      expect(await wrapper.totalSupply()).to.equal(1400n);
      expect(await assetBalance(address)).to.equal(1400n);
    });

    it("refuses to wrap more than the depositor holds", async () => {
      const { address, alice } = await loadFixture(deployWrapper);
      // The precompile fails the call itself (no revert data), so this is a rejection, not a revert.
      await expect(alice.sendTransaction(wrapTransaction(address, ASSET, GENESIS_BALANCE + 1n))).to.be.rejectedWith(/insufficient balance/);
    });
  });

  describe("unwrapping", () => {
    it("emits Withdrawal and returns the asset", async () => {
      const { wrapper, alice } = await loadFixture(wrappedFixture);
      await expect(wrapper.connect(alice).withdraw(100n))
        .to.emit(wrapper, "Withdrawal")
        .withArgs(alice.address, 100n)
        .and.to.changeAssetBalance(alice, ASSET, 100n);
    });

    it("burns the withdrawn tokens", async () => {
      const { wrapper, alice } = await loadFixture(wrappedFixture);
      await expect(wrapper.connect(alice).withdraw(250n)).to.changeTokenBalance(wrapper, alice, -250n);
      expect(await wrapper.totalSupply()).to.equal(1150n);
    });

    it("takes the asset out of the wrapper", async () => {
      const { wrapper, bob } = await loadFixture(wrappedFixture);
      await expect(wrapper.connect(bob).withdraw(400n)).to.changeAssetBalances([wrapper, bob], ASSET, [-400n, 400n]);
    });

    it("unwraps through the flow's own transaction", async () => {
      const { address, alice } = await loadFixture(wrappedFixture);
      await expect(alice.sendTransaction(unwrapTransaction(address, 1000n))).to.changeAssetBalance(alice, ASSET, 1000n);
      expect(await assetBalance(alice.address)).to.equal(GENESIS_BALANCE);
    });

    it("refuses to unwrap more than held", async () => {
      const { wrapper, bob } = await loadFixture(wrappedFixture);
      await expect(wrapper.connect(bob).withdraw(401n)).to.be.revertedWith("Insufficient funds for withdrawal");
    });

    it("refuses to unwrap without wrapped tokens", async () => {
      const { wrapper, carol } = await loadFixture(wrappedFixture);
      await expect(wrapper.connect(carol).withdraw(1n)).to.be.revertedWith("Insufficient funds for withdrawal");
    });
  });

  describe("wrapped tokens as an ERC-20", () => {
    it("transfers between holders", async () => {
      const { wrapper, alice, carol } = await loadFixture(wrappedFixture);
      await expect(wrapper.connect(alice).transfer(carol.address, 70n)).to.changeTokenBalances(wrapper, [alice, carol], [-70n, 70n]);
    });

    it("lets the receiver of a transfer unwrap it", async () => {
      const { wrapper, alice, carol } = await loadFixture(wrappedFixture);
      await (await wrapper.connect(alice).transfer(carol.address, 70n)).wait();
      await expect(wrapper.connect(carol).withdraw(70n)).to.changeAssetBalance(carol, ASSET, 70n);
    });

    it("moves tokens with an allowance", async () => {
      const { wrapper, alice, bob, carol } = await loadFixture(wrappedFixture);
      await (await wrapper.connect(alice).approve(bob.address, 50n)).wait();
      await expect(wrapper.connect(bob).transferFrom(alice.address, carol.address, 50n)).to.changeTokenBalances(wrapper, [alice, carol], [-50n, 50n]);
    });

    it("leaves asset balances alone on a token transfer", async () => {
      const { wrapper, alice, carol } = await loadFixture(wrappedFixture);
      await expect(wrapper.connect(alice).transfer(carol.address, 5n)).to.changeAssetBalances([alice, carol, wrapper], ASSET, [0n, 0n, 0n]);
    });

    it("round-trips everything back to the genesis balances", async () => {
      const { wrapper, address, alice, bob } = await loadFixture(wrappedFixture);
      await (await wrapper.connect(alice).withdraw(1000n)).wait();
      await (await bob.sendTransaction(unwrapTransaction(address, 400n))).wait();
      expect(await wrapper.totalSupply()).to.equal(0n);
      expect(await assetBalance(address)).to.equal(0n);
      expect(await assetBalance(alice.address)).to.equal(GENESIS_BALANCE);
      expect(await assetBalance(bob.address)).to.equal(GENESIS_BALANCE);
    });
  });
});
