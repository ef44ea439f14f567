import { expect } from "chai";
import { Wallet, getBytes, parseEther, type TransactionRequest } from "ethers";
import {
  encodeNativeAssetBalanceInput,
  encodeNativeAssetCallInput,
  GENESIS_CONTRACT_ADDRESS,
  NATIVE_ASSET_BALANCE_ADDRESS,
  NATIVE_ASSET_CALL_ADDRESS,
} from "../../src/encoding";
// The reference node's prices, as it states them (shared/DESIGN.md, from coreth), not the
// engine's constants: a test that read those would pass whatever they were changed to.
/** nativeAssetBalance: charged up front. */
const NATIVE_ASSET_BALANCE_GAS = 2474n;
/** nativeAssetCall: charged up front. */
const NATIVE_ASSET_CALL_GAS = 9000n;
/** nativeAssetCall to an account that does not exist yet: this much more. */
const CALL_NEW_ACCOUNT_GAS = 25000n;
import { CallRecorder__factory, NativeAssetsHarness__factory, StaticCaller__factory } from "../../typechain-types";
import { rejection, startChain, testAssetId, type TestChain } from "../helpers/chain";

const ASSET = testAssetId(0xa55e7);
const OTHER_ASSET = testAssetId(0xbeef);

/** Intrinsic gas of a call transaction: 21000 plus 16 per non-zero and 4 per zero data byte. */
function intrinsicGas(data: string): bigint {
  let gas = 21000n;
  for (const byte of getBytes(data)) gas += byte === 0 ? 4n : 16n;
  return gas;
}

async function assetBalance(chain: TestChain, address: string, assetId = ASSET): Promise<bigint> {
  return BigInt((await chain.rpc("eth_getAssetBalance", [address, "latest", assetId])) as string);
}

async function setAssetBalance(chain: TestChain, address: string, amount: bigint, assetId = ASSET): Promise<void> {
  await chain.rpc("nativekit_setAssetBalance", [address, assetId, "0x" + amount.toString(16)]);
}

/** Sends a transaction straight to a precompile and returns its receipt (status 0 allowed). */
async function send(chain: TestChain, request: TransactionRequest) {
  const tx = await chain.signers[0]!.sendTransaction(request);
  const receipt = await chain.provider.getTransactionReceipt(tx.hash);
  if (receipt === null) throw new Error("no receipt");
  return receipt;
}

describe("nativeAssetBalance precompile", () => {
  let chain: TestChain;
  beforeEach(async () => {
    chain = await startChain();
  });

  it("returns the balance as one 32-byte big-endian word", async () => {
    const holder = chain.signers[1]!.address;
    await setAssetBalance(chain, holder, 123456789n);
    const out = await chain.provider.call({
      to: NATIVE_ASSET_BALANCE_ADDRESS,
      data: encodeNativeAssetBalanceInput({ account: holder, assetId: ASSET }),
    });
    expect(out).to.equal("0x" + 123456789n.toString(16).padStart(64, "0"));
  });

  it("reads zero for an asset the account never held", async () => {
    const out = await chain.provider.call({
      to: NATIVE_ASSET_BALANCE_ADDRESS,
      data: encodeNativeAssetBalanceInput({ account: chain.signers[1]!.address, assetId: OTHER_ASSET }),
    });
    expect(BigInt(out)).to.equal(0n);
  });

  it("charges 2474 gas", async () => {
    const data = encodeNativeAssetBalanceInput({ account: chain.signers[1]!.address, assetId: ASSET });
    const receipt = await send(chain, { to: NATIVE_ASSET_BALANCE_ADDRESS, data, gasLimit: 100_000 });
    expect(receipt.status).to.equal(1);
    expect(receipt.gasUsed).to.equal(intrinsicGas(data) + NATIVE_ASSET_BALANCE_GAS);
  });

  it("reverts on input that is not exactly 52 bytes, keeping the 2474 gas and returning the rest", async () => {
    for (const data of ["0x", "0x" + "11".repeat(51), "0x" + "11".repeat(53)]) {
      const receipt = await send(chain, { to: NATIVE_ASSET_BALANCE_ADDRESS, data, gasLimit: 100_000 });
      expect(receipt.status, data.length.toString()).to.equal(0);
      expect(receipt.gasUsed).to.equal(intrinsicGas(data) + NATIVE_ASSET_BALANCE_GAS);
    }
  });

  it("fails out of gas, using all gas, when given less than 2474", async () => {
    const data = encodeNativeAssetBalanceInput({ account: chain.signers[1]!.address, assetId: ASSET });
    const gasLimit = intrinsicGas(data) + NATIVE_ASSET_BALANCE_GAS - 1n;
    const receipt = await send(chain, { to: NATIVE_ASSET_BALANCE_ADDRESS, data, gasLimit });
    expect(receipt.status).to.equal(0);
    expect(receipt.gasUsed).to.equal(gasLimit);
  });

  it("succeeds with exactly 2474 gas left for it", async () => {
    const holder = chain.signers[1]!.address;
    await setAssetBalance(chain, holder, 5n);
    const data = encodeNativeAssetBalanceInput({ account: holder, assetId: ASSET });
    const gasLimit = intrinsicGas(data) + NATIVE_ASSET_BALANCE_GAS;
    const receipt = await send(chain, { to: NATIVE_ASSET_BALANCE_ADDRESS, data, gasLimit });
    expect(receipt.status).to.equal(1);
    expect(receipt.gasUsed).to.equal(gasLimit);
  });

  it("is allowed in a static call", async () => {
    const caller = await new StaticCaller__factory(chain.signers[0]!).deploy();
    await setAssetBalance(chain, chain.signers[2]!.address, 77n);
    expect(await caller.assetBalance(chain.signers[2]!.address, BigInt(ASSET))).to.equal(77n);
    const [ok] = await caller.staticAssetBalance(chain.signers[2]!.address, BigInt(ASSET));
    expect(ok).to.equal(true);
  });
});

