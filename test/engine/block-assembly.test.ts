import { expect } from "chai";
import fc from "fast-check";
import { Interface } from "ethers";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { RLP } from "@ethereumjs/rlp";
import { MerkleStateManager } from "@ethereumjs/statemanager";

import { createNativeProvider, type NativeProvider } from "../../src/engine";
import { orderedTrieRoot } from "../../src/engine/block-roots";
import artifact from "../../artifacts/contracts/test/RpcHarness.sol/RpcHarness.json";

type Json = Record<string, string>;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/**
 * The engine's own block assembly and write-back storage must give the same chain as
 * ethereumjs' BlockBuilder with its write-through storage: the same block hashes (so the same
 * state, transactions and receipts roots, logs bloom and gas used) for the same transactions.
 */
describe("block assembly", () => {
  const GENESIS_TIME = 1_700_000_000;

  /** An engine as it was before: BlockBuilder for every block, every SSTORE written to the trie. */
  function useEthereumjsPaths(provider: NativeProvider): void {
    const engine = provider.engine as unknown as { blocks: { canAssembleBlocks: boolean }; stateManager: { putStorage: unknown } };
    engine.blocks.canAssembleBlocks = false;
    engine.stateManager.putStorage = MerkleStateManager.prototype.putStorage;
  }

  async function scenario(provider: NativeProvider): Promise<Json[]> {
    const rpc = (method: string, params: unknown[] = []) => provider.request({ method, params });
    const [from, other] = (await rpc("eth_accounts")) as string[];
    const iface = new Interface(artifact.abi);
    let time = GENESIS_TIME;
    const send = async (tx: Record<string, unknown>) => {
      await rpc("evm_setNextBlockTimestamp", [++time]);
      return (await rpc("eth_sendTransaction", [{ from, gas: "0x200000", ...tx }])) as string;
    };
    const deployHash = await send({ data: artifact.bytecode, gas: "0x4c4b40" });
    const { contractAddress: to } = (await rpc("eth_getTransactionReceipt", [deployHash])) as { contractAddress: string };
    const call = (name: string, args: unknown[], extra: Record<string, unknown> = {}) => send({ to, data: iface.encodeFunctionData(name, args), ...extra });
    await call("store", [5n]);
    await call("put", [1n, 10n]);
    await call("put", [2n, 20n]);
    await call("put", [1n, 0n]); // a slot cleared
    await call("ping", [[1n, 2n, 3n]]);
    await call("checkLimit", [10n, 1n]); // reverts: mined with status 0
    await send({ to: "0x00000000000000000000000000000000000000aa", value: "0x5" });
    await send({ to: other, value: "0x7", type: "0x0", gasPrice: "0x174876e800" });
    // Several transactions, from two senders, in one block.
    await rpc("evm_setAutomine", [false]);
    const data = (name: string, args: unknown[]) => iface.encodeFunctionData(name, args);
    await rpc("eth_sendTransaction", [{ from, to, data: data("put", [3n, 30n]), gas: "0x30000" }]);
    await rpc("eth_sendTransaction", [{ from, to, data: data("store", [0n]), gas: "0x30000" }]);
    await rpc("eth_sendTransaction", [{ from: other, to, data: data("ping", [[9n]]), gas: "0x30000" }]);
    await rpc("eth_sendTransaction", [{ from: other, to: from, value: "0x1", gas: "0x5208" }]);
    await rpc("evm_mine", [++time]);
    await rpc("evm_mine", [++time]); // an empty block
    await rpc("evm_setAutomine", [true]);
    // The beacon roots contract with code: EIP-4788 writes its ring buffer in every block.
    await rpc("hardhat_setCode", ["0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02", "0x00"]);
    await rpc("hardhat_setPrevRandao", ["0x" + "11".repeat(32)]);
    await call("put", [4n, 40n]);
    await rpc("hardhat_setStorageAt", [to, "0x0", "0x" + "00".repeat(31) + "09"]);
    await call("store", [6n]);
    const height = Number(await rpc("eth_blockNumber"));
    const blocks: Json[] = [];
    for (let n = 0; n <= height; n++) blocks.push((await rpc("eth_getBlockByNumber", ["0x" + n.toString(16), false])) as Json);
    return blocks;
  }

  for (const hardfork of ["cancun", "shanghai"] as const) {
    it(`gives the same blocks as ethereumjs' BlockBuilder (${hardfork})`, async () => {
      const options = { genesisTimestamp: GENESIS_TIME, hardfork };
      const lean = await createNativeProvider(options);
      const reference = await createNativeProvider(options);
      useEthereumjsPaths(reference);
      const [a, b] = [await scenario(lean), await scenario(reference)];
      expect(a.length).to.equal(14);
      const fields = (block: Json) => [block.number, block.hash, block.stateRoot, block.transactionsRoot, block.receiptsRoot, block.logsBloom, block.gasUsed];
      expect(a.map(fields)).to.deep.equal(b.map(fields));
      expect(a.some((block) => (block.transactions as unknown as string[]).length === 4)).to.equal(true);
    });
  }

  it("computes transactions and receipts roots as a trie does", async () => {
    const rootByTrie = async (items: Uint8Array[]) => {
      const trie = new MerklePatriciaTrie();
      for (let i = 0; i < items.length; i++) await trie.put(RLP.encode(i), items[i]!);
      return hex(trie.root());
    };
    const common = (await createNativeProvider()).engine.common;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 1, maxLength: 300 }), { maxLength: 4 }), async (items) => {
        expect(hex(await orderedTrieRoot(items, common))).to.equal(await rootByTrie(items));
      }),
      { numRuns: 100 },
    );
  });
});
