import { expect } from "chai";

import { Engine } from "../../src/engine/engine";
import { rejection, startChain, type TestChain } from "../helpers/chain";

// eth_sendTransaction answers as soon as its transaction has run; the block's roots are
// computed right after, and every later request waits for that.
describe("automine: a transaction's block is sealed after the answer, before anything else runs", () => {
  let chain: TestChain;
  let from: string;
  let to: string;

  beforeEach(async () => {
    chain = await startChain();
    [from, to] = (await chain.rpc("eth_accounts")) as string[];
  });

  it("a request sent together with the transaction already sees its block, receipt and state", async () => {
    const before = BigInt((await chain.rpc("eth_blockNumber")) as string);
    const [hash, height, balance] = await Promise.all([
      chain.rpc("eth_sendTransaction", [{ from, to, value: "0x7" }]) as Promise<string>,
      chain.rpc("eth_blockNumber") as Promise<string>,
      chain.rpc("eth_getBalance", [to, "latest"]) as Promise<string>,
    ]);
    expect(BigInt(height)).to.equal(before + 1n);
    expect(BigInt(balance)).to.equal(10_000n * 10n ** 18n + 7n);
    const receipt = (await chain.rpc("eth_getTransactionReceipt", [hash])) as { blockNumber: string; blockHash: string };
    expect(BigInt(receipt.blockNumber)).to.equal(before + 1n);
    const block = (await chain.rpc("eth_getBlockByNumber", [height, false])) as { hash: string; transactions: string[] };
    expect(block.hash).to.equal(receipt.blockHash);
    expect(block.transactions).to.deep.equal([hash]);
  });

  it("a reverting transaction's error is answered (throwOnTransactionFailures) and its block is still mined", async () => {
    chain = await startChain({ throwOnTransactionFailures: true });
    const before = BigInt((await chain.rpc("eth_blockNumber")) as string);
    // Calling the contract-chain's balance precompile with a malformed input reverts.
    const failure = await rejection(
      chain.rpc("eth_sendTransaction", [{ from, to: "0x0100000000000000000000000000000000000001", data: "0x01", gas: "0x30000" }]),
    );
    expect(failure.message).to.match(/revert/i);
    expect(BigInt((await chain.rpc("eth_blockNumber")) as string)).to.equal(before + 1n);
  });

  it("if sealing ever fails, the failure is logged and every later request says the simulator stopped", async () => {
    const lines: string[] = [];
    const failing = await startChain({ log: (line) => lines.push(line) });
    const engine = failing.native.engine as unknown as { blocks: { sealBlock: () => Promise<never> } };
    engine.blocks.sealBlock = async () => {
      throw new Error("injected failure");
    };
    const [account] = (await failing.rpc("eth_accounts")) as string[];
    await failing.rpc("eth_sendTransaction", [{ from: account, to: account, value: "0x1" }]);
    const after = await rejection(failing.rpc("eth_blockNumber"));
    expect(after.code).to.equal(-32603);
    expect(after.message).to.equal("the simulator stopped after an internal error: injected failure");
    expect(lines.some((l) => /block 1 could not be sealed \(injected failure\)/.test(l))).to.equal(true);
  });

  it("mining without sealLater (evm_mine, direct engine use) returns only once the block is on the chain", async () => {
    const engine: Engine = chain.native.engine;
    const before = engine.head.number;
    const { record } = await engine.mineBlock();
    expect(engine.head.number).to.equal(before + 1n);
    expect(engine.head.hash).to.equal(record.hash);
  });
});
