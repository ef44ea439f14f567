import { expect } from "chai";
import { AbiCoder } from "ethers";

import { startChain, type TestChain } from "../helpers/chain";

// Init code run by an eth_call without `to`: returns the block it runs in as four words, NUMBER,
// TIMESTAMP, GASLIMIT and BASEFEE (each stored with MSTORE, then RETURN 128 bytes).
const BLOCK_CONTEXT = "0x" + ["43600052", "42602052", "45604052", "48606052", "60806000f3"].join("");

interface CallBlock {
  number: bigint;
  timestamp: bigint;
  gasLimit: bigint;
  baseFee: bigint;
}

describe("engine: the block an eth_call runs in", () => {
  let chain: TestChain;

  const callBlock = async (request: Record<string, unknown> = {}, tag: string = "latest"): Promise<CallBlock> => {
    const out = (await chain.rpc("eth_call", [{ data: BLOCK_CONTEXT, ...request }, tag])) as string;
    const [number, timestamp, gasLimit, baseFee] = AbiCoder.defaultAbiCoder().decode(["uint256", "uint256", "uint256", "uint256"], out) as unknown as bigint[];
    return { number: number!, timestamp: timestamp!, gasLimit: gasLimit!, baseFee: baseFee! };
  };
  const headNumber = async () => BigInt((await chain.rpc("eth_blockNumber")) as string);

  beforeEach(async () => {
    chain = await startChain();
  });

  it("is the head's successor for a call on the head, and the new head's once another block is mined", async () => {
    const head = await headNumber();
    expect((await callBlock()).number).to.equal(head + 1n);
    expect((await callBlock()).number).to.equal(head + 1n);
    await chain.rpc("evm_mine");
    expect((await callBlock()).number).to.equal(head + 2n);
  });

  it("is the block itself for a call on a past block, between calls on the head", async () => {
    await chain.rpc("evm_mine");
    await chain.rpc("evm_mine");
    const head = await headNumber();
    const past = (await chain.rpc("eth_getBlockByNumber", ["0x" + (head - 1n).toString(16), false])) as { timestamp: string };
    expect((await callBlock()).number).to.equal(head + 1n);
    const atPast = await callBlock({}, "0x" + (head - 1n).toString(16));
    expect(atPast.number).to.equal(head - 1n);
    expect(atPast.timestamp).to.equal(BigInt(past.timestamp));
    expect((await callBlock()).number).to.equal(head + 1n);
  });

  it("is the block itself for a call on the block that was the head when the last call ran", async () => {
    const head = await headNumber();
    const tag = "0x" + head.toString(16);
    expect((await callBlock({}, tag)).number).to.equal(head + 1n);
    await chain.rpc("evm_mine");
    expect((await callBlock({}, tag)).number).to.equal(head);
  });

  it("has room for each call's own gas: the block gas limit, or a call's larger gas", async () => {
    const blockGasLimit = (await callBlock()).gasLimit;
    expect((await callBlock({ gas: "0x" + (blockGasLimit * 2n).toString(16) })).gasLimit).to.equal(blockGasLimit * 2n);
    expect((await callBlock()).gasLimit).to.equal(blockGasLimit);
  });

  it("has the next block's base fee for a call that names a fee, and 0 for one that does not", async () => {
    const from = chain.signers[0]!.address;
    const feeCap = "0x" + (10n ** 12n).toString(16);
    const withFee = await callBlock({ from, gasPrice: feeCap });
    expect(withFee.baseFee > 0n).to.equal(true);
    expect((await callBlock({ from })).baseFee).to.equal(0n);
    expect((await callBlock({ from, gasPrice: feeCap })).baseFee).to.equal(withFee.baseFee);
  });

  it("has the timestamp set for the next block, once it is set", async () => {
    const before = await callBlock();
    const next = before.timestamp + 1000n;
    await chain.rpc("evm_setNextBlockTimestamp", ["0x" + next.toString(16)]);
    expect((await callBlock()).timestamp).to.equal(next);
  });
});
