import { expect } from "chai";
import hre from "hardhat";
import { createNativeProvider, type NativeProvider } from "../../src/engine/provider";
import { ExecutionFailureRpcError } from "../../src/engine/api/errors";
import { ExecutedInstructions } from "../../src/engine/failure-trace";
import { instructionRecorderIdle } from "../../src/engine/instruction-recorder";
import { interpreterPrototype } from "../../src/engine/interpreter-class";
import { refusalOf } from "../helpers/refusal";

/** The interpreter's step hook, which builds and emits a step event (what the replay must not need). */
const Interpreter = { prototype: interpreterPrototype<{ _runStepHook(...args: unknown[]): Promise<void> }>() as { _runStepHook(...args: unknown[]): Promise<void> } };

/** A fresh chain with the stack-trace test contracts deployed. */
async function chainWithFailing(options: { traceFailures?: boolean; log?: (line: string) => void } = {}) {
  const provider = await createNativeProvider(options);
  const [from] = (await provider.request({ method: "eth_accounts" })) as string[];
  const deploy = async (name: string) => {
    const hash = (await provider.request({ method: "eth_sendTransaction", params: [{ from, data: (await hre.artifacts.readArtifact(name)).bytecode }] })) as string;
    const receipt = (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { contractAddress: string };
    return receipt.contractAddress;
  };
  const failing = await deploy("Failing");
  const caller = await deploy("FailingCaller");
  const failingInterface = (await hre.ethers.getContractFactory("Failing")).interface;
  const callerInterface = (await hre.ethers.getContractFactory("FailingCaller")).interface;
  return { provider, from: from!, failing, caller, failingInterface, callerInterface, deploy };
}

function call(provider: NativeProvider, to: string, data: string) {
  return provider.request({ method: "eth_call", params: [{ to, data }, "latest"] });
}

describe("failure traces: the failed frames of a transaction or call", () => {
  it("a failure in a called contract gives the path from the transaction's frame to the failing one", async () => {
    const { provider, failing, caller, callerInterface } = await chainWithFailing();
    const error = await refusalOf(call(provider, caller, callerInterface.encodeFunctionData("callFailing", [failing])), ExecutionFailureRpcError);
    const frames = error.trace!.frames;
    expect(frames.map((frame) => [frame.depth, frame.kind, frame.error])).to.deep.equal([
      [0, "call", "revert"],
      [1, "call", "revert"],
    ]);
    expect(hre.ethers.hexlify(frames[1]!.address)).to.equal(failing.toLowerCase());
  });

  it("a failure that was caught is left out of the path", async () => {
    const { provider, failing, caller, callerInterface } = await chainWithFailing();
    const error = await refusalOf(call(provider, caller, callerInterface.encodeFunctionData("catchFailure", [failing])), ExecutionFailureRpcError);
    expect(error.trace!.frames).to.have.length(1);
  });

  it("without traceFailures no instructions are recorded; with it the failing frames carry theirs, the failing one last", async () => {
    const plain = await chainWithFailing();
    const untraced = await refusalOf(call(plain.provider, plain.failing, plain.failingInterface.encodeFunctionData("failWithReason")), ExecutionFailureRpcError);
    expect(untraced.trace!.frames[0]!.executed).to.equal(undefined);
    const traced = await chainWithFailing({ traceFailures: true });
    const error = await refusalOf(call(traced.provider, traced.failing, traced.failingInterface.encodeFunctionData("failWithReason")), ExecutionFailureRpcError);
    const frame = error.trace!.frames[0]!;
    expect(frame.executed!.at(-1)).to.equal(frame.pc);
    expect(frame.code[frame.pc]).to.equal(0xfd); // REVERT
  });

  it("the replay of a failed transaction changes nothing: the nonce, the balance and the mined block are those of one run", async () => {
    const { provider, from, failing, failingInterface } = await chainWithFailing({ traceFailures: true });
    const before = (await provider.request({ method: "eth_getTransactionCount", params: [from, "latest"] })) as string;
    const hash = (await provider.request({ method: "eth_sendTransaction", params: [{ from, to: failing, data: failingInterface.encodeFunctionData("failWithReason"), gas: "0x30000" }] })) as string;
    const receipt = (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { status: string; gasUsed: string };
    expect(receipt.status).to.equal("0x0");
    const after = (await provider.request({ method: "eth_getTransactionCount", params: [from, "latest"] })) as string;
    expect(BigInt(after) - BigInt(before)).to.equal(1n);
    // The same transaction on a chain that does not replay uses the same gas.
    const plain = await chainWithFailing();
    const plainHash = (await plain.provider.request({ method: "eth_sendTransaction", params: [{ from: plain.from, to: plain.failing, data: failingInterface.encodeFunctionData("failWithReason"), gas: "0x30000" }] })) as string;
    const plainReceipt = (await plain.provider.request({ method: "eth_getTransactionReceipt", params: [plainHash] })) as { gasUsed: string };
    expect(receipt.gasUsed).to.equal(plainReceipt.gasUsed);
  });

  it("console.log in a failed call is printed once, not again by the replay", async () => {
    const lines: string[] = [];
    const { provider, from } = await chainWithFailing({ traceFailures: true, log: (line) => lines.push(line) });
    const hash = (await provider.request({ method: "eth_sendTransaction", params: [{ from, data: (await hre.artifacts.readArtifact("LoggingFailure")).bytecode }] })) as string;
    const { contractAddress } = (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { contractAddress: string };
    const data = (await hre.ethers.getContractFactory("LoggingFailure")).interface.encodeFunctionData("logThenFail");
    await refusalOf(call(provider, contractAddress, data), ExecutionFailureRpcError);
    expect(lines.filter((line) => line === "about to fail")).to.have.length(1);
  });

  it("an estimate's trial runs at lower gas are not replayed, only a failure the estimate reports", async () => {
    const { provider, from, failing, caller, callerInterface, deploy } = await chainWithFailing({ traceFailures: true });
    const replays: unknown[] = [];
    const attachTo = ExecutedInstructions.prototype.attachTo;
    ExecutedInstructions.prototype.attachTo = function (this: ExecutedInstructions, trace) {
      replays.push(trace);
      return attachTo.call(this, trace);
    };
    try {
      // Succeeds at the cap; reverts in every trial below 100 000 gas.
      const reader = await deploy("CounterReader");
      const read = (await hre.ethers.getContractFactory("CounterReader")).interface.encodeFunctionData("readWithGasToSpare", [failing]);
      await provider.request({ method: "eth_estimateGas", params: [{ from, to: reader, data: read }] });
      expect(replays).to.have.length(0);
      await refusalOf(provider.request({ method: "eth_estimateGas", params: [{ from, to: caller, data: callerInterface.encodeFunctionData("callFailing", [failing]) }] }), ExecutionFailureRpcError);
      expect(replays).to.have.length(1);
    } finally {
      ExecutedInstructions.prototype.attachTo = attachTo;
    }
  });

  it("the replay notes the failing frame's instructions without building a step event per instruction", async () => {
    const { provider, failing, failingInterface } = await chainWithFailing({ traceFailures: true });
    const stepHook = Interpreter.prototype._runStepHook;
    let stepEvents = 0;
    Interpreter.prototype._runStepHook = function (this: unknown, ...args: unknown[]) {
      stepEvents++;
      return stepHook.apply(this, args);
    };
    try {
      const error = await refusalOf(call(provider, failing, failingInterface.encodeFunctionData("failWithReason")), ExecutionFailureRpcError);
      const frame = error.trace!.frames[0]!;
      expect(frame.executed!.length).to.be.greaterThan(10);
      expect(frame.executed!.at(-1)).to.equal(frame.pc);
      expect(stepEvents).to.equal(0);
    } finally {
      Interpreter.prototype._runStepHook = stepHook;
    }
  });

  it("after a replay, and after two chains' replays at once, the interpreter runs its own step method again", async () => {
    const [one, two] = await Promise.all([chainWithFailing({ traceFailures: true }), chainWithFailing({ traceFailures: true })]);
    const fail = (chain: typeof one) => refusalOf(call(chain.provider, chain.failing, chain.failingInterface.encodeFunctionData("failWithReason")), ExecutionFailureRpcError);
    const [first, second] = await Promise.all([fail(one), fail(two)]);
    expect(first.trace!.frames[0]!.executed).to.deep.equal(second.trace!.frames[0]!.executed);
    expect(instructionRecorderIdle()).to.equal(true);
  });

  it("the trace stays in process: the JSON-RPC error a transport sends has only code, message and data", async () => {
    const { provider, failing, failingInterface } = await chainWithFailing({ traceFailures: true });
    const error = await refusalOf(call(provider, failing, failingInterface.encodeFunctionData("failWithReason")), ExecutionFailureRpcError);
    expect(Object.keys(error.toJSON())).to.deep.equal(["code", "message", "data"]);
  });
});
