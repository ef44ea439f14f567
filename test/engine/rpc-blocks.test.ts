import { expect } from "chai";

import { startChain, type TestChain } from "../helpers/chain";

type Json = Record<string, unknown>;
const isQuantity = (v: unknown) => typeof v === "string" && /^0x(0|[1-9a-f][0-9a-f]*)$/.test(v);
const isData = (v: unknown, bytes?: number) =>
  typeof v === "string" && (bytes === undefined ? /^0x([0-9a-f]{2})*$/ : new RegExp(`^0x[0-9a-f]{${bytes * 2}}$`)).test(v);

describe("standard JSON-RPC: blocks", () => {
  let chain: TestChain;
  let from: string;
  let to: string;
  /** Hashes of the transactions sent in `before`, one block each (blocks 1..3). */
  const sent: string[] = [];

  const send = async (value: bigint) => {
    const hash = (await chain.rpc("eth_sendTransaction", [{ from, to, value: "0x" + value.toString(16) }])) as string;
    sent.push(hash);
    return hash;
  };
  const block = (tag: unknown, full = false) => chain.rpc("eth_getBlockByNumber", [tag, full]) as Promise<Json | null>;

  before(async () => {
    chain = await startChain();
    from = chain.signers[0]!.address.toLowerCase();
    to = chain.signers[1]!.address.toLowerCase();
    for (let i = 1n; i <= 3n; i++) await send(i);
  });

  it("eth_blockNumber starts at 0 and advances by one per transaction with automine", async () => {
    const fresh = await startChain();
    expect(await fresh.rpc("eth_blockNumber")).to.equal("0x0");
    for (let i = 1; i <= 3; i++) {
      await fresh.rpc("eth_sendTransaction", [{ from, to, value: "0x1" }]);
      expect(await fresh.rpc("eth_blockNumber")).to.equal("0x" + i.toString(16));
    }
  });

  it("eth_getBlockByNumber(latest) is the block of the last transaction, listing its hash", async () => {
    const latest = (await block("latest"))!;
    expect(latest.number).to.equal("0x3");
    expect(latest.transactions).to.deep.equal([sent[2]]);
  });

  it("eth_getBlockByNumber(earliest) is the genesis block, with no transactions and a zero parent hash", async () => {
    const genesis = (await block("earliest"))!;
    expect(genesis.number).to.equal("0x0");
    expect(genesis.transactions).to.deep.equal([]);
    expect(genesis.parentHash).to.equal("0x" + "00".repeat(32));
    expect(await block("0x0")).to.deep.equal(genesis);
  });

  it("eth_getBlockByNumber(pending) answers with a block object, not an error", async () => {
    const pending = await block("pending");
    expect(pending).to.be.an("object");
    expect(BigInt(pending!.number as string)).to.be.gte(3n);
  });

  it("eth_getBlockByNumber with a number returns that block", async () => {
    const second = (await block("0x2"))!;
    expect(second.number).to.equal("0x2");
    expect(second.transactions).to.deep.equal([sent[1]]);
  });

  it("eth_getBlockByNumber of a block above the head is null", async () => {
    expect(await block("0x64")).to.equal(null);
  });

  it("eth_getBlockByHash returns the same block as by number", async () => {
    const byNumber = (await block("0x2", true))!;
    expect(await chain.rpc("eth_getBlockByHash", [byNumber.hash, true])).to.deep.equal(byNumber);
  });

  it("eth_getBlockByHash of an unknown hash is null", async () => {
    expect(await chain.rpc("eth_getBlockByHash", ["0x" + "ab".repeat(32), false])).to.equal(null);
  });

  it("without full transactions a block lists transaction hashes; with them, transaction objects", async () => {
    const hashes = (await block("0x1", false))!;
    const full = (await block("0x1", true))!;
    expect(hashes.transactions).to.deep.equal([sent[0]]);
    const [tx] = full.transactions as Json[];
    expect(tx).to.include({ hash: sent[0], blockHash: full.hash, blockNumber: "0x1", transactionIndex: "0x0", from, to, value: "0x1" });
    expect(await chain.rpc("eth_getTransactionByHash", [sent[0]])).to.deep.equal(tx);
  });

  it("a block has every standard field, well-formed", async () => {
    const b = (await block("latest"))!;
    for (const key of ["number", "difficulty", "gasLimit", "gasUsed", "timestamp", "baseFeePerGas", "size", "totalDifficulty"]) {
      expect(isQuantity(b[key]), key).to.equal(true);
    }
    for (const key of ["hash", "parentHash", "sha3Uncles", "stateRoot", "transactionsRoot", "receiptsRoot", "mixHash"]) {
      expect(isData(b[key], 32), key).to.equal(true);
    }
    expect(isData(b.logsBloom, 256)).to.equal(true);
    expect(isData(b.nonce, 8)).to.equal(true);
    expect(isData(b.miner, 20)).to.equal(true);
    expect(isData(b.extraData)).to.equal(true);
    expect(b.uncles).to.deep.equal([]);
  });

  it("each block's parentHash is the hash of the block before it", async () => {
    for (let n = 1; n <= 3; n++) {
      const child = (await block("0x" + n.toString(16)))!;
      const parent = (await block("0x" + (n - 1).toString(16)))!;
      expect(child.parentHash).to.equal(parent.hash);
    }
  });

  it("block hashes are distinct and the block's hash is what ethers reports", async () => {
    const hashes = new Set<string>();
    for (let n = 0; n <= 3; n++) hashes.add((await block("0x" + n.toString(16)))!.hash as string);
    expect(hashes.size).to.equal(4);
    const viaEthers = await chain.provider.getBlock(2);
    expect(viaEthers!.hash).to.equal((await block("0x2"))!.hash);
  });

  it("timestamps never decrease from one block to the next", async () => {
    let previous = -1n;
    for (let n = 0; n <= 3; n++) {
      const timestamp = BigInt((await block("0x" + n.toString(16)))!.timestamp as string);
      expect(timestamp >= previous).to.equal(true);
      previous = timestamp;
    }
  });

  it("the block timestamp is close to the wall clock", async () => {
    const timestamp = Number((await block("latest"))!.timestamp);
    expect(Math.abs(timestamp - Date.now() / 1000)).to.be.lessThan(60);
  });

  it("a block's gasUsed equals the sum of its receipts' gasUsed", async () => {
    const batch = await startChain({ automine: false });
    const a = batch.signers[0]!.address;
    const b = batch.signers[1]!.address;
    await batch.rpc("eth_sendTransaction", [{ from: a, to: b, value: "0x1" }]);
    await batch.rpc("eth_sendTransaction", [{ from: b, to: a, value: "0x1", data: "0x1234" }]);
    await batch.rpc("evm_mine");
    const mined = (await batch.rpc("eth_getBlockByNumber", ["latest", false])) as Json;
    const hashes = mined.transactions as string[];
    expect(hashes).to.have.length(2);
    let sum = 0n;
    let cumulative = 0n;
    for (const hash of hashes) {
      const receipt = (await batch.rpc("eth_getTransactionReceipt", [hash])) as Json;
      sum += BigInt(receipt.gasUsed as string);
      cumulative = BigInt(receipt.cumulativeGasUsed as string);
    }
    expect(BigInt(mined.gasUsed as string)).to.equal(sum);
    expect(cumulative).to.equal(sum);
  });

  it("baseFeePerGas is present on every block, genesis included, and never below the 25 gwei floor", async () => {
    for (let n = 0; n <= 3; n++) {
      const fee = BigInt((await block("0x" + n.toString(16)))!.baseFeePerGas as string);
      expect(fee >= 25_000_000_000n).to.equal(true);
    }
  });

  it("eth_getBlockTransactionCountByNumber / ByHash count the block's transactions; unknown blocks give null", async () => {
    const b = (await block("0x1"))!;
    expect(await chain.rpc("eth_getBlockTransactionCountByNumber", ["0x1"])).to.equal("0x1");
    expect(await chain.rpc("eth_getBlockTransactionCountByHash", [b.hash])).to.equal("0x1");
    expect(await chain.rpc("eth_getBlockTransactionCountByNumber", ["0x0"])).to.equal("0x0");
    expect(await chain.rpc("eth_getBlockTransactionCountByNumber", ["0x100"])).to.equal(null);
  });

  it("eth_getBlockReceipts returns the receipts of the block's transactions", async () => {
    const receipts = (await chain.rpc("eth_getBlockReceipts", ["0x2"])) as Json[];
    expect(receipts.map((r) => r.transactionHash)).to.deep.equal([sent[1]]);
  });

  it("ethers provider.getBlock and getBlockNumber agree with the raw methods", async () => {
    expect(await chain.provider.getBlockNumber()).to.equal(Number(await chain.rpc("eth_blockNumber")));
    const b = await chain.provider.getBlock("latest", true);
    expect(b!.transactions).to.deep.equal([sent[sent.length - 1]]);
    expect(b!.prefetchedTransactions[0]!.hash).to.equal(sent[sent.length - 1]);
  });
});
