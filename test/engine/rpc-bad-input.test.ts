import { expect } from "chai";
import { HDNodeWallet, Mnemonic, Wallet, isError } from "ethers";

import { RpcHarness__factory, type RpcHarness } from "../../typechain-types";
import { rejection, startChain, type TestChain } from "../helpers/chain";

type Json = Record<string, unknown>;
const MNEMONIC = "test test test test test test test test test test test junk";
const mnemonicKey = (i: number) => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(MNEMONIC), "m/44'/60'/0'/0").deriveChild(i).privateKey;
const hexq = (n: bigint | number) => "0x" + n.toString(16);
const ADDRESS = "0x" + "12".repeat(20);

describe("standard JSON-RPC: bad input", () => {
  let chain: TestChain;
  let harness: RpcHarness;
  let from: string;
  let to: string;
  let wallet: Wallet;

  /** Block number, balances and nonces that must not move when a request is rejected. */
  const observe = async () => {
    const out: unknown[] = [await chain.rpc("eth_blockNumber")];
    for (const a of [from, to, wallet.address]) {
      out.push(await chain.rpc("eth_getBalance", [a, "latest"]), await chain.rpc("eth_getTransactionCount", [a, "pending"]));
    }
    out.push(await chain.rpc("eth_getStorageAt", [await harness.getAddress(), "0x0", "latest"]));
    return out;
  };

  /** Rejects with the expected code and a message matching `pattern`; the chain state is unchanged. */
  const rejectsCleanly = async (promise: () => Promise<unknown>, code: number | undefined, pattern: RegExp) => {
    const before = await observe();
    const error = await rejection(promise());
    if (code !== undefined) expect(error.code, error.message).to.equal(code);
    expect(error.message).to.match(pattern);
    expect(await observe()).to.deep.equal(before);
    return error;
  };

  /** A signed transaction from `wallet` with sensible defaults, overridden by `fields`. */
  const signed = async (fields: Record<string, unknown> = {}, signer: Wallet | HDNodeWallet = wallet) =>
    signer.signTransaction({
      to,
      value: 1n,
      nonce: await chain.provider.getTransactionCount(signer.address, "pending"),
      gasLimit: 21_000n,
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 0n,
      chainId: 43112n,
      type: 2,
      ...fields,
    });

  before(async () => {
    chain = await startChain();
    from = chain.signers[0]!.address.toLowerCase();
    to = chain.signers[1]!.address.toLowerCase();
    wallet = new Wallet(mnemonicKey(7), chain.provider);
    harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await harness.waitForDeployment();
    await (await wallet.sendTransaction({ to, value: 1n })).wait();
  });

  describe("methods and parameter lists", () => {
    it("an unknown method fails with -32601 naming the method", async () => {
      const error = await rejectsCleanly(() => chain.rpc("eth_doesNotExist", []), -32601, /eth_doesNotExist/);
      expect(error.message).to.match(/does not exist/);
    });

    it("too many parameters fail with -32602 naming the method and the count", async () => {
      await rejectsCleanly(() => chain.rpc("eth_blockNumber", ["0x1"]), -32602, /eth_blockNumber.*got 1/);
      await rejectsCleanly(() => chain.rpc("eth_getBalance", [from, "latest", "extra"]), -32602, /eth_getBalance.*got 3/);
    });

    it("missing required parameters fail with -32602", async () => {
      await rejectsCleanly(() => chain.rpc("eth_getBalance", []), -32602, /eth_getBalance.*got 0/);
      await rejectsCleanly(() => chain.rpc("eth_getStorageAt", [from]), -32602, /eth_getStorageAt/);
    });

    it("params given as an object instead of an array fail with -32602", async () => {
      await rejectsCleanly(() => chain.native.request({ method: "eth_getBalance", params: { address: from } as never }), -32602, /array/);
    });
  });

  describe("malformed values", () => {
    it("a malformed address fails with -32602 naming the address parameter", async () => {
      for (const bad of ["0x1234", "1234567890123456789012345678901234567890", "0x" + "zz".repeat(20), 42]) {
        await rejectsCleanly(() => chain.rpc("eth_getBalance", [bad, "latest"]), -32602, /address/);
      }
    });

    it("a malformed quantity fails with -32602 naming the field", async () => {
      await rejectsCleanly(() => chain.rpc("eth_sendTransaction", [{ from, to, value: "100" }]), -32602, /transaction\.value/);
      await rejectsCleanly(() => chain.rpc("eth_sendTransaction", [{ from, to, gas: "0xg" }]), -32602, /transaction\.gas/);
      await rejectsCleanly(() => chain.rpc("eth_getTransactionByBlockNumberAndIndex", ["latest", "first"]), -32602, /index/);
    });

    it("malformed hex data (odd length, no 0x, non-hex) fails with -32602 naming the field", async () => {
      await rejectsCleanly(() => chain.rpc("eth_call", [{ to, data: "0x123" }, "latest"]), -32602, /transaction\.input/);
      await rejectsCleanly(() => chain.rpc("eth_call", [{ to, data: "1234" }, "latest"]), -32602, /transaction\.input/);
      await rejectsCleanly(() => chain.rpc("eth_sendRawTransaction", ["0xnothex"]), -32602, /transaction/);
    });

    it("a bad block tag fails with -32602 naming the block parameter and the accepted tags", async () => {
      await rejectsCleanly(() => chain.rpc("eth_getBalance", [from, "newest"]), -32602, /block.*latest/);
      await rejectsCleanly(() => chain.rpc("eth_getBlockByNumber", ["top", false]), -32602, /block/);
      await rejectsCleanly(() => chain.rpc("eth_getLogs", [{ fromBlock: "first" }]), -32602, /fromBlock/);
    });

    it("a malformed block or transaction hash fails with -32602", async () => {
      await rejectsCleanly(() => chain.rpc("eth_getBlockByHash", ["0x1234", false]), -32602, /blockHash/);
      await rejectsCleanly(() => chain.rpc("eth_getTransactionReceipt", ["0x1234"]), -32602, /transactionHash/);
    });

    it("a fullTransactions flag that is not a boolean fails with -32602", async () => {
      await rejectsCleanly(() => chain.rpc("eth_getBlockByNumber", ["latest", "true"]), -32602, /fullTransactions must be true or false/);
      await rejectsCleanly(() => chain.rpc("eth_getBlockByHash", ["0x" + "00".repeat(32), 1]), -32602, /fullTransactions/);
    });

    it("a transaction request that is not an object fails with -32602", async () => {
      await rejectsCleanly(() => chain.rpc("eth_sendTransaction", ["0x1234"]), -32602, /transaction must be an object/);
    });

    it("both gasPrice and maxFeePerGas in one request fail with -32602", async () => {
      await rejectsCleanly(
        () => chain.rpc("eth_sendTransaction", [{ from, to, gasPrice: "0x1", maxFeePerGas: "0x1" }]),
        -32602,
        /gasPrice.*maxFeePerGas/,
      );
    });

    it("maxFeePerGas below maxPriorityFeePerGas fails with -32602 naming both", async () => {
      await rejectsCleanly(
        () => chain.rpc("eth_sendTransaction", [{ from, to, maxFeePerGas: hexq(30_000_000_000n), maxPriorityFeePerGas: hexq(40_000_000_000n) }]),
        -32602,
        /maxFeePerGas \(30000000000\) is below transaction\.maxPriorityFeePerGas \(40000000000\)/,
      );
    });

    it("garbage bytes as a raw transaction fail with -32602", async () => {
      await rejectsCleanly(() => chain.rpc("eth_sendRawTransaction", ["0x1234"]), -32602, /invalid raw transaction/);
    });
  });

  describe("transactions the node refuses", () => {
    it("eth_sendTransaction from an account the node holds no key for fails with a clear error", async () => {
      await rejectsCleanly(() => chain.rpc("eth_sendTransaction", [{ from: ADDRESS, to }]), -32000, /unknown account.*eth_sendRawTransaction/);
    });

    it("eth_sendTransaction without from fails with a clear error", async () => {
      await rejectsCleanly(() => chain.rpc("eth_sendTransaction", [{ to }]), undefined, /from/);
    });

    it("eth_sendTransaction whose call reverts (gas not given) fails with the revert reason and sends nothing", async () => {
      const data = harness.interface.encodeFunctionData("storeThenMaybeFail", [5, true, "no way"]);
      const error = await rejectsCleanly(() => chain.rpc("eth_sendTransaction", [{ from, to: harness.target, data }]), 3, /execution reverted: no way/);
      expect(harness.interface.parseError(error.data as string)?.args[0]).to.equal("no way");
    });

    it("a raw transaction with a nonce already used fails with 'nonce too low' (ethers: NONCE_EXPIRED)", async () => {
      const raw = await signed({ nonce: 0, value: 2n });
      await rejectsCleanly(() => chain.rpc("eth_sendRawTransaction", [raw]), -32000, /nonce too low/);
      const before = await observe();
      const error = await wallet.sendTransaction({ to, value: 3n, nonce: 0 }).catch((e: unknown) => e);
      expect(isError(error, "NONCE_EXPIRED")).to.equal(true);
      expect(await observe()).to.deep.equal(before);
    });

    it("a raw transaction from an unfunded key fails with 'insufficient funds' (ethers: INSUFFICIENT_FUNDS)", async () => {
      const poor = Wallet.createRandom().connect(chain.provider);
      const raw = await signed({}, poor);
      await rejectsCleanly(() => chain.rpc("eth_sendRawTransaction", [raw]), -32000, /insufficient funds/);
      const error = await poor.sendTransaction({ to, value: 1n, gasLimit: 21_000n }).catch((e: unknown) => e);
      expect(isError(error, "INSUFFICIENT_FUNDS")).to.equal(true);
    });

    it("a raw transaction whose value plus fee exceeds the balance fails with 'insufficient funds'", async () => {
      const balance = await chain.provider.getBalance(wallet.address);
      const raw = await signed({ value: balance });
      await rejectsCleanly(() => chain.rpc("eth_sendRawTransaction", [raw]), -32000, /insufficient funds/);
    });

    it("a raw transaction with less gas than the intrinsic cost fails with 'intrinsic gas too low'", async () => {
      const raw = await signed({ gasLimit: 20_000n });
      await rejectsCleanly(() => chain.rpc("eth_sendRawTransaction", [raw]), -32000, /intrinsic gas too low/);
    });

    it("a raw transaction with more gas than the block gas limit fails and names the limit", async () => {
      const raw = await signed({ gasLimit: 15_000_001n });
      await rejectsCleanly(() => chain.rpc("eth_sendRawTransaction", [raw]), -32000, /exceeds the block gas limit 15000000/);
    });

    it("a raw transaction whose fee cap is below the base fee fails and names both", async () => {
      const raw = await signed({ maxFeePerGas: 1_000_000_000n });
      await rejectsCleanly(() => chain.rpc("eth_sendRawTransaction", [raw]), -32000, /1000000000.*base fee/);
    });

    it("the same raw transaction sent again after it was mined fails with 'nonce too low'", async () => {
      const raw = await signed();
      await chain.rpc("eth_sendRawTransaction", [raw]);
      await rejectsCleanly(() => chain.rpc("eth_sendRawTransaction", [raw]), -32000, /nonce too low/);
    });

    it("a nonce gap with automine on fails with 'nonce too high'", async () => {
      const raw = await signed({ nonce: (await chain.provider.getTransactionCount(wallet.address)) + 5 });
      await rejectsCleanly(() => chain.rpc("eth_sendRawTransaction", [raw]), -32000, /nonce too high/);
    });

    it("after all the rejected requests the chain still accepts a valid transaction", async () => {
      const receipt = await (await wallet.sendTransaction({ to, value: 2n })).wait();
      expect(receipt!.status).to.equal(1);
    });
  });

  describe("state is never corrupted by a failing transaction", () => {
    it("a reverting transaction (explicit gas) is mined with status 0x0", async () => {
      const data = harness.interface.encodeFunctionData("storeThenMaybeFail", [5, true, "no way"]);
      const height = BigInt((await chain.rpc("eth_blockNumber")) as string);
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to: harness.target, data, gas: hexq(100_000) }])) as string;
      const receipt = (await chain.rpc("eth_getTransactionReceipt", [hash])) as Json;
      expect(receipt.status).to.equal("0x0");
      expect(receipt.blockNumber).to.equal(hexq(height + 1n));
      expect(receipt.logs).to.deep.equal([]);
    });

    it("a reverting transaction changes only the sender's balance (the fee) and nonce", async () => {
      const target = await harness.getAddress();
      await (await harness.store(1)).wait();
      const balanceBefore = await chain.provider.getBalance(from);
      const nonceBefore = await chain.provider.getTransactionCount(from);
      const targetBalance = await chain.provider.getBalance(target);
      const data = harness.interface.encodeFunctionData("storeThenMaybeFail", [5, true, "no way"]);
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to: target, data, gas: hexq(100_000) }])) as string;
      const receipt = (await chain.rpc("eth_getTransactionReceipt", [hash])) as Json;
      const fee = BigInt(receipt.gasUsed as string) * BigInt(receipt.effectiveGasPrice as string);
      expect(await chain.provider.getBalance(from)).to.equal(balanceBefore - fee);
      expect(await chain.provider.getTransactionCount(from)).to.equal(nonceBefore + 1);
      expect(await harness.stored()).to.equal(1n);
      expect(await chain.provider.getBalance(target)).to.equal(targetBalance);
    });

    it("value sent with a reverting transaction stays with the sender", async () => {
      const target = await harness.getAddress();
      const before = await chain.provider.getBalance(target);
      const data = harness.interface.encodeFunctionData("requireAbove10", [1]); // non-payable and reverting
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to: target, data, value: hexq(10n ** 18n), gas: hexq(100_000) }])) as string;
      expect(((await chain.rpc("eth_getTransactionReceipt", [hash])) as Json).status).to.equal("0x0");
      expect(await chain.provider.getBalance(target)).to.equal(before);
    });

    it("an out-of-gas transaction consumes its whole gas limit and changes nothing else", async () => {
      const data = harness.interface.encodeFunctionData("fill", [70_000, 20]);
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to: harness.target, data, gas: hexq(60_000) }])) as string;
      const receipt = (await chain.rpc("eth_getTransactionReceipt", [hash])) as Json;
      expect(receipt.status).to.equal("0x0");
      expect(receipt.gasUsed).to.equal(hexq(60_000));
      expect(await harness.values(70_000)).to.equal(0n);
    });

    it("ethers reports a mined reverted transaction as CALL_EXCEPTION from wait(), with the receipt", async () => {
      const response = await harness.storeThenMaybeFail(5, true, "no way", { gasLimit: 100_000 });
      const error = await response.wait().catch((e: unknown) => e);
      expect(isError(error, "CALL_EXCEPTION")).to.equal(true);
      expect((error as { receipt: { status: number } }).receipt.status).to.equal(0);
    });

    it("the next transaction after a revert succeeds and sees the pre-revert state", async () => {
      await (await harness.store(8)).wait();
      const data = harness.interface.encodeFunctionData("storeThenMaybeFail", [9, true, "stop"]);
      await chain.rpc("eth_sendTransaction", [{ from, to: harness.target, data, gas: hexq(100_000) }]);
      await (await harness.put(1, (await harness.stored()) + 1n)).wait();
      expect(await harness.values(1)).to.equal(9n);
    });
  });
});
