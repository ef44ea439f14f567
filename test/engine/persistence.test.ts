import { expect } from "chai";
import { NativeAssetsHarness__factory, RpcHarness__factory } from "../../typechain-types";
import type { TestChain } from "../helpers/chain";
import { rejection, startChain, testAssetId } from "../helpers/chain";
import { levelBackend, memoryBackend, startStoredChain, type ReopenableBackend } from "../helpers/stored-chain";

const ASSET = testAssetId(7);
const hexq = (n: bigint | number) => "0x" + n.toString(16);

/** Everything a client can read of the chain: every block with its transactions and receipts, the logs. */
async function chainContents(chain: TestChain): Promise<unknown[]> {
  const height = Number(await chain.rpc("eth_blockNumber"));
  const out: unknown[] = [];
  for (let n = 0; n <= height; n++) {
    out.push(await chain.rpc("eth_getBlockByNumber", [hexq(n), true]));
    out.push(await chain.rpc("eth_getBlockReceipts", [hexq(n)]));
  }
  out.push(await chain.rpc("eth_getLogs", [{ fromBlock: "earliest", toBlock: "latest" }]));
  return out;
}

/** The state of `addresses` at `block`: balances, nonces, code, a few storage slots, the test asset. */
async function stateAt(chain: TestChain, addresses: string[], block: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const address of addresses) {
    out.push(await chain.rpc("eth_getBalance", [address, block]));
    out.push(await chain.rpc("eth_getTransactionCount", [address, block]));
    out.push(await chain.rpc("eth_getCode", [address, block]));
    for (const slot of ["0x0", "0x1", "0x2"]) out.push(await chain.rpc("eth_getStorageAt", [address, slot, block]));
    out.push(await chain.rpc("eth_getAssetBalance", [address, block, ASSET]));
  }
  return out;
}

const backends: [string, () => Promise<ReopenableBackend>][] = [
  ["in memory", async () => memoryBackend()],
  ["in LevelDB", levelBackend],
];

