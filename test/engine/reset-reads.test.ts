import { expect } from "chai";
import { RpcHarness__factory } from "../../typechain-types";
import { BLOCK_PREFIX } from "../../src/engine/persistence/stored-layout";
import type { StoreBackend } from "../../src/storage";
import { levelBackend, startStoredChain, type ReopenableBackend } from "../helpers/stored-chain";

/**
 * What hardhat_reset reads of a chain kept in a store: the blocks it takes off the chain are
 * read only when a logs filter or subscription reports their logs as removed, so a reset of a
 * long chain with nothing watching its logs does not read every block.
 */

/** The backend, counting the stored blocks read through it. */
function countingBlockReads(inner: StoreBackend): { backend: StoreBackend; blockReads: () => number } {
  let reads = 0;
  const isBlock = (key: string) => key.startsWith(`c/${BLOCK_PREFIX}`);
  const backend: StoreBackend = {
    get: (key) => {
      if (isBlock(key)) reads++;
      return inner.get(key);
    },
    getSync: (key) => {
      if (isBlock(key)) reads++;
      return inner.getSync(key);
    },
    write: (ops) => inner.write(ops),
    entries: (prefix) => {
      if (isBlock(prefix)) reads++;
      return inner.entries(prefix);
    },
    close: () => inner.close(),
  };
  return { backend, blockReads: () => reads };
}

describe("hardhat_reset on a chain kept in a store", function () {
  this.timeout(60_000);
  let stored: ReopenableBackend;

  /** A chain of 12 blocks, each with a log, kept in LevelDB and opened again (nothing cached). */
  async function reopenedChainWithLogs() {
    const first = await startStoredChain(stored.backend());
    const harness = await new RpcHarness__factory(first.signers[0]!).deploy();
    await harness.waitForDeployment();
    for (let i = 0; i < 11; i++) await (await harness.store(i + 1)).wait();
    expect(await first.rpc("eth_blockNumber")).to.equal("0xc");
    await stored.reopen();
    const counted = countingBlockReads(stored.backend());
    return { chain: await startStoredChain(counted.backend), blockReads: counted.blockReads };
  }

  beforeEach(async () => {
    stored = await levelBackend();
  });
  afterEach(async () => stored.dispose());

  it("reads none of the former chain's blocks when no logs filter watches it", async () => {
    const { chain, blockReads } = await reopenedChainWithLogs();
    const before = blockReads();
    await chain.rpc("hardhat_reset");
    expect(blockReads() - before).to.equal(0);
    expect(await chain.rpc("eth_blockNumber")).to.equal("0x0");
  });

  it("reads them, and a logs filter reports every log as removed, when one is installed", async () => {
    const { chain, blockReads } = await reopenedChainWithLogs();
    const filter = await chain.rpc("eth_newFilter", [{ fromBlock: "0x0" }]);
    const before = blockReads();
    await chain.rpc("hardhat_reset");
    expect(blockReads() - before).to.be.greaterThan(0);
    const changes = (await chain.rpc("eth_getFilterChanges", [filter])) as { removed: boolean }[];
    expect(changes).to.have.length(11);
    expect(changes.every((log) => log.removed)).to.equal(true);
  });
});
