import { expect } from "chai";
import path from "node:path";
import hre from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { SolidityError } from "../../src/hardhat/solidity/solidity-error";
import { DEMO_ASSET } from "./fixtures";
import { refusalOf } from "../helpers/refusal";

const SOURCE = "contracts/test/StackTraces.sol";
const PREFIX = "VM Exception while processing transaction: ";

async function deployFailingFixture() {
  const failing = await hre.ethers.deployContract("Failing");
  const caller = await hre.ethers.deployContract("FailingCaller");
  return { failing, caller };
}

/** The Solidity frames of an error's stack, and the first line after them. */
function stackOf(error: Error): { frames: string[]; next: string | undefined } {
  const lines = (error.stack ?? "").split("\n").slice(1);
  const frames = lines.filter((line) => !line.includes("(/") && !line.includes("file://") && line.trimStart().startsWith("at "));
  return { frames: frames.map((line) => line.trim()), next: lines[frames.length] };
}

describe("Solidity stack traces on the nativekit network", () => {
  it("a revert with a reason names the reason, the contract, the function and the line", async () => {
    const { failing } = await loadFixture(deployFailingFixture);
    const error = await refusalOf(failing.failWithReason(), SolidityError);
    expect(error.message).to.equal(`${PREFIX}reverted with reason string 'You can't withdraw yet'`);
    expect(stackOf(error).frames).to.deep.equal([`at Failing.failWithReason (${SOURCE}:18)`]);
  });

  it("the JavaScript stack below the Solidity frames starts at the test", async () => {
    const { failing } = await loadFixture(deployFailingFixture);
    const error = await refusalOf(failing.failWithReason(), SolidityError);
    // The first JavaScript frame is the test's own code (its refusal helper, under test/).
    expect(stackOf(error).next).to.include(` (${path.resolve(__dirname, "..")}${path.sep}`);
    expect(error.stack).to.match(/test\/hardhat\/stack-traces\.test\.ts:\d+/);
    expect(error.stack).not.to.match(/node_modules|src\/engine|src\/hardhat/);
  });

  it("a custom error is shown with its arguments", async () => {
    const { failing } = await loadFixture(deployFailingFixture);
    const error = await refusalOf(failing.failWithCustomError(5n), SolidityError);
    expect(error.message).to.equal(`${PREFIX}reverted with custom error 'Insufficient(1, 5)'`);
    expect(stackOf(error).frames).to.deep.equal([`at Failing.failWithCustomError (${SOURCE}:22)`]);
  });

  it("a panic is shown with its code explained, at the line of the checked operation", async () => {
    const { failing } = await loadFixture(deployFailingFixture);
    const error = await refusalOf(failing.overflow.staticCall(2n), SolidityError);
    expect(error.message).to.equal(`${PREFIX}reverted with panic code 0x11 (Arithmetic operation overflowed outside of an unchecked block)`);
    expect(stackOf(error).frames).to.deep.equal([`at Failing.overflow (${SOURCE}:26)`]);
  });

  it("a require without a reason says so", async () => {
    const { failing } = await loadFixture(deployFailingFixture);
    const error = await refusalOf(failing.failWithoutReason(), SolidityError);
    expect(error.message).to.equal("Transaction reverted without a reason string");
    expect(stackOf(error).frames).to.deep.equal([`at Failing.failWithoutReason (${SOURCE}:30)`]);
  });

  it("running out of gas names the function that ran", async () => {
    const { failing } = await loadFixture(deployFailingFixture);
    const error = await refusalOf(failing.burnGas({ gasLimit: 100_000 }), SolidityError);
    expect(error.message).to.equal("Transaction ran out of gas");
    expect(stackOf(error).frames).to.have.length(1);
    expect(stackOf(error).frames[0]).to.match(new RegExp(`^at Failing\\.burnGas \\(${SOURCE}:3[3-6]\\)$`));
  });

  it("a call to an account without code says so", async () => {
    const { failing } = await loadFixture(deployFailingFixture);
    const [, somebody] = await hre.ethers.getSigners();
    const error = await refusalOf(failing.callNonContract(somebody!.address), SolidityError);
    expect(error.message).to.equal("Transaction reverted: function call to a non-contract account");
    expect(stackOf(error).frames).to.deep.equal([`at Failing.callNonContract (${SOURCE}:40)`]);
  });

  it("a failure in a called contract shows both frames, the callee first", async () => {
    const { failing, caller } = await loadFixture(deployFailingFixture);
    const error = await refusalOf(caller.callFailing(await failing.getAddress()), SolidityError);
    expect(error.message).to.equal(`${PREFIX}reverted with reason string 'You can't withdraw yet'`);
    expect(stackOf(error).frames).to.deep.equal([`at Failing.failWithReason (${SOURCE}:18)`, `at FailingCaller.callFailing (${SOURCE}:46)`]);
  });

  it("a failure reached through nativeAssetCall shows the precompile between the callee and its caller", async () => {
    const { failing, caller } = await loadFixture(deployFailingFixture);
    const error = await refusalOf(caller.assetCallFailing(await failing.getAddress(), BigInt(DEMO_ASSET)), SolidityError);
    const { frames } = stackOf(error);
    expect(frames[0]).to.equal(`at Failing.failWithReason (${SOURCE}:18)`);
    expect(frames[1]).to.equal("at <NativeAssetCall precompile>.<precompile>");
    expect(frames[2]).to.match(/^at NativeAssets\.assetCall \(contracts\/NativeAssets\.sol:\d+\)$/);
  });

  it("a failure that was caught is not part of the trace", async () => {
    const { failing, caller } = await loadFixture(deployFailingFixture);
    const error = await refusalOf(caller.catchFailure(await failing.getAddress()), SolidityError);
    expect(error.message).to.equal(`${PREFIX}reverted with reason string 'caught, then failed'`);
    expect(stackOf(error).frames).to.deep.equal([`at FailingCaller.catchFailure (${SOURCE}:55)`]);
  });

  it("a constructor's revert names the constructor", async () => {
    const error = await refusalOf(hre.ethers.deployContract("FailingConstructor"), SolidityError);
    expect(error.message).to.equal(`${PREFIX}reverted with reason string 'no deployment today'`);
    expect(stackOf(error).frames).to.deep.equal([`at FailingConstructor.constructor (${SOURCE}:61)`]);
  });

  it("code the project did not compile is named by its address and selector", async () => {
    const [deployer] = await hre.ethers.getSigners();
    // Runtime code PUSH1 0 DUP1 REVERT, deployed by init code that returns it.
    const deployment = await deployer!.sendTransaction({ data: "0x6460006000fd6000526005601bf3" });
    const address = (await deployment.wait())!.contractAddress!;
    const error = await refusalOf(deployer!.sendTransaction({ to: address, data: "0x12345678" }), SolidityError);
    expect(error.message).to.equal("Transaction reverted without a reason string");
    expect(stackOf(error).frames).to.deep.equal([`at <UnrecognizedContract ${address.toLowerCase()}>.<selector 0x12345678>`]);
  });

  it("keeps the revert data, so the matchers still decode reasons, custom errors and panics", async () => {
    const { failing } = await loadFixture(deployFailingFixture);
    await expect(failing.failWithReason()).to.be.revertedWith("You can't withdraw yet");
    await expect(failing.failWithCustomError(5n)).to.be.revertedWithCustomError(failing, "Insufficient").withArgs(1n, 5n);
    await expect(failing.overflow(2n)).to.be.revertedWithPanic(0x11);
    await expect(failing.failWithoutReason()).to.be.revertedWithoutReason();
  });
});
