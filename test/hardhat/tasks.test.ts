import { expect } from "chai";
import hre from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { assetIdToCb58 } from "../../src/encoding";
import { assetBalance, DEMO_ASSET, deployWrapperFixture } from "./fixtures";

/** Runs a task and returns what it printed along with its result. */
async function runTask<T>(name: string, args: Record<string, unknown>): Promise<{ result: T; output: string[] }> {
  const output: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => output.push(parts.join(" "));
  try {
    return { result: (await hre.run(name, args)) as T, output };
  } finally {
    console.log = original;
  }
}

async function taskError(name: string, args: Record<string, unknown>): Promise<string> {
  try {
    await runTask(name, args);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${name} should have failed`);
}

describe("nativekit:* tasks", () => {
  it("nativekit:balance prints an account's asset balance, asset given as cb58", async () => {
    const [owner] = await hre.ethers.getSigners();
    const { result, output } = await runTask<bigint>("nativekit:balance", { account: owner!.address, asset: assetIdToCb58(DEMO_ASSET), block: "latest" });
    expect(result).to.equal(await assetBalance(owner!.address));
    expect(output[0]).to.contain(owner!.address).and.to.contain(assetIdToCb58(DEMO_ASSET));
  });

  it("nativekit:balance rejects a cb58 asset ID with a bad checksum", async () => {
    const [owner] = await hre.ethers.getSigners();
    const cb58 = assetIdToCb58(DEMO_ASSET);
    const broken = cb58.slice(0, -2) + (cb58.endsWith("11") ? "22" : "11");
    expect(await taskError("nativekit:balance", { account: owner!.address, asset: broken, block: "latest" })).to.match(/--asset: .*checksum/);
  });

  it("nativekit:balance rejects a malformed address", async () => {
    expect(await taskError("nativekit:balance", { account: "0x1234", asset: DEMO_ASSET, block: "latest" })).to.match(/--account: "0x1234" is not an address/);
  });

  it("nativekit:deploy-wrapper deploys a wrapper for the asset and says what to do next", async () => {
    const { result, output } = await runTask<string>("nativekit:deploy-wrapper", { asset: DEMO_ASSET, name: "Wrapped", symbol: "WRP", decimals: 6 });
    const wrapper = await hre.ethers.getContractAt("WrappedNativeAsset", result);
    expect(await wrapper.assetID()).to.equal(BigInt(DEMO_ASSET));
    expect(output.join("\n")).to.contain("nativekit:wrap --wrapper " + result);
  });

  it("nativekit:wrap wraps in one transaction and prints the hash and new balances", async () => {
    const { wrapper, alice } = await loadFixture(deployWrapperFixture);
    const before = await assetBalance(alice.address);
    const { result, output } = await runTask<string>("nativekit:wrap", { wrapper: await wrapper.getAddress(), amount: "1500", from: "1" });
    expect(await wrapper.balanceOf(alice.address)).to.equal(1500n);
    expect(await assetBalance(alice.address)).to.equal(before - 1500n);
    expect(output[0]).to.contain(result);
    expect(output[1]).to.contain("wrapped balance 1500");
  });

  it("nativekit:wrap refuses an amount above the asset balance before sending anything", async () => {
    const { wrapper, alice } = await loadFixture(deployWrapperFixture);
    const blockBefore = await hre.ethers.provider.getBlockNumber();
    const message = await taskError("nativekit:wrap", { wrapper: await wrapper.getAddress(), amount: "1000000000", from: alice.address });
    expect(message).to.match(/--amount 1000000000 is more than .* holds/);
    expect(await hre.ethers.provider.getBlockNumber()).to.equal(blockBefore);
  });

  it("nativekit:wrap refuses a non-numeric amount and an address without a wrapper", async () => {
    const { wrapper } = await loadFixture(deployWrapperFixture);
    expect(await taskError("nativekit:wrap", { wrapper: await wrapper.getAddress(), amount: "1.5" })).to.match(/not a whole number/);
    expect(await taskError("nativekit:wrap", { wrapper: "0x000000000000000000000000000000000000dEaD", amount: "1" })).to.match(/no contract at/);
  });

  it("nativekit:unwrap withdraws and refuses more than the wrapped balance", async () => {
    const { wrapper, alice } = await loadFixture(deployWrapperFixture);
    const address = await wrapper.getAddress();
    await runTask("nativekit:wrap", { wrapper: address, amount: "100", from: "1" });
    expect(await taskError("nativekit:unwrap", { wrapper: address, amount: "101", from: "1" })).to.match(/more than the 100 WDEMO/);
    await runTask("nativekit:unwrap", { wrapper: address, amount: "40", from: "1" });
    expect(await wrapper.balanceOf(alice.address)).to.equal(60n);
  });
});
