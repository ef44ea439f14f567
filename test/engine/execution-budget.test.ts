/**
 * The execution budget (issue 26 item 1): an eth_call or eth_estimateGas stops at the engine's
 * `rpcEvmTimeoutMs` with geth's message, whether it loops (JUMPDEST) or recurses without a jump
 * (frame starts); a running execution gives the event loop turns; a Hardhat network's EVM has no
 * budget at all.
 */
import { expect } from "chai";

import { ExecutionTimeoutError } from "../../src/engine/errors";
import type { NativeEVM } from "../../src/engine/precompiles";
import { createNativeProvider, type NativeProvider } from "../../src/engine/provider";
import { resolveNativekitConfig } from "../../src/hardhat/config";
import { networkEngineOptions } from "../../src/hardhat/network-options";
import { RpcError } from "../../src/rpc/errors";
import { refusalOf } from "../helpers/refusal";

/** JUMPDEST, PUSH1 0, JUMP: runs until its gas is gone. */
const ENDLESS_LOOP = "0x5b600056";
/**
 * Calls itself twice per frame with all its gas, without a single jump: 0 0 0 0 0 ADDRESS GAS
 * CALL POP, twice, then STOP. The calls make a tree far larger than any time limit.
 */
const SELF_CALLS = `0x${"6000600060006000600030" + "5af150"}`.replace(/^(0x)(.*)$/, (_, p, body: string) => `${p}${body}${body}00`);
const ALL_THE_GAS = "0x2faf080"; // 50 000 000

async function evmOf(provider: NativeProvider): Promise<NativeEVM> {
  const vm = await (provider.engine as unknown as { state: { vmAt(record: unknown): Promise<{ evm: unknown }> } }).state.vmAt(provider.engine.head);
  return vm.evm as NativeEVM;
}

describe("engine: the execution budget of calls and estimates", () => {
  it("an endless eth_call stops at rpcEvmTimeoutMs with 'execution aborted (timeout = 200ms)'", async () => {
    const provider = await createNativeProvider({ rpcEvmTimeoutMs: 200 });
    const started = performance.now();
    const error = await refusalOf(provider.request({ method: "eth_call", params: [{ data: ENDLESS_LOOP, gas: ALL_THE_GAS }, "latest"] }), RpcError);
    expect(error.code).to.equal(-32000);
    expect(error.message).to.equal("execution aborted (timeout = 200ms)");
    expect(performance.now() - started).to.be.below(2_000);
  });

  it("a contract that only calls itself, without a jump, is stopped at the start of a frame", async () => {
    const provider = await createNativeProvider({ rpcEvmTimeoutMs: 200, rpcGasCap: 0n, blockGasLimit: 1_000_000_000n });
    const address = "0x00000000000000000000000000000000000c0de5";
    await provider.request({ method: "hardhat_setCode", params: [address, SELF_CALLS] });
    const error = await refusalOf(provider.request({ method: "eth_call", params: [{ to: address, gas: "0x3b9aca00" }, "latest"] }), RpcError);
    expect(error.message).to.equal("execution aborted (timeout = 200ms)");
  });

  it("an estimate's whole search shares one time limit", async () => {
    const provider = await createNativeProvider({ rpcEvmTimeoutMs: 300 });
    const started = performance.now();
    const error = await refusalOf(provider.request({ method: "eth_estimateGas", params: [{ data: ENDLESS_LOOP, gas: ALL_THE_GAS }] }), RpcError);
    expect(error.message).to.equal("execution aborted (timeout = 300ms)");
    expect(performance.now() - started).to.be.below(2_000);
  });

  it("after an aborted call the state is as before and the next call runs in full", async () => {
    const provider = await createNativeProvider({ rpcEvmTimeoutMs: 100 });
    const [from] = (await provider.request({ method: "eth_accounts" })) as string[];
    const balance = await provider.request({ method: "eth_getBalance", params: [from, "latest"] });
    await refusalOf(provider.request({ method: "eth_call", params: [{ from, data: ENDLESS_LOOP, gas: ALL_THE_GAS, value: "0x1" }, "latest"] }), RpcError);
    expect(await provider.request({ method: "eth_getBalance", params: [from, "latest"] })).to.equal(balance);
    // PUSH1 1, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN: returns 1.
    expect(await provider.request({ method: "eth_call", params: [{ data: "0x600160005260206000f3" }, "latest"] })).to.equal(`0x${"0".repeat(63)}1`);
    await provider.request({ method: "evm_mine" });
    expect(await provider.request({ method: "eth_blockNumber" })).to.equal("0x1");
  });

  it("timers run while a long call runs: the call gives the event loop a turn every few milliseconds", async () => {
    const provider = await createNativeProvider({ rpcEvmTimeoutMs: 600 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      await refusalOf(provider.request({ method: "eth_call", params: [{ data: ENDLESS_LOOP, gas: ALL_THE_GAS }, "latest"] }), RpcError);
    } finally {
      clearInterval(timer);
    }
    // Without turns the timer could not fire until the call had ended: at most once.
    expect(ticks).to.be.above(10);
  });

  it("with rpcEvmTimeoutMs 0 a call runs until its gas is gone", async () => {
    const provider = await createNativeProvider({ rpcEvmTimeoutMs: 0, rpcGasCap: 1_000_000n });
    const error = await refusalOf(provider.request({ method: "eth_call", params: [{ data: ENDLESS_LOOP, gas: ALL_THE_GAS }, "latest"] }), RpcError);
    expect(error.message).to.equal("out of gas");
  });

  it("a Hardhat network's EVM runs without a budget (no custom JUMPDEST), a node's with one", async () => {
    const hardhat = await createNativeProvider(networkEngineOptions(resolveNativekitConfig(), () => undefined));
    expect((await evmOf(hardhat)).budget).to.equal(undefined);
    const node = await createNativeProvider({ unqueuedReads: true });
    expect((await evmOf(node)).budget).to.not.equal(undefined);
  });

  it("writes the limit as Go writes a duration", () => {
    expect(new ExecutionTimeoutError(5_000).message).to.equal("execution aborted (timeout = 5s)");
    expect(new ExecutionTimeoutError(1_500).message).to.equal("execution aborted (timeout = 1.5s)");
    expect(new ExecutionTimeoutError(250).message).to.equal("execution aborted (timeout = 250ms)");
  });

  it("refuses a time limit that is not a whole number of milliseconds", async () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      const error = await refusalOf(createNativeProvider({ rpcEvmTimeoutMs: bad }), TypeError);
      expect(error.message).to.contain("rpcEvmTimeoutMs must be a whole number of milliseconds");
    }
  });
});
