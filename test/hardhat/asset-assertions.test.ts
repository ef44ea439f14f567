import { AssertionError } from "node:assert";
import { expect } from "chai";
import hre from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { assetIdToCb58, encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding";
import { assertAssetBalanceChanges } from "../../src/hardhat/asset-assertions";

/** An asset no account holds at genesis, funded by the fixture. */
const ASSET = "0x" + "e5".repeat(32);
const FUNDS = 1_000n;

async function fundedAccountsFixture() {
  const [alice, bob, carol] = await hre.ethers.getSigners();
  await hre.network.provider.send("nativekit_setAssetBalance", [alice!.address, ASSET, "0x" + FUNDS.toString(16)]);
  await hre.network.provider.send("evm_mine", []);
  return { alice: alice!, bob: bob!, carol: carol! };
}

/** A nativeAssetCall that moves `amount` of the asset to `to` (no call data). */
function assetTransfer(to: string, amount: bigint) {
  return { to: NATIVE_ASSET_CALL_ADDRESS, data: encodeNativeAssetCallInput({ to, assetId: ASSET, amount, callData: "0x" }) };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("the assertion should have failed");
}

describe("assertAssetBalanceChanges", () => {
  const client = () => hre.network.provider;

  it("passes when each account's balance changed by the expected amount", async () => {
    const { alice, bob } = await loadFixture(fundedAccountsFixture);
    const tx = await alice.sendTransaction(assetTransfer(bob.address, 30n));
    await assertAssetBalanceChanges(client(), tx.hash, ASSET, [
      { address: alice.address, amount: -30n },
      { address: bob.address, amount: 30n },
    ]);
  });

  it("takes a promise of the hash or a function returning one, and the asset ID as cb58 or bigint", async () => {
    const { alice, bob } = await loadFixture(fundedAccountsFixture);
    await assertAssetBalanceChanges(client(), alice.sendTransaction(assetTransfer(bob.address, 5n)).then((tx) => tx.hash), assetIdToCb58(ASSET), [{ address: bob.address, amount: 5n }]);
    await assertAssetBalanceChanges(client(), async () => (await alice.sendTransaction(assetTransfer(bob.address, 6n))).hash, BigInt(ASSET), [{ address: alice.address, amount: -6n }]);
  });

  it("counts an account the transaction did not touch as unchanged", async () => {
    const { alice, bob, carol } = await loadFixture(fundedAccountsFixture);
    const tx = await alice.sendTransaction(assetTransfer(bob.address, 7n));
    await assertAssetBalanceChanges(client(), tx.hash, ASSET, [{ address: carol.address, amount: 0n }]);
    const error = await rejection(assertAssetBalanceChanges(client(), tx.hash, ASSET, [{ address: carol.address, amount: 7n }]));
    expect(error).to.be.instanceOf(AssertionError);
  });

  it("throws node's AssertionError naming the expected and actual changes when one is wrong", async () => {
    const { alice, bob } = await loadFixture(fundedAccountsFixture);
    const tx = await alice.sendTransaction(assetTransfer(bob.address, 30n));
    const error = await rejection(
      assertAssetBalanceChanges(client(), tx.hash, ASSET, [
        { address: alice.address, amount: -30n },
        { address: bob.address, amount: 31n },
      ]),
    );
    expect(error).to.be.instanceOf(AssertionError);
    expect(error.message).to.equal(
      `Expected the balances of asset ${assetIdToCb58(ASSET)} to change by ${alice.address}: -30, ${bob.address}: 31, but they changed by ${alice.address}: -30, ${bob.address}: 30`,
    );
    const assertion = error as AssertionError;
    expect(assertion.operator).to.equal("assertAssetBalanceChanges");
    expect(assertion.actual).to.deep.equal([
      { address: alice.address, amount: "-30" },
      { address: bob.address, amount: "30" },
    ]);
    expect(assertion.expected).to.deep.equal([
      { address: alice.address, amount: "-30" },
      { address: bob.address, amount: "31" },
    ]);
  });

  it("refuses something that is not a transaction hash with a TypeError", async () => {
    const { alice } = await loadFixture(fundedAccountsFixture);
    const error = await rejection(assertAssetBalanceChanges(client(), "0x1234", ASSET, [{ address: alice.address, amount: 0n }]));
    expect(error).to.be.instanceOf(TypeError);
    expect(error.message).to.equal("assertAssetBalanceChanges expects a transaction hash (or a promise of one), got 0x1234");
    const response = await alice.sendTransaction(assetTransfer(alice.address, 1n));
    const fromResponse = await rejection(assertAssetBalanceChanges(client(), Promise.resolve(response as unknown as string), ASSET, []));
    expect(fromResponse).to.be.instanceOf(TypeError);
  });

  it("refuses a transaction that has no receipt", async () => {
    const unknown = "0x" + "00".repeat(32);
    const error = await rejection(assertAssetBalanceChanges(client(), unknown, ASSET, []));
    expect(error).not.to.be.instanceOf(AssertionError);
    expect(error.message).to.equal(`transaction ${unknown} has no receipt: mine its block first (automine is off?)`);
  });

  it("refuses a transaction that shares its block with another", async () => {
    const { alice, bob } = await loadFixture(fundedAccountsFixture);
    await hre.network.provider.send("evm_setAutomine", [false]);
    let first: string;
    try {
      // Without a gas limit each would claim the whole block (the network's `gas` is the block gas limit).
      first = (await alice.sendTransaction({ ...assetTransfer(bob.address, 1n), gasLimit: 100_000 })).hash;
      await alice.sendTransaction({ ...assetTransfer(bob.address, 2n), gasLimit: 100_000 });
      await hre.network.provider.send("evm_mine", []);
    } finally {
      await hre.network.provider.send("evm_setAutomine", [true]);
    }
    const block = await hre.ethers.provider.getBlockNumber();
    const error = await rejection(assertAssetBalanceChanges(client(), first, ASSET, [{ address: bob.address, amount: 1n }]));
    expect(error).not.to.be.instanceOf(AssertionError);
    expect(error.message).to.equal(`assertAssetBalanceChanges needs the transaction alone in its block, but block ${block} has 2`);
  });
});