for (const [where, makeBackend] of backends) {
  describe(`contract chain persistence: a chain kept ${where}`, function () {
    this.timeout(60_000);
    let stored: ReopenableBackend;

    beforeEach(async () => {
      stored = await makeBackend();
    });
    afterEach(async () => stored.dispose());

    const open = () => startStoredChain(stored.backend());
    const reopen = async () => {
      await stored.reopen();
      return open();
    };

    /** A history with contracts, events, a failed transaction and multi-coin transfers through the precompile. */
    async function makeHistory(chain: TestChain): Promise<{ addresses: string[]; failedHash: string }> {
      const [s0, s1] = chain.signers;
      const harness = await new RpcHarness__factory(s0!).deploy();
      const assets = await new NativeAssetsHarness__factory(s0!).deploy();
      await (await harness.store(11)).wait();
      await (await harness.put(1, 70)).wait();
      await (await harness.ping([1, 2, 3])).wait();
      const failed = await harness.storeThenMaybeFail(5, true, "nope", { gasLimit: 200_000 });
      const assetsAddress = await assets.getAddress();
      await chain.rpc("nativekit_setAssetBalance", [assetsAddress, ASSET, "0x64"]);
      await (await assets.assetCall(s1!.address, BigInt(ASSET), 40n, "0x")).wait();
      await (await s1!.sendTransaction({ to: s0!.address, value: 12345n })).wait();
      return { addresses: [s0!.address, s1!.address, await harness.getAddress(), assetsAddress], failedHash: failed.hash };
    }

    it("reopens the same chain: blocks, receipts, logs and state at the head and at an older block", async () => {
      const first = await open();
      expect(first.native.engine.restored).to.equal(false);
      const { addresses, failedHash } = await makeHistory(first);
      const before = {
        head: await first.rpc("eth_getBlockByNumber", ["latest", false]),
        contents: await chainContents(first),
        latest: await stateAt(first, addresses, "latest"),
        older: await stateAt(first, addresses, "0x4"),
        failed: first.native.engine.chain.transaction(failedHash)!.receipt,
      };

      const second = await reopen();
      expect(second.native.engine.restored).to.equal(true);
      expect(await second.rpc("eth_getBlockByNumber", ["latest", false])).to.deep.equal(before.head);
      expect(await chainContents(second)).to.deep.equal(before.contents);
      expect(await stateAt(second, addresses, "latest")).to.deep.equal(before.latest);
      expect(await stateAt(second, addresses, "0x4")).to.deep.equal(before.older);
      const failed = second.native.engine.chain.transaction(failedHash)!.receipt;
      expect({ ...failed, logs: [] }).to.deep.equal({ ...before.failed, logs: [] });
      expect(failed.error).to.equal("execution reverted: nope");
    });

    it("goes on from the stored head: nonces continue and new blocks chain onto it", async () => {
      const first = await open();
      await makeHistory(first);
      const head = (await first.rpc("eth_getBlockByNumber", ["latest", false])) as { hash: string; number: string };
      const nonce = await first.rpc("eth_getTransactionCount", [first.signers[0]!.address, "latest"]);

      const second = await reopen();
      const [s0, s1] = second.signers;
      expect(await second.rpc("eth_getTransactionCount", [s0!.address, "latest"])).to.equal(nonce);
      const receipt = await (await s0!.sendTransaction({ to: s1!.address, value: 1n })).wait();
      const block = (await second.rpc("eth_getBlockByNumber", ["latest", false])) as { parentHash: string; number: string };
      expect(block.parentHash).to.equal(head.hash);
      expect(BigInt(block.number)).to.equal(BigInt(head.number) + 1n);
      expect(receipt!.status).to.equal(1);

      // And that block is kept too.
      const third = await reopen();
      expect(await third.rpc("eth_getBlockByNumber", ["latest", false])).to.deep.equal(await second.rpc("eth_getBlockByNumber", ["latest", false]));
    });

    it("keeps direct edits of the head state", async () => {
      const first = await open();
      const target = "0x00000000000000000000000000000000000000aa";
      await first.rpc("hardhat_setBalance", [target, "0x1234"]);
      await first.rpc("hardhat_setNonce", [target, "0x7"]);
      await first.rpc("hardhat_setCode", [target, "0x6001600055"]);
      await first.rpc("hardhat_setStorageAt", [target, "0x1", "0x" + "ab".padStart(64, "0")]);
      await first.rpc("nativekit_setAssetBalance", [target, ASSET, "0x99"]);
      const before = await stateAt(first, [target], "latest");

      const second = await reopen();
      expect(await stateAt(second, [target], "latest")).to.deep.equal(before);
      // The edit belongs to the head state, not to the genesis block's stored root.
      expect(await second.rpc("eth_getBalance", [target, "latest"])).to.equal("0x1234");
    });

    it("keeps the chain as evm_revert left it", async () => {
      const first = await open();
      const [s0, s1] = first.signers;
      await (await s0!.sendTransaction({ to: s1!.address, value: 1n })).wait();
      const snapshot = await first.rpc("evm_snapshot");
      const kept = await chainContents(first);
      const keptState = await stateAt(first, [s0!.address, s1!.address], "latest");
      const dropped = await (await s0!.sendTransaction({ to: s1!.address, value: 2n })).wait();
      await first.rpc("nativekit_setAssetBalance", [s1!.address, ASSET, "0x5"]);
      expect(await first.rpc("evm_revert", [snapshot])).to.equal(true);

      const second = await reopen();
      expect(await chainContents(second)).to.deep.equal(kept);
      expect(await stateAt(second, [s0!.address, s1!.address], "latest")).to.deep.equal(keptState);
      expect(await second.rpc("eth_getTransactionByHash", [dropped!.hash])).to.equal(null);
      // The height of the dropped block is free again.
      await (await second.signers[0]!.sendTransaction({ to: s1!.address, value: 3n })).wait();
      expect(await second.rpc("eth_blockNumber")).to.equal("0x2");
    });

    it("keeps the new genesis after hardhat_reset", async () => {
      const first = await open();
      await makeHistory(first);
      await first.rpc("hardhat_reset");
      const genesis = await first.rpc("eth_getBlockByNumber", ["0x0", true]);
      const state = await stateAt(first, [first.signers[0]!.address], "latest");

      const second = await reopen();
      expect(second.native.engine.restored).to.equal(true);
      expect(await second.rpc("eth_blockNumber")).to.equal("0x0");
      expect(await second.rpc("eth_getBlockByNumber", ["0x0", true])).to.deep.equal(genesis);
      expect(await stateAt(second, [second.signers[0]!.address], "latest")).to.deep.equal(state);
    });

    it("refuses a stored chain of another chain ID", async () => {
      await open();
      await stored.reopen();
      const error = await rejection(startStoredChain(stored.backend(), { chainId: 1337 }));
      expect(error.message).to.match(/stored chain has chain ID 43112/);
    });
  });
}

describe("contract chain persistence: without a store", () => {
  it("stays in memory and says it was not restored", async () => {
    const chain = await startChain();
    expect(chain.native.engine.restored).to.equal(false);
    await (await chain.signers[0]!.sendTransaction({ to: chain.signers[1]!.address, value: 1n })).wait();
    expect(await chain.rpc("eth_blockNumber")).to.equal("0x1");
  });
});

describe("contract chain persistence: with forking", () => {
  it("refuses a fork kept in a store before calling the remote", async () => {
    const error = await rejection(startStoredChain(memoryBackend().backend(), { forking: { url: "http://127.0.0.1:9/never-called" } }));
    expect(error.message).to.include("cannot be combined with a data directory (--db-dir)");
  });
});
