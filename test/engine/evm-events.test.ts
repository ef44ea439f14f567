import { EventEmitter } from "node:events";

import { expect } from "chai";

import { createNativeProvider, type NativeProvider } from "../../src/engine/provider";

/** Creation code of a contract whose code returns 42 (its constructor runs a few instructions). */
const RETURNS_42 = "0x600a600c600039600a6000f3602a60005260206000f3";
const RUNTIME_STEPS = ["PUSH1", "PUSH1", "MSTORE", "PUSH1", "PUSH1", "RETURN"];

async function deployReturns42(provider: NativeProvider): Promise<string> {
  const [from] = (await provider.request({ method: "eth_accounts" })) as string[];
  const hash = await provider.request({ method: "eth_sendTransaction", params: [{ from, data: RETURNS_42 }] });
  return ((await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { contractAddress: string }).contractAddress;
}

const call = (provider: NativeProvider, to: string, block = "latest") => provider.request({ method: "eth_call", params: [{ to }, block] });

describe("engine: the EVM events of a chain, heard through EngineOptions.evmEvents", () => {
  it("a listener added before the chain starts hears its transactions' and calls' instructions", async () => {
    const events = new EventEmitter();
    const steps: string[] = [];
    events.on("step", (step: { opcode: { name: string } }) => steps.push(step.opcode.name));
    const provider = await createNativeProvider({ evmEvents: events });
    const to = await deployReturns42(provider);
    expect(steps.slice(-2)).to.deep.equal(["PUSH1", "RETURN"]); // the constructor's last two
    steps.length = 0;
    await call(provider, to);
    expect(steps).to.deep.equal(RUNTIME_STEPS);
  });

  it("one listener hears every VM of the chain: the head's, a past block's, and the new chain's after hardhat_reset", async () => {
    const events = new EventEmitter();
    const provider = await createNativeProvider({ evmEvents: events });
    const to = await deployReturns42(provider);
    const deployedAt = (await provider.request({ method: "eth_blockNumber" })) as string;
    await provider.request({ method: "evm_mine" });
    let steps = 0;
    events.on("step", () => steps++);
    await call(provider, to);
    await call(provider, to, deployedAt); // a past block's state, run by a VM of its own
    expect(steps).to.equal(2 * RUNTIME_STEPS.length);
    await provider.request({ method: "hardhat_reset", params: [] });
    await call(provider, await deployReturns42(provider));
    expect(steps).to.be.greaterThan(3 * RUNTIME_STEPS.length);
  });

  it("a listener removed hears nothing more", async () => {
    const events = new EventEmitter();
    const provider = await createNativeProvider({ evmEvents: events });
    const to = await deployReturns42(provider);
    let steps = 0;
    const listener = () => steps++;
    events.on("step", listener);
    await call(provider, to);
    events.off("step", listener);
    await call(provider, to);
    expect(steps).to.equal(RUNTIME_STEPS.length);
  });
});