describe("nativeAssetCall precompile", () => {
  let chain: TestChain;
  let sender: string;
  beforeEach(async () => {
    chain = await startChain();
    sender = chain.signers[0]!.address;
    await setAssetBalance(chain, sender, 1_000n);
  });

  async function deployRecorder() {
    const recorder = await new CallRecorder__factory(chain.signers[0]!).deploy();
    await recorder.waitForDeployment();
    return recorder;
  }

  it("moves the amount from the caller to `to`", async () => {
    const to = chain.signers[1]!.address;
    const data = encodeNativeAssetCallInput({ to, assetId: ASSET, amount: 300n });
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data });
    expect(receipt.status).to.equal(1);
    expect(await assetBalance(chain, sender)).to.equal(700n);
    expect(await assetBalance(chain, to)).to.equal(300n);
  });

  it("calls `to` with the original caller as msg.sender, value 0, after moving the balance", async () => {
    const recorder = await deployRecorder();
    const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(ASSET)]);
    const data = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 250n, callData });
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data });
    expect(receipt.status).to.equal(1);
    expect(await recorder.lastSender()).to.equal(sender);
    expect(await recorder.lastValue()).to.equal(0n);
    expect(await recorder.lastAssetBalance()).to.equal(250n);
  });

  it("emits the callee's events in the transaction's logs", async () => {
    const recorder = await deployRecorder();
    const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(ASSET)]);
    const data = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 1n, callData });
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data });
    const parsed = receipt.logs.map((log) => recorder.interface.parseLog(log));
    expect(parsed.map((l) => l?.name)).to.deep.equal(["Recorded"]);
    expect(parsed[0]!.args.sender).to.equal(sender);
  });

  it("charges 9000 gas to an existing account with no code", async () => {
    const data = encodeNativeAssetCallInput({ to: chain.signers[1]!.address, assetId: ASSET, amount: 1n });
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 200_000 });
    expect(receipt.gasUsed).to.equal(intrinsicGas(data) + NATIVE_ASSET_CALL_GAS);
  });

  it("charges 25000 more and creates the account when `to` does not exist", async () => {
    const fresh = Wallet.createRandom().address;
    const data = encodeNativeAssetCallInput({ to: fresh, assetId: ASSET, amount: 1n });
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 200_000 });
    expect(receipt.status).to.equal(1);
    expect(receipt.gasUsed).to.equal(intrinsicGas(data) + NATIVE_ASSET_CALL_GAS + CALL_NEW_ACCOUNT_GAS);
    // The account now exists (it holds an asset): a second call pays no new-account gas.
    const again = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 200_000 });
    expect(again.gasUsed).to.equal(intrinsicGas(data) + NATIVE_ASSET_CALL_GAS);
  });

  it("fails out of gas, using all gas and moving nothing, when the new-account gas is missing", async () => {
    const fresh = Wallet.createRandom().address;
    const data = encodeNativeAssetCallInput({ to: fresh, assetId: ASSET, amount: 1n });
    const gasLimit = intrinsicGas(data) + NATIVE_ASSET_CALL_GAS + CALL_NEW_ACCOUNT_GAS - 1n;
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit });
    expect(receipt.status).to.equal(0);
    expect(receipt.gasUsed).to.equal(gasLimit);
    expect(await assetBalance(chain, sender)).to.equal(1_000n);
    expect(await chain.provider.getTransactionCount(fresh)).to.equal(0);
  });

  it("fails out of gas, using all gas, when given less than 9000", async () => {
    const data = encodeNativeAssetCallInput({ to: chain.signers[1]!.address, assetId: ASSET, amount: 1n });
    const gasLimit = intrinsicGas(data) + NATIVE_ASSET_CALL_GAS - 1n;
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit });
    expect(receipt.status).to.equal(0);
    expect(receipt.gasUsed).to.equal(gasLimit);
  });

  it("succeeds with exactly 9000 gas left for it when `to` exists", async () => {
    const to = chain.signers[1]!.address;
    const data = encodeNativeAssetCallInput({ to, assetId: ASSET, amount: 1n });
    const gasLimit = intrinsicGas(data) + NATIVE_ASSET_CALL_GAS;
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit });
    expect(receipt.status).to.equal(1);
    expect(await assetBalance(chain, to)).to.equal(1n);
  });

  it("succeeds with exactly 9000 + 25000 gas left for it when `to` does not exist", async () => {
    const fresh = Wallet.createRandom().address;
    const data = encodeNativeAssetCallInput({ to: fresh, assetId: ASSET, amount: 1n });
    const gasLimit = intrinsicGas(data) + NATIVE_ASSET_CALL_GAS + CALL_NEW_ACCOUNT_GAS;
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit });
    expect(receipt.status).to.equal(1);
    expect(await assetBalance(chain, fresh)).to.equal(1n);
  });

  it("moves nothing for a zero amount: a new `to` stays empty and is charged 25000 again next time", async () => {
    const fresh = Wallet.createRandom().address;
    const data = encodeNativeAssetCallInput({ to: fresh, assetId: ASSET, amount: 0n });
    for (let i = 0; i < 2; i++) {
      const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 200_000 });
      expect(receipt.status).to.equal(1);
      expect(receipt.gasUsed, `call ${i}`).to.equal(intrinsicGas(data) + NATIVE_ASSET_CALL_GAS + CALL_NEW_ACCOUNT_GAS);
    }
    expect(await assetBalance(chain, sender)).to.equal(1_000n);
  });

  it("reverts on input shorter than 84 bytes, keeping 9000 gas and returning the rest", async () => {
    const data = "0x" + "22".repeat(83);
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 200_000 });
    expect(receipt.status).to.equal(0);
    expect(receipt.gasUsed).to.equal(intrinsicGas(data) + NATIVE_ASSET_CALL_GAS);
  });

  it("fails with insufficient balance, consuming all gas, when the caller holds less than the amount", async () => {
    const data = encodeNativeAssetCallInput({ to: chain.signers[1]!.address, assetId: ASSET, amount: 1_001n });
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 200_000 });
    expect(receipt.status).to.equal(0);
    expect(receipt.gasUsed).to.equal(200_000n);
    expect(await assetBalance(chain, sender)).to.equal(1_000n);
  });

  it("skips the balance check for a zero amount, and still calls `to`", async () => {
    const recorder = await deployRecorder();
    const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(OTHER_ASSET)]);
    const data = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: OTHER_ASSET, amount: 0n, callData });
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 200_000 });
    expect(receipt.status).to.equal(1);
    expect(await recorder.recordCount()).to.equal(1n);
  });

  it("reverts in a static context", async () => {
    const caller = await new StaticCaller__factory(chain.signers[0]!).deploy();
    const [ok] = await caller.staticAssetCall(chain.signers[1]!.address, BigInt(ASSET), 0n, "0x");
    expect(ok).to.equal(false);
  });

  it("undoes the transfer and returns the remaining gas and revert data when the callee reverts", async () => {
    const recorder = await deployRecorder();
    const harness = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
    await setAssetBalance(chain, await harness.getAddress(), 500n);
    const callData = recorder.interface.encodeFunctionData("fail", ["nope"]);
    const input = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 100n, callData });
    const [ok, ret] = await harness.rawCall.staticCall(NATIVE_ASSET_CALL_ADDRESS, input);
    expect(ok).to.equal(false);
    const error = recorder.interface.parseError(ret);
    expect(error?.name).to.equal("Error");
    expect(error?.args[0]).to.equal("nope");

    const data = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 100n, callData });
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 300_000 });
    expect(receipt.status).to.equal(0);
    expect(receipt.gasUsed < 100_000n).to.equal(true);
    expect(await assetBalance(chain, sender)).to.equal(1_000n);
    expect(await assetBalance(chain, await recorder.getAddress())).to.equal(0n);
  });

  it("passes a callee's custom error through unchanged", async () => {
    const recorder = await deployRecorder();
    const harness = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
    const callData = recorder.interface.encodeFunctionData("failCustom");
    const input = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 0n, callData });
    const [ok, ret] = await harness.rawCall.staticCall(NATIVE_ASSET_CALL_ADDRESS, input);
    expect(ok).to.equal(false);
    expect(recorder.interface.parseError(ret)?.name).to.equal("RecorderFailure");
  });

  it("consumes all gas and undoes the transfer when the callee fails without reverting", async () => {
    const recorder = await deployRecorder();
    const callData = recorder.interface.encodeFunctionData("burnAllGas");
    const data = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 100n, callData });
    const receipt = await send(chain, { to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 300_000 });
    expect(receipt.status).to.equal(0);
    expect(receipt.gasUsed).to.equal(300_000n);
    expect(await assetBalance(chain, sender)).to.equal(1_000n);
  });

  it("reports the callee's own error, not a revert, when the callee fails without reverting", async () => {
    const recorder = await deployRecorder();
    const callData = recorder.interface.encodeFunctionData("burnAllGas");
    const data = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 100n, callData });
    const error = await rejection(chain.rpc("eth_call", [{ from: sender, to: NATIVE_ASSET_CALL_ADDRESS, data }]));
    expect(error.message).to.match(/invalid opcode/);
    expect(error.message).not.to.match(/execution reverted/);
  });

  it("returns the callee's return data", async () => {
    const recorder = await deployRecorder();
    const harness = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
    const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(ASSET)]);
    const input = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 0n, callData });
    const [ok, ret] = await harness.rawCall.staticCall(NATIVE_ASSET_CALL_ADDRESS, input);
    expect(ok).to.equal(true);
    expect(BigInt(ret)).to.equal(42n);
  });

  it("keeps native coin sent as msg.value at the precompile address", async () => {
    const recorder = await deployRecorder();
    const harness = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
    const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(ASSET)]);
    const input = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 0n, callData });
    const before = await chain.provider.getBalance(NATIVE_ASSET_CALL_ADDRESS);
    await (await harness.rawCall(NATIVE_ASSET_CALL_ADDRESS, input, { value: parseEther("1") })).wait();
    expect(await chain.provider.getBalance(NATIVE_ASSET_CALL_ADDRESS)).to.equal(before + parseEther("1"));
    expect(await chain.provider.getBalance(await recorder.getAddress())).to.equal(0n);
    expect(await recorder.lastValue()).to.equal(0n);
  });

  it("does not run when the caller lacks the native coin it sends as value", async () => {
    const recorder = await deployRecorder();
    const harness = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
    const harnessAddress = await harness.getAddress();
    await setAssetBalance(chain, harnessAddress, 5n);
    const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(ASSET)]);
    const input = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 5n, callData });
    // The harness holds no native coin, so a CALL with value 1 fails before the precompile runs.
    const [ok] = await harness.rawCallWithValue.staticCall(NATIVE_ASSET_CALL_ADDRESS, input, 1n);
    expect(ok).to.equal(false);
    await (await harness.rawCallWithValue(NATIVE_ASSET_CALL_ADDRESS, input, 1n)).wait();
    expect(await recorder.recordCount()).to.equal(0n);
    expect(await assetBalance(chain, harnessAddress)).to.equal(5n);
  });

  it("forwards a contract caller: the callee sees the calling contract as msg.sender", async () => {
    const recorder = await deployRecorder();
    const harness = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
    await setAssetBalance(chain, await harness.getAddress(), 40n);
    const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(ASSET)]);
    await (await harness.assetCall(await recorder.getAddress(), BigInt(ASSET), 40n, callData)).wait();
    expect(await recorder.lastSender()).to.equal(await harness.getAddress());
    expect(await recorder.lastAssetBalance()).to.equal(40n);
    expect(await assetBalance(chain, await harness.getAddress())).to.equal(0n);
  });
});

