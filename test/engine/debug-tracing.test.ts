import { expect } from "chai";
import { AbiCoder, id, parseEther, toBeHex, zeroPadValue } from "ethers";
import { encodeNativeAssetCallInput, NATIVE_ASSET_BALANCE_ADDRESS, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding";
import { CallRecorder__factory, ForwardingProxy__factory, NativeAssetsHarness__factory, RpcHarness__factory } from "../../typechain-types";
import { anvilPeer, startPeer, type PeerProcess, type PeerSpec } from "../../bench/peers";
import type { CallFrame } from "../../src/engine/tracing/call-tracer";
import type { StructLog, StructLoggerResult as StructTrace } from "../../src/engine/tracing/struct-logger";
import { rejection, startChain, testAssetId, type TestChain } from "../helpers/chain";

const ASSET = testAssetId(0xa55e7);
const PRECOMPILE_CALL = NATIVE_ASSET_CALL_ADDRESS.toLowerCase();
const PRECOMPILE_BALANCE = NATIVE_ASSET_BALANCE_ADDRESS.toLowerCase();

type Prestate = Record<string, { balance?: string; nonce?: number; code?: string; storage?: Record<string, string> }>;

/** A JSON-RPC quantity. */
function q(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/** Runtime code that loops until its gas runs out: JUMPDEST PUSH1 0 JUMP. */
const ENDLESS_LOOP_RUNTIME = "5b600056";

/** Init code that deploys `runtime` (at most 255 bytes). */
function deployCode(runtime: string): string {
  const length = runtime.length / 2;
  const len = length.toString(16).padStart(2, "0");
  // PUSH1 len DUP1 PUSH1 0x0b PUSH1 0 CODECOPY PUSH1 0 RETURN, then the runtime.
  return `0x60${len}80600b6000396000f3${runtime}`;
}

describe("debug_ tracing", () => {
  let chain: TestChain;
  let me: string;

  const trace = <T>(hash: string, config?: unknown) => chain.rpc("debug_traceTransaction", config === undefined ? [hash] : [hash, config]) as Promise<T>;

  async function deployHarness() {
    const harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await harness.waitForDeployment();
    return harness;
  }

  beforeEach(async () => {
    chain = await startChain({ rpcGasCap: 5_000_000n });
    me = chain.signers[0]!.address.toLowerCase();
  });

  describe("struct logger (no tracer named)", () => {
    it("a plain transfer has no instructions: gas 21000, not failed, empty return value", async () => {
      const tx = await chain.signers[0]!.sendTransaction({ to: chain.signers[1]!.address, value: parseEther("1") });
      const result = await trace<StructTrace>(tx.hash);
      expect(result).to.deep.equal({ gas: 21000, failed: false, returnValue: "0x", structLogs: [] });
    });

    it("a contract call: one entry per instruction, the gas left falling by each cost, SSTORE showing the slot written", async () => {
      const harness = await deployHarness();
      const tx = await harness.store(77n);
      const receipt = (await tx.wait())!;
      const result = await trace<StructTrace>(tx.hash);
      expect(result.gas).to.equal(Number(receipt.gasUsed));
      expect(result.failed).to.equal(false);
      const logs = result.structLogs;
      expect(logs[0]).to.include({ pc: 0, op: "PUSH1", depth: 1, gasCost: 3 });
      expect(logs[0]!.stack).to.deep.equal([]);
      expect(logs[1]!.stack).to.deep.equal(["0x80"]);
      for (let i = 0; i + 1 < logs.length; i++) expect(logs[i + 1]!.gas).to.equal(logs[i]!.gas - logs[i]!.gasCost, `entry ${i} (${logs[i]!.op})`);
      const sstore = logs.find((l) => l.op === "SSTORE")!;
      expect(sstore.storage).to.deep.equal({ ["0".repeat(64)]: 77n.toString(16).padStart(64, "0") });
      expect(logs.filter((l) => l.op !== "SSTORE" && l.op !== "SLOAD").every((l) => l.storage === undefined)).to.equal(true);
      expect(logs[logs.length - 1]!.op).to.equal("STOP");
    });

    it("SLOAD shows the value it loaded; options disableStack, disableStorage, enableMemory, enableReturnData", async () => {
      const harness = await deployHarness();
      await (await harness.store(5n)).wait();
      const tx = await harness.store(6n);
      const full = await trace<StructTrace>(tx.hash, { enableMemory: true, enableReturnData: true });
      const sload = full.structLogs.find((l) => l.op === "SLOAD");
      if (sload !== undefined) expect(sload.storage!["0".repeat(64)]).to.equal(5n.toString(16).padStart(64, "0"));
      const withMemory = full.structLogs.find((l) => (l.memory?.length ?? 0) > 0)!;
      expect(withMemory.memory!.every((w) => /^[0-9a-f]{64}$/.test(w))).to.equal(true);
      // No call has returned anything yet: no entry shows return data.
      expect(full.structLogs.every((l) => l.returnData === undefined)).to.equal(true);
      expect(full.structLogs[0]!.memory).to.equal(undefined);
      const bare = await trace<StructTrace>(tx.hash, { disableStack: true, disableStorage: true });
      expect(bare.structLogs.length).to.equal(full.structLogs.length);
      expect(bare.structLogs.every((l) => l.stack === undefined && l.storage === undefined && l.memory === undefined && l.returnData === undefined)).to.equal(true);
    });

    it("a revert: failed, the revert data as return value, REVERT the last instruction", async () => {
      const harness = await deployHarness();
      const tx = await harness.storeThenMaybeFail(1n, true, "nope", { gasLimit: 200_000n });
      const receipt = await chain.provider.getTransactionReceipt(tx.hash);
      expect(receipt!.status).to.equal(0);
      const result = await trace<StructTrace>(tx.hash);
      expect(result.failed).to.equal(true);
      expect(result.gas).to.equal(Number(receipt!.gasUsed));
      const reason = id("Error(string)").slice(0, 10) + AbiCoder.defaultAbiCoder().encode(["string"], ["nope"]).slice(2);
      expect(result.returnValue).to.equal(reason);
      expect(result.structLogs[result.structLogs.length - 1]!.op).to.equal("REVERT");
    });

    it("running out of gas marks the instruction that could not be paid for", async () => {
      const created = await chain.signers[0]!.sendTransaction({ data: deployCode(ENDLESS_LOOP_RUNTIME) });
      const address = (await created.wait())!.contractAddress!;
      const tx = await chain.signers[0]!.sendTransaction({ to: address, gasLimit: 22_000n });
      const result = await trace<StructTrace>(tx.hash);
      expect(result.failed).to.equal(true);
      expect(result.gas).to.equal(22_000);
      expect(result.structLogs[result.structLogs.length - 1]!.error).to.equal("out of gas");
    });

    it("a nested call: the callee's instructions at depth 2, the CALL's cost including the gas it hands on", async () => {
      const harness = await deployHarness();
      const proxy = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
      const tx = await proxy.rawCall(await harness.getAddress(), harness.interface.encodeFunctionData("store", [9n]));
      const result = await trace<StructTrace>(tx.hash);
      const call = result.structLogs.findIndex((l) => l.op === "CALL");
      expect(result.structLogs[call + 1]!.depth).to.equal(2);
      expect(result.structLogs[call + 1]!.gas).to.be.lessThan(result.structLogs[call]!.gasCost);
      expect(result.structLogs.some((l) => l.depth === 2 && l.op === "SSTORE")).to.equal(true);
    });
  });

  describe("callTracer", () => {
    it("a transfer: one CALL frame with geth's fields", async () => {
      const to = chain.signers[1]!.address.toLowerCase();
      const tx = await chain.signers[0]!.sendTransaction({ to, value: 5n, gasLimit: 30_000n });
      const result = await trace<CallFrame>(tx.hash, { tracer: "callTracer" });
      expect(result).to.deep.equal({ from: me, gas: "0x7530", gasUsed: "0x5208", to, input: "0x", value: "0x5", type: "CALL" });
    });

    it("a revert: error, output and revertReason as geth gives them", async () => {
      const harness = await deployHarness();
      const tx = await harness.storeThenMaybeFail(1n, true, "nope", { gasLimit: 200_000n });
      const result = await trace<CallFrame>(tx.hash, { tracer: "callTracer" });
      expect(result.error).to.equal("execution reverted");
      expect(result.revertReason).to.equal("nope");
      expect(result.output!.startsWith(id("Error(string)").slice(0, 10))).to.equal(true);
      expect(result.gasUsed).to.equal(q((await chain.provider.getTransactionReceipt(tx.hash))!.gasUsed));
    });

    it("a nested call, and a creation whose frame names the new contract", async () => {
      const harness = await deployHarness();
      const proxy = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
      const data = harness.interface.encodeFunctionData("store", [9n]);
      const tx = await proxy.rawCall(await harness.getAddress(), data);
      const result = await trace<CallFrame>(tx.hash, { tracer: "callTracer" });
      expect(result.to).to.equal((await proxy.getAddress()).toLowerCase());
      expect(result.calls).to.have.length(1);
      expect(result.calls![0]).to.include({ type: "CALL", from: (await proxy.getAddress()).toLowerCase(), to: (await harness.getAddress()).toLowerCase(), input: data, value: "0x0" });
      const top = await trace<CallFrame>(tx.hash, { tracer: "callTracer", tracerConfig: { onlyTopCall: true } });
      expect(top.calls).to.equal(undefined);
      const deployment = await trace<CallFrame>(harness.deploymentTransaction()!.hash, { tracer: "callTracer" });
      expect(deployment.type).to.equal("CREATE");
      expect(deployment.to).to.equal((await harness.getAddress()).toLowerCase());
      expect(deployment.output).to.equal(await chain.provider.getCode(await harness.getAddress()));
    });

    it("withLog: each frame's logs with their position among its calls", async () => {
      const harness = await deployHarness();
      const tx = await harness.store(3n);
      const result = await trace<CallFrame>(tx.hash, { tracer: "callTracer", tracerConfig: { withLog: true } });
      expect(result.logs).to.deep.equal([
        {
          address: (await harness.getAddress()).toLowerCase(),
          topics: [id("Stored(address,uint256)"), zeroPadValue(me, 32), zeroPadValue("0x03", 32)],
          data: "0x",
          position: "0x0",
          index: "0x0",
        },
      ]);
      const without = await trace<CallFrame>(tx.hash, { tracer: "callTracer" });
      expect(without.logs).to.equal(undefined);
    });
  });

  describe("through the native-asset precompiles", () => {
    async function fundedHarness() {
      const harness = await new NativeAssetsHarness__factory(chain.signers[0]!).deploy();
      await chain.rpc("nativekit_setAssetBalance", [await harness.getAddress(), ASSET, "0x1000"]);
      const recorder = await new CallRecorder__factory(chain.signers[0]!).deploy();
      return { harness, recorder, harnessAddress: (await harness.getAddress()).toLowerCase(), recorderAddress: (await recorder.getAddress()).toLowerCase() };
    }

    it("callTracer: the nativeAssetCall frame holds the inner call, made from the original caller", async () => {
      const { harness, recorder, harnessAddress, recorderAddress } = await fundedHarness();
      const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(ASSET)]);
      const tx = await harness.assetCall(recorderAddress, BigInt(ASSET), 0x100n, callData);
      expect((await tx.wait())!.status).to.equal(1);
      const result = await trace<CallFrame>(tx.hash, { tracer: "callTracer", tracerConfig: { withLog: true } });
      const precompile = result.calls![0]!;
      expect(precompile).to.include({ type: "CALL", from: harnessAddress, to: PRECOMPILE_CALL, value: "0x0" });
      const inner = precompile.calls![0]!;
      expect(inner).to.include({ type: "CALL", from: harnessAddress, to: recorderAddress, input: callData, value: "0x0" });
      expect(inner.output).to.equal(toBeHex(42n, 32));
      expect(inner.calls![0]).to.include({ type: "STATICCALL", from: recorderAddress, to: PRECOMPILE_BALANCE });
      expect(inner.calls![0]!.value).to.equal(undefined);
      expect(inner.logs![0]!.topics[0]).to.equal(id("Recorded(address,uint256,uint256)"));
      expect(inner.logs![0]!.position).to.equal("0x1");
      // The precompile hands back what the inner call returned.
      const structs = await trace<StructTrace>(tx.hash, { enableReturnData: true });
      // The precompile runs no code of its own: the callee is one level below the caller, as on the reference node.
      expect(Math.max(...structs.structLogs.map((l) => l.depth))).to.equal(2);
      expect(structs.structLogs.some((l) => l.depth === 1 && l.returnData?.includes(toBeHex(42n, 32).slice(2)))).to.equal(true);
    });

    it("a transaction sent straight to nativeAssetCall: the callee's frame is from the sender", async () => {
      const { recorder, recorderAddress } = await fundedHarness();
      await chain.rpc("nativekit_setAssetBalance", [me, ASSET, "0x1000"]);
      const data = encodeNativeAssetCallInput({ to: recorderAddress, assetId: ASSET, amount: 7n, callData: recorder.interface.encodeFunctionData("recordAsset", [BigInt(ASSET)]) });
      const tx = await chain.signers[0]!.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data, gasLimit: 300_000n });
      expect((await tx.wait())!.status).to.equal(1);
      const result = await trace<CallFrame>(tx.hash, { tracer: "callTracer" });
      expect(result).to.include({ type: "CALL", from: me, to: PRECOMPILE_CALL });
      expect(result.calls![0]).to.include({ type: "CALL", from: me, to: recorderAddress });
      const structs = await trace<StructTrace>(tx.hash);
      expect(structs.failed).to.equal(false);
      expect(structs.structLogs.length).to.be.greaterThan(0);
      expect(structs.structLogs.some((l) => l.op === "SSTORE")).to.equal(true);
      expect(structs.structLogs.every((l) => l.depth === 1)).to.equal(true);
    });

    it("prestateTracer names nativeAssetCall's target; a failing inner call fails the precompile's frame", async () => {
      const { harness, recorder, recorderAddress } = await fundedHarness();
      const failing = recorder.interface.encodeFunctionData("fail", ["inner says no"]);
      const tx = await harness.assetCall(recorderAddress, BigInt(ASSET), 1n, failing, { gasLimit: 300_000n });
      expect((await tx.wait().catch(() => null))?.status ?? 0).to.equal(0);
      const calls = await trace<CallFrame>(tx.hash, { tracer: "callTracer" });
      expect(calls.error).to.equal("execution reverted");
      expect(calls.calls![0]!.error).to.equal("execution reverted");
      expect(calls.calls![0]!.calls![0]!.revertReason).to.equal("inner says no");
      const pre = await trace<Prestate>(tx.hash, { tracer: "prestateTracer" });
      expect(Object.keys(pre)).to.include(recorderAddress);
    });
  });

  describe("prestateTracer", () => {
    it("default mode: the touched accounts as they were before, with the slots read or written", async () => {
      const harness = await deployHarness();
      await (await harness.store(5n)).wait();
      const before = await chain.provider.getBalance(me);
      const nonce = await chain.provider.getTransactionCount(me);
      const tx = await harness.store(6n);
      const pre = await trace<Prestate>(tx.hash, { tracer: "prestateTracer" });
      const address = (await harness.getAddress()).toLowerCase();
      expect(pre[me]).to.deep.equal({ balance: q(before), nonce });
      expect(pre[address]!.storage).to.deep.equal({ [toBeHex(0n, 32)]: toBeHex(5n, 32) });
      expect(pre[address]!.code).to.equal(await chain.provider.getCode(address));
      expect(pre[address]!.nonce).to.equal(1);
    });

    it("diffMode: pre and post of what changed only", async () => {
      const harness = await deployHarness();
      await (await harness.store(5n)).wait();
      const tx = await harness.store(6n);
      const { pre, post } = await trace<{ pre: Prestate; post: Prestate }>(tx.hash, { tracer: "prestateTracer", tracerConfig: { diffMode: true } });
      const address = (await harness.getAddress()).toLowerCase();
      expect(pre[address]!.storage).to.deep.equal({ [toBeHex(0n, 32)]: toBeHex(5n, 32) });
      expect(post[address]).to.deep.equal({ storage: { [toBeHex(0n, 32)]: toBeHex(6n, 32) } });
      expect(post[me]!.nonce).to.equal(pre[me]!.nonce! + 1);
      expect(BigInt(post[me]!.balance!)).to.be.lessThan(BigInt(pre[me]!.balance!));
    });
  });

  describe("debug_traceCall", () => {
    it("traces a call on the latest state without changing it", async () => {
      const harness = await deployHarness();
      const address = await harness.getAddress();
      const data = harness.interface.encodeFunctionData("store", [11n]);
      const height = await chain.provider.getBlockNumber();
      const result = (await chain.rpc("debug_traceCall", [{ from: me, to: address, data }, "latest", { tracer: "callTracer" }])) as CallFrame;
      expect(result).to.include({ type: "CALL", from: me, to: address.toLowerCase(), input: data });
      expect(result.error).to.equal(undefined);
      const structs = (await chain.rpc("debug_traceCall", [{ from: me, to: address, data }, "latest"])) as StructTrace;
      expect(structs.structLogs.some((l) => l.op === "SSTORE")).to.equal(true);
      expect(await chain.provider.getStorage(address, 0)).to.equal(toBeHex(0n, 32));
      expect(await chain.provider.getBlockNumber()).to.equal(height);
    });

    it("runs with at most the node's gas cap", async () => {
      const harness = await deployHarness();
      const result = (await chain.rpc("debug_traceCall", [{ to: await harness.getAddress(), data: "0x", gas: q(40_000_000n) }, "latest", { tracer: "callTracer" }])) as CallFrame;
      expect(result.gas).to.equal(q(5_000_000n));
    });
  });

  describe("debug_traceBlockByNumber and debug_traceBlockByHash", () => {
    it("answer [{txHash, result}] for every transaction of the block, each as debug_traceTransaction traces it", async () => {
      const harness = await deployHarness();
      await chain.rpc("evm_setAutomine", [false]);
      const first = await harness.store(1n);
      const second = await harness.store(2n);
      await chain.rpc("evm_mine", []);
      await chain.rpc("evm_setAutomine", [true]);
      const block = await chain.provider.getBlock("latest");
      expect(block!.transactions).to.deep.equal([first.hash, second.hash]);
      const byNumber = (await chain.rpc("debug_traceBlockByNumber", [q(BigInt(block!.number)), { tracer: "prestateTracer" }])) as { txHash: string; result: Prestate }[];
      expect(byNumber.map((t) => t.txHash)).to.deep.equal([first.hash, second.hash]);
      // The second transaction starts from what the first one wrote.
      expect(byNumber[1]!.result[(await harness.getAddress()).toLowerCase()]!.storage).to.deep.equal({ [toBeHex(0n, 32)]: toBeHex(1n, 32) });
      expect(byNumber[1]!.result).to.deep.equal(await trace(second.hash, { tracer: "prestateTracer" }));
      const byHash = await chain.rpc("debug_traceBlockByHash", [block!.hash, { tracer: "prestateTracer" }]);
      expect(byHash).to.deep.equal(byNumber);
    });
  });

  describe("refusals", () => {
    it("an unknown transaction, an unknown tracer, an unknown block and the genesis block", async () => {
      const unknown = `0x${"ab".repeat(32)}`;
      expect(await rejection(trace(unknown))).to.include({ code: -32000, message: "transaction not found" });
      const tx = await chain.signers[0]!.sendTransaction({ to: chain.signers[1]!.address, value: 1n });
      expect(await rejection(trace(tx.hash, { tracer: "fourByteTracer" }))).to.include({ code: -32000, message: "tracer not found" });
      expect(await rejection(chain.rpc("debug_traceBlockByNumber", ["0x63"]))).to.include({ code: -32000, message: "block #99 not found" });
      expect(await rejection(chain.rpc("debug_traceBlockByHash", [unknown]))).to.include({ code: -32000, message: `block ${unknown} not found` });
      expect(await rejection(chain.rpc("debug_traceBlockByNumber", ["0x0"]))).to.include({ code: -32000, message: "genesis is not traceable" });
      expect((await rejection(trace(tx.hash, { disableStack: "yes" }))).code).to.equal(-32602);
      expect((await rejection(trace(tx.hash, { timeout: "soon" }))).code).to.equal(-32602);
    });

    it("a block that ran on a directly edited state is refused, not traced wrong", async () => {
      const fresh = "0x000000000000000000000000000000000000bee5";
      await chain.rpc("hardhat_impersonateAccount", [fresh]);
      await chain.rpc("hardhat_setBalance", [fresh, q(parseEther("1"))]);
      const hash = (await chain.rpc("eth_sendTransaction", [{ from: fresh, to: me, value: "0x1" }])) as string;
      const refused = await rejection(trace(hash));
      expect(refused.code).to.equal(-32000);
      expect(refused.message).to.match(/cannot be replayed as it ran.*edited directly/s);
    });

    it("a struct log over the limit is refused (-32005), not built; a time limit stops a trace", async () => {
      const created = await chain.signers[0]!.sendTransaction({ data: deployCode(ENDLESS_LOOP_RUNTIME) });
      const address = (await created.wait())!.contractAddress!;
      const tx = await chain.signers[0]!.sendTransaction({ to: address, gasLimit: 2_000_000n });
      const refused = await rejection(trace(tx.hash));
      expect(refused.code).to.equal(-32005);
      expect(refused.message).to.match(/more than 100000 entries/);
      // The call tracer keeps no entry per instruction: the same transaction traces.
      const calls = await trace<CallFrame>(tx.hash, { tracer: "callTracer" });
      expect(calls.error).to.equal("out of gas");
      expect(await rejection(trace(tx.hash, { tracer: "callTracer", timeout: "1ms" }))).to.include({ code: -32000, message: "execution timeout" });
      // In a block's trace, the stopped transaction gets its error and the next one its trace.
      await chain.rpc("evm_setAutomine", [false]);
      const endless = (await chain.rpc("eth_sendTransaction", [{ from: me, to: address, gas: q(2_000_000n) }])) as string;
      const after = (await chain.rpc("eth_sendTransaction", [{ from: me, to: chain.signers[1]!.address, value: "0x1" }])) as string;
      await chain.rpc("evm_mine", []);
      await chain.rpc("evm_setAutomine", [true]);
      const block = (await chain.rpc("debug_traceBlockByNumber", ["latest"])) as { txHash: string; result?: StructTrace; error?: string }[];
      expect(block.map((t) => t.txHash)).to.deep.equal([endless, after]);
      expect(block[0]!.error).to.match(/more than 100000 entries/);
      expect(block[0]!.result).to.equal(undefined);
      expect(block[1]!.result).to.deep.equal({ gas: 21000, failed: false, returnValue: "0x", structLogs: [] });
      // The chain goes on as before.
      const next = await chain.signers[0]!.sendTransaction({ to: chain.signers[1]!.address, value: 1n });
      expect((await next.wait())!.status).to.equal(1);
    });

    it("a time limit in microseconds, as Go writes them (\u00b5s or us), stops a trace too", async () => {
      const created = await chain.signers[0]!.sendTransaction({ data: deployCode(ENDLESS_LOOP_RUNTIME) });
      const address = (await created.wait())!.contractAddress!;
      const tx = await chain.signers[0]!.sendTransaction({ to: address, gasLimit: 2_000_000n });
      for (const timeout of ["1000\u00b5s", "1000us"]) {
        expect(await rejection(trace(tx.hash, { tracer: "callTracer", timeout }))).to.include({ code: -32000, message: "execution timeout" });
      }
      expect((await rejection(trace(tx.hash, { tracer: "callTracer", timeout: "1000xs" }))).code).to.equal(-32602);
    });
  });

  /**
   * The same transactions on anvil (the dev dependency's binary, Cancun rules, steps tracing on)
   * and here, from the same account at the same nonces, so the contracts have the same
   * addresses: the traces must agree but for what each node documents otherwise (anvil writes
   * memory and storage words with 0x and always writes `refund`; its top call frame's `gas` is
   * what is left after the intrinsic gas, geth's and ours the transaction's gas limit; it keeps
   * the logs of failed frames, which geth drops; a
   * creation that cannot pay for its code fails with "out of gas" there, with geth's "contract
   * creation code storage out of gas" here).
   */
  describe("against anvil, for plain contracts (no precompiles)", function () {
    this.timeout(60_000);
    let anvil: PeerProcess | undefined;
    const GAS = 300_000n;
    const DEPLOY_GAS = 3_000_000n;

    before(async () => {
      const base = anvilPeer();
      const spec: PeerSpec = { ...base, args: (port) => [...base.args(port), "--hardfork", "cancun", "--steps-tracing"] };
      anvil = (await startPeer(spec)).peer;
    });

    after(async () => {
      await anvil?.stop();
    });

    async function anvilRpc(method: string, params: unknown[]): Promise<unknown> {
      const response = await fetch(anvil!.spec.url(anvil!.port), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
      if (answer.error !== undefined) throw new Error(`anvil ${method}: ${answer.error.message}`);
      return answer.result;
    }

    /** The scenario on one node: deployments, a call, a revert, a nested call; the transactions' hashes by name. */
    async function scenario(rpc: (method: string, params: unknown[]) => Promise<unknown>): Promise<Record<string, string>> {
      const harness = RpcHarness__factory.createInterface();
      const proxy = NativeAssetsHarness__factory.createInterface();
      const send = async (tx: Record<string, string>) => {
        const hash = (await rpc("eth_sendTransaction", [{ from: me, gas: q(GAS), ...tx }])) as string;
        // anvil may answer eth_sendTransaction before the block with it is mined: wait for its receipt.
        for (let tries = 0; (await rpc("eth_getTransactionReceipt", [hash])) === null; tries++) {
          if (tries === 100) throw new Error(`no receipt for ${hash} after 100 polls`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return hash;
      };
      const created = async (hash: string) => ((await rpc("eth_getTransactionReceipt", [hash])) as { contractAddress: string }).contractAddress;
      const deploy = await send({ data: RpcHarness__factory.bytecode, gas: q(DEPLOY_GAS) });
      const harnessAddress = await created(deploy);
      const proxyAddress = await created(await send({ data: NativeAssetsHarness__factory.bytecode, gas: q(DEPLOY_GAS) }));
      await send({ to: harnessAddress, data: harness.encodeFunctionData("store", [5n]) });
      const forwarder = await created(await send({ data: await forwardingProxyDeployment(harnessAddress), gas: q(DEPLOY_GAS) }));
      return {
        // Too little gas to pay for the code it returns.
        deployOutOfGas: await send({ data: RpcHarness__factory.bytecode }),
        delegated: await send({ to: forwarder, data: harness.encodeFunctionData("store", [12n]) }),
        static: await send({ to: proxyAddress, data: proxy.encodeFunctionData("rawStaticCall", [harnessAddress, harness.encodeFunctionData("stored")]) }),
        deploy,
        store: await send({ to: harnessAddress, data: harness.encodeFunctionData("store", [77n]) }),
        revert: await send({ to: harnessAddress, data: harness.encodeFunctionData("storeThenMaybeFail", [1n, true, "nope"]) }),
        nested: await send({ to: proxyAddress, data: proxy.encodeFunctionData("rawCall", [harnessAddress, harness.encodeFunctionData("store", [9n])]) }),
      };
    }

    async function forwardingProxyDeployment(implementation: string): Promise<string> {
      return (await new ForwardingProxy__factory().getDeployTransaction(implementation)).data;
    }

    /** anvil's words written as geth writes them (see the describe's note). */
    function gethStyle(trace: StructTrace): StructTrace {
      const bare = (word: string) => (word.startsWith("0x") ? word.slice(2) : word);
      return {
        ...trace,
        structLogs: trace.structLogs.map((log) => {
          const out: StructLog & { refund?: number } = { ...log };
          if ((out as { refund?: number }).refund === 0) delete out.refund;
          if (out.memory !== undefined) out.memory = out.memory.map(bare);
          if (out.memory?.length === 0) delete out.memory;
          if (out.storage !== undefined) out.storage = Object.fromEntries(Object.entries(out.storage).map(([k, v]) => [bare(k), bare(v)]));
          if (out.returnData === "0x") delete out.returnData;
          return out;
        }),
      };
    }

    it("struct logs, call frames and pre-states agree", async () => {
      const ours = await scenario((method, params) => chain.rpc(method, params));
      const theirs = await scenario(anvilRpc);
      for (const name of ["deploy", "store", "revert", "nested", "delegated", "static", "deployOutOfGas"]) {
        const options = { enableMemory: true, enableReturnData: true };
        const mine = (await chain.rpc("debug_traceTransaction", [ours[name]!, options])) as StructTrace;
        const other = gethStyle((await anvilRpc("debug_traceTransaction", [theirs[name]!, options])) as StructTrace);
        expect(mine.structLogs.length, `${name}: entries`).to.equal(other.structLogs.length);
        expect(mine.structLogs.length, `${name}: entries`).to.be.greaterThan(10);
        expect({ ...mine, structLogs: [] }, name).to.deep.equal({ ...other, structLogs: [] });
        for (let i = 0; i < mine.structLogs.length; i++) expect(mine.structLogs[i], `${name}: entry ${i}`).to.deep.equal(other.structLogs[i]);

        const config = { tracer: "callTracer", tracerConfig: { withLog: true } };
        const myCalls = (await chain.rpc("debug_traceTransaction", [ours[name]!, config])) as CallFrame;
        const otherCalls = (await anvilRpc("debug_traceTransaction", [theirs[name]!, config])) as CallFrame;
        expect(myCalls.gas, name).to.equal(q(name === "deploy" ? DEPLOY_GAS : GAS));
        // A creation that cannot pay for its code: geth's words, where anvil says "out of gas".
        if (myCalls.error === "contract creation code storage out of gas") otherCalls.error = myCalls.error;
        // geth drops the logs of failed frames (they never happened); anvil keeps them.
        const dropFailedLogs = (frame: CallFrame, failed = false): void => {
          if (failed || frame.error !== undefined) delete frame.logs;
          for (const call of frame.calls ?? []) dropFailedLogs(call, failed || frame.error !== undefined);
        };
        dropFailedLogs(otherCalls);
        expect({ ...myCalls, gas: undefined }, name).to.deep.equal({ ...otherCalls, gas: undefined });
      }
      for (const name of ["deploy", "store", "nested", "delegated"]) {
        const config = { tracer: "prestateTracer", tracerConfig: { diffMode: true } };
        const mine = (await chain.rpc("debug_traceTransaction", [ours[name]!, config])) as { pre: Prestate; post: Prestate };
        const other = (await anvilRpc("debug_traceTransaction", [theirs[name]!, config])) as { pre: Prestate; post: Prestate };
        // The fee recipients and the fees differ; the contracts' accounts agree.
        for (const side of ["pre", "post"] as const) {
          for (const address of Object.keys(other[side])) {
            if (address === me || BigInt(address) === 0n) continue;
            expect(mine[side][address], `${name} ${side} ${address}`).to.deep.equal(other[side][address]);
          }
        }
      }
    });
  });
});
