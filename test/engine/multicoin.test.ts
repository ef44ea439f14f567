import { expect } from "chai";
import { Wallet, ZeroHash } from "ethers";
import { assetIdToCb58, encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding";
import { NativeAssetsHarness__factory } from "../../typechain-types";
import { rejection, startChain, testAssetId, type TestChain } from "../helpers/chain";

const ASSET = testAssetId(0x5eed);

async function assetBalance(chain: TestChain, address: string, block: string | number = "latest", assetId: string = ASSET): Promise<bigint> {
  const tag = typeof block === "number" ? "0x" + block.toString(16) : block;
  return BigInt((await chain.rpc("eth_getAssetBalance", [address, tag, assetId])) as string);
}

describe("multi-coin balances", () => {
  let chain: TestChain;
  beforeEach(async () => {
    chain = await startChain();
  });

  it("eth_getAssetBalance accepts the asset ID as cb58 or as 0x hex", async () => {
    const holder = chain.signers[1]!.address;
    await chain.rpc("nativekit_setAssetBalance", [holder, ASSET, "0x64"]);
    expect(await assetBalance(chain, holder, "latest", ASSET)).to.equal(100n);
    expect(await assetBalance(chain, holder, "latest", assetIdToCb58(ASSET))).to.equal(100n);
  });

  it("nativekit_setAssetBalance accepts a cb58 asset ID", async () => {
    const holder = chain.signers[1]!.address;
    await chain.rpc("nativekit_setAssetBalance", [holder, assetIdToCb58(ASSET), "0x7"]);
    expect(await assetBalance(chain, holder)).to.equal(7n);
  });

  it("eth_getAssetBalance reads the balance as of a past block", async () => {
    const sender = chain.signers[0]!;
    await chain.rpc("nativekit_setAssetBalance", [sender.address, ASSET, "0x3e8"]);
    const before = await chain.provider.getBlockNumber();
    const to = chain.signers[1]!.address;
    await (await sender.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data: encodeNativeAssetCallInput({ to, assetId: ASSET, amount: 400n }) })).wait();
    expect(await assetBalance(chain, sender.address, before)).to.equal(1000n);
    expect(await assetBalance(chain, sender.address)).to.equal(600n);
    expect(await assetBalance(chain, to, before)).to.equal(0n);
    expect(await assetBalance(chain, to)).to.equal(400n);
  });

  it("rejects a malformed asset ID with an error naming the parameter", async () => {
    const error = await rejection(chain.rpc("eth_getAssetBalance", [chain.signers[0]!.address, "latest", "not-an-id"]));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.match(/assetID/);
  });

  it("rejects a cb58 asset ID whose checksum is wrong", async () => {
    const good = assetIdToCb58(ASSET);
    const bad = good.slice(0, -1) + (good.endsWith("1") ? "2" : "1");
    const error = await rejection(chain.rpc("eth_getAssetBalance", [chain.signers[0]!.address, "latest", bad]));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.match(/checksum/);
  });

  it("nativekit_setAssetBalance rejects a bad address, asset ID or amount, and changes nothing", async () => {
    const holder = chain.signers[1]!.address;
    for (const params of [
      ["0x1234", ASSET, "0x1"],
      [holder, "0x1234", "0x1"],
      [holder, ASSET, "12"],
      [holder, ASSET, "0x" + "1".padEnd(66, "0")],
      [holder, ASSET],
    ]) {
      const error = await rejection(chain.rpc("nativekit_setAssetBalance", params));
      expect(error.code, JSON.stringify(params)).to.equal(-32602);
    }
    expect(await assetBalance(chain, holder)).to.equal(0n);
  });

  it("survive the empty-account cleanup: an account holding only assets is kept when touched", async () => {
    const holder = Wallet.createRandom().address;
    await chain.rpc("nativekit_setAssetBalance", [holder, ASSET, "0x5"]);
    // A zero-value call touches the account; an empty account would be deleted (EIP-161).
    await (await chain.signers[0]!.sendTransaction({ to: holder, value: 0n })).wait();
    expect(await assetBalance(chain, holder)).to.equal(5n);
    // It still exists: nativeAssetCall to it charges no new-account gas.
    await chain.rpc("nativekit_setAssetBalance", [chain.signers[0]!.address, ASSET, "0x5"]);
    const data = encodeNativeAssetCallInput({ to: holder, assetId: ASSET, amount: 1n });
    const receipt = await (await chain.signers[0]!.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 100_000 })).wait();
    expect(receipt!.gasUsed < 21_000n + 2_000n + 9_000n + 25_000n).to.equal(true);
  });

  it("never collide with contract storage", async () => {
    const harness = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
    const address = await harness.getAddress();
    await chain.rpc("hardhat_setStorageAt", [address, ASSET, "0x" + "ff".repeat(32)]);
    expect(await assetBalance(chain, address)).to.equal(0n);
    await chain.rpc("nativekit_setAssetBalance", [address, ASSET, "0x9"]);
    expect(await chain.provider.getStorage(address, ASSET)).to.equal("0x" + "ff".repeat(32));
    expect(await chain.provider.getStorage(address, ZeroHash)).to.equal(ZeroHash);
  });

  it("are restored by evm_revert to a snapshot", async () => {
    const holder = chain.signers[1]!.address;
    await chain.rpc("nativekit_setAssetBalance", [holder, ASSET, "0x1"]);
    const snapshot = await chain.rpc("evm_snapshot");
    await chain.rpc("nativekit_setAssetBalance", [holder, ASSET, "0x2"]);
    await (await chain.signers[0]!.sendTransaction({ to: holder, value: 1n })).wait();
    expect(await assetBalance(chain, holder)).to.equal(2n);
    expect(await chain.rpc("evm_revert", [snapshot])).to.equal(true);
    expect(await assetBalance(chain, holder)).to.equal(1n);
  });

  it("can be set at genesis through the engine options", async () => {
    const holder = chain.signers[3]!.address;
    const seeded = await startChain({ assetBalances: [{ address: holder, assetId: assetIdToCb58(ASSET), amount: 42n }] });
    expect(await assetBalance(seeded, holder, 0)).to.equal(42n);
  });

  it("a failed inner call leaves every balance where it was (reverted with the frame)", async () => {
    const harness = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
    const address = await harness.getAddress();
    await chain.rpc("nativekit_setAssetBalance", [address, ASSET, "0xa"]);
    // The harness moves 10 to a fresh account, then the outer frame reverts: nothing may stick.
    const fresh = Wallet.createRandom().address;
    const input = encodeNativeAssetCallInput({ to: fresh, assetId: ASSET, amount: 10n });
    const inner = harness.interface.encodeFunctionData("rawCall", [NATIVE_ASSET_CALL_ADDRESS, input]);
    const [ok] = await harness.rawCall.staticCall(address, inner);
    expect(ok).to.equal(true);
    await (await harness.assetCall(fresh, BigInt(ASSET), 10n, "0x")).wait();
    expect(await assetBalance(chain, fresh)).to.equal(10n);
    expect(await assetBalance(chain, address)).to.equal(0n);
    // Now a transfer larger than the balance fails and moves nothing.
    await expectFailure(harness.assetCall(fresh, BigInt(ASSET), 1n, "0x", { gasLimit: 200_000 }));
    expect(await assetBalance(chain, fresh)).to.equal(10n);
  });
});

async function expectFailure(promise: Promise<{ wait(): Promise<unknown> }>): Promise<void> {
  try {
    const tx = await promise;
    await tx.wait();
  } catch {
    return;
  }
  throw new Error("expected the transaction to fail");
}