describe("deprecated native-asset precompiles", () => {
  it("revert and return all gas when the deprecation switch is on", async () => {
    const chain = await startChain({ deprecatedPrecompiles: true });
    await setAssetBalance(chain, chain.signers[0]!.address, 10n);
    for (const [to, data] of [
      [NATIVE_ASSET_BALANCE_ADDRESS, encodeNativeAssetBalanceInput({ account: chain.signers[0]!.address, assetId: ASSET })],
      [NATIVE_ASSET_CALL_ADDRESS, encodeNativeAssetCallInput({ to: chain.signers[1]!.address, assetId: ASSET, amount: 1n })],
    ] as const) {
      const receipt = await send(chain, { to, data, gasLimit: 200_000 });
      expect(receipt.status).to.equal(0);
      expect(receipt.gasUsed).to.equal(intrinsicGas(data));
    }
    expect(await assetBalance(chain, chain.signers[0]!.address)).to.equal(10n);
  });

  it("the genesis contract address always reverts with all gas returned", async () => {
    const chain = await startChain();
    const receipt = await send(chain, { to: GENESIS_CONTRACT_ADDRESS, data: "0x1234", gasLimit: 100_000 });
    expect(receipt.status).to.equal(0);
    expect(receipt.gasUsed).to.equal(intrinsicGas("0x1234"));
  });
});
