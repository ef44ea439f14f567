import { expect } from "chai";
import { AbiCoder, concat, getBytes, hexlify, toBeHex } from "ethers";
import { encodeNativeAssetCallInput } from "../../src/encoding";
import { CallRecorder__factory } from "../../typechain-types";
import { startChain, testAssetId, type TestChain } from "../helpers/chain";

const ASSET = testAssetId(0xa55e7);

/**
 * Runtime code of a relay, hand-assembled (no Solidity: it must control its memory and depth).
 * Call data: a 32-byte word n, then a nativeAssetCall input.
 * - n > 0: CALLs itself with n - 1 and the same input; returns the child's 32-byte word,
 *   or 0xff if that CALL failed.
 * - n = 0: copies the input to memory offset 0, CALLs nativeAssetCall with it, then overwrites
 *   memory offset 0 with the CALL's success flag (1 or 0) and returns that word.
 * The relay called by a transaction runs at depth 0, so the copy that calls the precompile
 * runs at depth n, the precompile at n + 1 and its callee at n + 2.
 */
const RELAY_RUNTIME = concat([
  "0x5f35", // PUSH0 CALLDATALOAD: n
  "0x80603257", // DUP1 PUSH1 0x32 JUMPI: n != 0 -> recurse
  // n = 0
  "0x50", // POP
  "0x60203603", // PUSH1 32 CALLDATASIZE SUB: len = size - 32
  "0x8060205f37", // DUP1 PUSH1 32 PUSH0 CALLDATACOPY: memory[0..len] = input
  "0x5f5f825f5f", // retSize 0, retOffset 0, argsSize len, argsOffset 0, value 0
  "0x730100000000000000000000000000000000000002", // PUSH20 nativeAssetCall
  "0x5af1", // GAS CALL
  "0x5f52", // PUSH0 MSTORE: memory[0..32] = success
  "0x60205ff3", // RETURN memory[0..32]
  // recurse (0x32)
  "0x5b", // JUMPDEST
  "0x365f5f37", // CALLDATASIZE PUSH0 PUSH0 CALLDATACOPY: memory = call data
  "0x60019003", // PUSH1 1 SWAP1 SUB: n - 1
  "0x5f52", // PUSH0 MSTORE: memory[0..32] = n - 1
  "0x60205f365f5f305af1", // retSize 32, retOffset 0, argsSize size, argsOffset 0, value 0, ADDRESS, GAS, CALL
  "0x15604e57", // ISZERO PUSH1 0x4e JUMPI: failed -> fail
  "0x60205ff3", // RETURN memory[0..32] (the child's word)
  // fail (0x4e)
  "0x5b60ff5f5260205ff3", // JUMPDEST, memory[0..32] = 0xff, RETURN it
]);

/** Init code (9 bytes): copies the runtime that follows it to memory and returns it. */
function deployCode(runtime: string): string {
  const length = toBeHex(getBytes(runtime).length, 1);
  // PUSH1 length, DUP1, PUSH1 9, PUSH0, CODECOPY; PUSH0, RETURN
  return concat(["0x60", length, "0x806009", "0x5f39", "0x5ff3", runtime]);
}

async function deployRelay(chain: TestChain): Promise<string> {
  const tx = await chain.signers[0]!.sendTransaction({ data: deployCode(RELAY_RUNTIME) });
  const receipt = await tx.wait();
  return receipt!.contractAddress!;
}

function relayInput(n: number, input: string): string {
  return concat([AbiCoder.defaultAbiCoder().encode(["uint256"], [n]), input]);
}

describe("nativeAssetCall and call depth", () => {
  let chain: TestChain;
  let relay: string;
  before(async () => {
    // Enough gas for 1024 nested calls, each keeping 1/64 of what it has.
    chain = await startChain({ blockGasLimit: 10n ** 13n, rpcGasCap: 10n ** 13n });
    relay = await deployRelay(chain);
  });

  async function relayed(n: number, input: string): Promise<bigint> {
    return BigInt((await chain.rpc("eth_call", [{ from: chain.signers[0]!.address, to: relay, data: relayInput(n, input) }])) as string);
  }

  it("succeeds when its callee lands at depth 1024, the deepest a frame can run", async () => {
    const input = encodeNativeAssetCallInput({ to: chain.signers[1]!.address, assetId: ASSET, amount: 0n });
    expect(await relayed(1022, input)).to.equal(1n);
  });

  it("fails when its callee would land at depth 1025: the precompile counts as a frame", async () => {
    const input = encodeNativeAssetCallInput({ to: chain.signers[1]!.address, assetId: ASSET, amount: 0n });
    expect(await relayed(1023, input)).to.equal(0n);
  });

  it("runs its callee one frame below the precompile: at depth 1024 the callee cannot call on", async () => {
    const recorder = await new CallRecorder__factory(chain.signers[0]!).deploy();
    // recordAsset reads its balance through nativeAssetBalance: one more CALL.
    const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(ASSET)]);
    const input = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 0n, callData });
    expect(await relayed(1021, input), "callee at 1023").to.equal(1n);
    expect(await relayed(1022, input), "callee at 1024").to.equal(0n);
  });
});

describe("nativeAssetCall input fields", () => {
  it("uses `to` as it was at the call: the callee's events keep its address after the caller reuses that memory", async () => {
    const chain = await startChain();
    const relay = await deployRelay(chain);
    const recorder = await new CallRecorder__factory(chain.signers[0]!).deploy();
    const callData = recorder.interface.encodeFunctionData("recordAsset", [BigInt(ASSET)]);
    const input = encodeNativeAssetCallInput({ to: await recorder.getAddress(), assetId: ASSET, amount: 0n, callData });
    const tx = await chain.signers[0]!.sendTransaction({ to: relay, data: relayInput(0, input), gasLimit: 500_000 });
    const receipt = (await tx.wait())!;
    expect(receipt.status).to.equal(1);
    expect(receipt.logs.map((log) => log.address)).to.deep.equal([await recorder.getAddress()]);
    expect(hexlify(receipt.logs[0]!.topics[0]!)).to.equal(recorder.interface.getEvent("Recorded").topicHash);
  });
});
