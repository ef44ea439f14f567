import { expect } from "chai";
import { encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding";
import {
  NativeAssetsHarness__factory,
  NoReceiver__factory,
  ReentrantWithdrawer__factory,
  WrappedNativeAsset__factory,
  type WrappedNativeAsset,
} from "../../typechain-types";
import { startChain, testAssetId, type TestChain } from "../helpers/chain";

const ASSET = testAssetId(0x77a9);

describe("WrappedNativeAsset", () => {
  let chain: TestChain;
  let wrapper: WrappedNativeAsset;
  let wrapperAddress: string;

  async function assetBalance(address: string): Promise<bigint> {
    return BigInt((await chain.rpc("eth_getAssetBalance", [address, "latest", ASSET])) as string);
  }

  /** nativeAssetCall + deposit() in one transaction, as the seed prescribes. */
  async function wrap(signerIndex: number, amount: bigint) {
    const signer = chain.signers[signerIndex]!;
    const data = encodeNativeAssetCallInput({
      to: wrapperAddress,
      assetId: ASSET,
      amount,
      callData: wrapper.interface.encodeFunctionData("deposit"),
    });
    return (await signer.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data })).wait();
  }

  beforeEach(async () => {
    chain = await startChain();
    for (const s of chain.signers) await chain.rpc("nativekit_setAssetBalance", [s.address, ASSET, "0x3e8"]);
    wrapper = await new WrappedNativeAsset__factory(chain.signers[0]!).deploy("Wrapped Test", "WTST", 9, BigInt(ASSET));
    wrapperAddress = await wrapper.getAddress();
  });

  it("reports its metadata and asset ID", async () => {
    expect(await wrapper.name()).to.equal("Wrapped Test");
    expect(await wrapper.symbol()).to.equal("WTST");
    expect(await wrapper.decimals()).to.equal(9n);
    expect(await wrapper.assetID()).to.equal(BigInt(ASSET));
  });

  it("deposit via nativeAssetCall credits the original sender and emits Deposit", async () => {
    const receipt = await wrap(1, 300n);
    expect(receipt!.status).to.equal(1);
    expect(await wrapper.balanceOf(chain.signers[1]!.address)).to.equal(300n);
    expect(await wrapper.totalSupply()).to.equal(300n);
    expect(await assetBalance(wrapperAddress)).to.equal(300n);
    const events = receipt!.logs.map((l) => wrapper.interface.parseLog(l)).filter((l) => l?.name === "Deposit");
    expect(events).to.have.length(1);
    expect(events[0]!.args.caller).to.equal(chain.signers[1]!.address);
    expect(events[0]!.args.amount).to.equal(300n);
  });

  it("credits an asset sent without deposit() to the next depositor", async () => {
    // A nativeAssetCall whose call data runs another function moves the asset but mints nothing.
    const data = encodeNativeAssetCallInput({
      to: wrapperAddress,
      assetId: ASSET,
      amount: 50n,
      callData: wrapper.interface.encodeFunctionData("totalSupply"),
    });
    await (await chain.signers[2]!.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data })).wait();
    expect(await wrapper.totalSupply()).to.equal(0n);
    await wrap(3, 10n);
    expect(await wrapper.balanceOf(chain.signers[3]!.address)).to.equal(60n);
    expect(await wrapper.balanceOf(chain.signers[2]!.address)).to.equal(0n);
    expect(await wrapper.totalSupply()).to.equal(60n);
  });

  it("withdraw burns the tokens, sends the asset back and emits Withdrawal", async () => {
    await wrap(1, 300n);
    const holder = chain.signers[1]!;
    const receipt = await (await wrapper.connect(holder).withdraw(120n)).wait();
    expect(await wrapper.balanceOf(holder.address)).to.equal(180n);
    expect(await wrapper.totalSupply()).to.equal(180n);
    expect(await assetBalance(holder.address)).to.equal(1000n - 300n + 120n);
    expect(await assetBalance(wrapperAddress)).to.equal(180n);
    const names = receipt!.logs.map((l) => wrapper.interface.parseLog(l)?.name);
    expect(names).to.deep.equal(["Transfer", "Withdrawal"]);
  });

  it("withdraw of more than the balance fails with 'Insufficient funds for withdrawal'", async () => {
    await wrap(1, 10n);
    try {
      await wrapper.connect(chain.signers[1]!).withdraw(11n);
      expect.fail("withdraw should have failed");
    } catch (error) {
      expect((error as { reason?: string }).reason).to.equal("Insufficient funds for withdrawal");
    }
    expect(await wrapper.balanceOf(chain.signers[1]!.address)).to.equal(10n);
  });

  it("transfers wrapped tokens like any ERC-20", async () => {
    await wrap(1, 100n);
    await (await wrapper.connect(chain.signers[1]!).transfer(chain.signers[2]!.address, 40n)).wait();
    expect(await wrapper.balanceOf(chain.signers[2]!.address)).to.equal(40n);
    await (await wrapper.connect(chain.signers[2]!).withdraw(40n)).wait();
    expect(await assetBalance(chain.signers[2]!.address)).to.equal(1040n);
  });

  it("a contract can wrap for itself in one call (nested caller forwarding)", async () => {
    const harness = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
    const harnessAddress = await harness.getAddress();
    await chain.rpc("nativekit_setAssetBalance", [harnessAddress, ASSET, "0x64"]);
    await (await harness.deposit(wrapperAddress, 64n)).wait();
    expect(await wrapper.balanceOf(harnessAddress)).to.equal(64n);
    expect(await assetBalance(harnessAddress)).to.equal(100n - 64n);
  });

  it("a re-entrant receiver cannot withdraw more than it holds", async () => {
    const attacker = await new ReentrantWithdrawer__factory(chain.signers[0]!).deploy(wrapperAddress);
    const attackerAddress = await attacker.getAddress();
    await wrap(1, 100n);
    await (await wrapper.connect(chain.signers[1]!).transfer(attackerAddress, 50n)).wait();
    await wrap(2, 100n);
    // Withdraw 30, then try to withdraw 30 more from inside the callback (only 20 left).
    await (await attacker.attackWithdraw(30n, 30n)).wait();
    expect(await attacker.reentryAttempted()).to.equal(true);
    expect(await attacker.reentrySucceeded()).to.equal(false);
    expect(await wrapper.balanceOf(attackerAddress)).to.equal(20n);
    expect(await assetBalance(attackerAddress)).to.equal(30n);
    expect(await wrapper.totalSupply()).to.equal(await assetBalance(wrapperAddress));
  });

  it("a re-entrant deposit during withdraw mints nothing", async () => {
    const attacker = await new ReentrantWithdrawer__factory(chain.signers[0]!).deploy(wrapperAddress);
    const attackerAddress = await attacker.getAddress();
    await wrap(1, 100n);
    await (await wrapper.connect(chain.signers[1]!).transfer(attackerAddress, 50n)).wait();
    await (await attacker.attackDeposit(50n)).wait();
    expect(await attacker.reentryMinted()).to.equal(0n);
    expect(await wrapper.balanceOf(attackerAddress)).to.equal(0n);
    expect(await wrapper.totalSupply()).to.equal(await assetBalance(wrapperAddress));
  });

  it("withdraw to a contract that cannot receive reverts and keeps the tokens", async () => {
    const noReceiver = await new NoReceiver__factory(chain.signers[0]!).deploy();
    const address = await noReceiver.getAddress();
    await wrap(1, 10n);
    await (await wrapper.connect(chain.signers[1]!).transfer(address, 5n)).wait();
    try {
      await (await noReceiver.withdraw(wrapperAddress, 5n, { gasLimit: 300_000 })).wait();
      expect.fail("withdraw should have failed");
    } catch (error) {
      expect((error as { code?: string }).code).to.equal("CALL_EXCEPTION");
    }
    expect(await wrapper.balanceOf(address)).to.equal(5n);
  });
});
