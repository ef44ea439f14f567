import { expect } from "chai";
import hre from "hardhat";
import { createNativeProvider, type NativeProvider } from "../../src/engine/provider";
import { ExecutionFailureRpcError } from "../../src/engine/api/errors";
import { DEFAULT_RPC_GAS_CAP } from "../../src/engine/options";
import { medianLatencyMs } from "../helpers/latency";
import { refusalOf } from "../helpers/refusal";

/** Init code that returns the gas left when it runs: GAS, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN. */
const RETURN_GAS_LEFT = "0x5a60005260206000f3";
const ALL_THE_GAS = "0xffffffffffffffff";

async function loopingContract(provider: NativeProvider): Promise<{ address: string; burnGas: string }> {
  const [from] = (await provider.request({ method: "eth_accounts" })) as string[];
  const hash = (await provider.request({ method: "eth_sendTransaction", params: [{ from, data: (await hre.artifacts.readArtifact("Failing")).bytecode }] })) as string;
  const { contractAddress } = (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { contractAddress: string };
  const burnGas = (await hre.ethers.getContractFactory("Failing")).interface.encodeFunctionData("burnGas");
  return { address: contractAddress, burnGas };
}

describe("hostile input: eth_call and eth_estimateGas run with at most rpcGasCap gas", () => {
  it("a call that asks for all the gas runs with the cap, 50 000 000 by default", async () => {
    const provider = await createNativeProvider();
    const gasLeft = BigInt((await provider.request({ method: "eth_call", params: [{ data: RETURN_GAS_LEFT, gas: ALL_THE_GAS }, "latest"] })) as string);
    expect(gasLeft).to.be.below(DEFAULT_RPC_GAS_CAP);
    expect(gasLeft).to.be.above(DEFAULT_RPC_GAS_CAP - 100_000n);
  });

  it("an endless loop asked to run with all the gas stops at the cap, and the next cheap request answers at once", async () => {
    const provider = await createNativeProvider({ rpcGasCap: 2_000_000n });
    const { address, burnGas } = await loopingContract(provider);
    const started = performance.now();
    const error = await refusalOf(provider.request({ method: "eth_call", params: [{ to: address, data: burnGas, gas: ALL_THE_GAS }, "latest"] }), ExecutionFailureRpcError);
    expect(error.message).to.equal("out of gas");
    // 2M gas of a storage loop takes a fraction of a second; all the gas took minutes before the cap.
    expect(performance.now() - started).to.be.below(5_000);
    expect(await medianLatencyMs(() => provider.request({ method: "eth_blockNumber" }))).to.be.below(50);
  });

  it("an estimate of an endless loop searches no higher than the cap", async () => {
    const provider = await createNativeProvider({ rpcGasCap: 2_000_000n, blockGasLimit: 30_000_000n });
    const { address, burnGas } = await loopingContract(provider);
    const error = await refusalOf(provider.request({ method: "eth_estimateGas", params: [{ to: address, data: burnGas, gas: ALL_THE_GAS }] }), ExecutionFailureRpcError);
    expect(error.message).to.equal("out of gas");
  });

  it("a call within the cap runs with the gas it asks for", async () => {
    const provider = await createNativeProvider({ rpcGasCap: 2_000_000n });
    const gasLeft = BigInt((await provider.request({ method: "eth_call", params: [{ data: RETURN_GAS_LEFT, gas: "0x100000" }, "latest"] })) as string);
    expect(gasLeft).to.be.above(0x100000n - 60_000n);
    expect(gasLeft).to.be.below(0x100000n);
  });
});
