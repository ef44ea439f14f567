import { expect } from "chai";

import type { ChainState } from "../../src/engine/chain-state";
import { startChain, type TestChain } from "../helpers/chain";

/**
 * The EVM's journal keeps one entry per checkpoint until a transaction's clean-up clears it. A
 * block without transactions checkpoints (EIP-4788's beacon root) and commits, but runs no
 * transaction, so unless the block's sealing clears the journal, every empty block mined adds
 * an entry for as long as the chain lives: about a kilobyte per block, unbounded.
 */
function journalEntries(chain: TestChain): number {
  const state = (chain.native.engine as unknown as { state: ChainState }).state;
  return (state.vm.evm.journal as unknown as { journalDiff: unknown[] }).journalDiff.length;
}

describe("mining empty blocks keeps the EVM's journal empty", () => {
  it("evm_mine of 200 empty blocks leaves the journal as one mined block does", async () => {
    const chain = await startChain();
    await chain.rpc("evm_mine");
    const afterOne = journalEntries(chain);
    for (let i = 0; i < 200; i++) await chain.rpc("evm_mine");
    expect(journalEntries(chain)).to.equal(afterOne);
  });

  it("hardhat_mine of 2000 blocks leaves the journal as one mined block does", async () => {
    const chain = await startChain();
    await chain.rpc("evm_mine");
    const afterOne = journalEntries(chain);
    await chain.rpc("hardhat_mine", ["0x7d0"]);
    expect(journalEntries(chain)).to.equal(afterOne);
  });

  it("a block with a transaction after empty ones still leaves the journal as one mined block does", async () => {
    const chain = await startChain();
    const [from, to] = (await chain.rpc("eth_accounts")) as string[];
    await chain.rpc("evm_mine");
    const afterOne = journalEntries(chain);
    await chain.rpc("hardhat_mine", ["0x10"]);
    await chain.rpc("eth_sendTransaction", [{ from, to, value: "0x1" }]);
    await chain.rpc("evm_mine");
    expect(journalEntries(chain)).to.equal(afterOne);
  });
});
