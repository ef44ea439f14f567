import { expect } from "chai";
import { HDNodeWallet, Mnemonic, Wallet, isError, zeroPadValue } from "ethers";

import { RpcHarness__factory, type RpcHarness } from "../../typechain-types";
import { rejection, startChain, type TestChain } from "../helpers/chain";

/**
 * Gas estimation, access lists, chain-id checks and error wording, where geth/coreth have
 * specific behaviours (exact 21000 for plain transfers, allowance-capped search, …).
 */

type Json = Record<string, unknown>;
const MNEMONIC = "test test test test test test test test test test test junk";
const mnemonicKey = (i: number) => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(MNEMONIC), "m/44'/60'/0'/0").deriveChild(i).privateKey;
const hexq = (n: bigint | number) => "0x" + n.toString(16);

describe("standard JSON-RPC: estimates and errors as geth gives them", () => {
  let chain: TestChain;
  let harness: RpcHarness;
  let target: string;
  let from: string;
  let to: string;

  before(async () => {
    chain = await startChain();
    harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await harness.waitForDeployment();
    target = (await harness.getAddress()).toLowerCase();
    from = chain.signers[0]!.address.toLowerCase();
    to = chain.signers[1]!.address.toLowerCase();
  });

  describe("eth_estimateGas", () => {
    it("estimates exactly 21000 for a plain value transfer to an account without code", async () => {
      expect(await chain.rpc("eth_estimateGas", [{ from, to, value: "0x1" }])).to.equal("0x5208");
      expect(await chain.provider.estimateGas({ from, to, value: 1n })).to.equal(21_000n);
    });

    it("refuses to estimate a plain transfer of more than the sender holds, with or without a fee", async () => {
      const poor = "0x000000000000000000000000000000000000dead";
      for (const fee of [{}, { maxFeePerGas: "0x5d21dba000" }]) {
        const error = await rejection(chain.rpc("eth_estimateGas", [{ from: poor, to, value: "0x1", ...fee }]));
        expect(error.code).to.equal(-32000);
        expect(error.message).to.match(/insufficient funds/);
      }
    });

    it("eth_sendTransaction of a plain transfer without gas uses a 21000 gas limit", async () => {
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to, value: "0x1" }])) as string;
      expect(((await chain.rpc("eth_getTransactionByHash", [hash])) as Json).gas).to.equal("0x5208");
    });

    it("counts the access list: a type 1 transaction sent with the estimate succeeds", async () => {
      const request = {
        from,
        to: target,
        data: harness.interface.encodeFunctionData("store", [5]),
        type: "0x1",
        gasPrice: hexq(25_000_000_000n),
        accessList: [{ address: target, storageKeys: [zeroPadValue("0x00", 32)] }],
      };
      const estimate = BigInt((await chain.rpc("eth_estimateGas", [request])) as string);
      const hash = (await chain.rpc("eth_sendTransaction", [{ ...request, gas: hexq(estimate) }])) as string;
      const receipt = (await chain.rpc("eth_getTransactionReceipt", [hash])) as Json;
      expect(receipt.status).to.equal("0x1");
      // The list's intrinsic cost (2400 per address, 1900 per key) is part of the estimate.
      expect(estimate >= BigInt(receipt.gasUsed as string)).to.equal(true);
    });

    it("eth_sendTransaction with an access list and no gas succeeds", async () => {
      const hash = (await chain.rpc("eth_sendTransaction", [
        { from, to: target, data: harness.interface.encodeFunctionData("store", [6]), accessList: [{ address: target, storageKeys: [zeroPadValue("0x00", 32)] }] },
      ])) as string;
      expect(((await chain.rpc("eth_getTransactionReceipt", [hash])) as Json).status).to.equal("0x1");
    });

    it("an ethers Wallet's type 1 transaction with an access list (gas estimated by ethers) succeeds", async () => {
      const wallet = new Wallet(mnemonicKey(8), chain.provider);
      const response = await wallet.sendTransaction({
        to: target,
        data: harness.interface.encodeFunctionData("store", [77]),
        type: 1,
        accessList: [{ address: target, storageKeys: [zeroPadValue("0x00", 32)] }],
      });
      const receipt = await chain.provider.getTransactionReceipt(response.hash);
      expect(receipt!.status).to.equal(1);
    });

    it("with a fee cap, from an account that cannot pay for the whole block gas limit, still estimates (gas capped by the balance)", async () => {
      // geth: hi = min(block gas limit, (balance - value) / feeCap) before the search.
      const fresh = Wallet.createRandom();
      await (await chain.signers[0]!.sendTransaction({ to: fresh.address, value: 10n ** 16n })).wait(); // 0.01 coin
      const feeCap = hexq(50_000_000_000n); // 15M gas * 50 gwei = 0.75 coin > 0.01 coin
      const data = harness.interface.encodeFunctionData("put", [1, 2]);
      const estimate = BigInt((await chain.rpc("eth_estimateGas", [{ from: fresh.address, to: target, data, gasPrice: feeCap }])) as string);
      expect(estimate > 21_000n && estimate < 200_000n).to.equal(true);
    });
  });

  describe("eth_sendRawTransaction errors", () => {
    it("an EIP-1559 transaction signed for another chain id fails with a message naming both chain ids", async () => {
      const wallet = new Wallet(mnemonicKey(9));
      const raw = await wallet.signTransaction({ to, value: 1n, nonce: 0, gasLimit: 21_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 0n, chainId: 1n, type: 2 });
      const error = await rejection(chain.rpc("eth_sendRawTransaction", [raw]));
      expect(error.message).to.match(/invalid chain id 1 .*expected 43112/);
      expect(error.message).not.to.match(/function|return BigInt|this\._chainParams/);
    });

    it("a legacy EIP-155 transaction signed for another chain id fails with a message naming both chain ids", async () => {
      const wallet = new Wallet(mnemonicKey(9));
      const raw = await wallet.signTransaction({ to, value: 1n, nonce: 0, gasLimit: 21_000n, gasPrice: 10n ** 11n, chainId: 1n, type: 0 });
      const error = await rejection(chain.rpc("eth_sendRawTransaction", [raw]));
      expect(error.message).to.match(/invalid chain id 1 .*expected 43112/);
      expect(error.message).not.to.match(/createLegacyTx|common/);
    });

    it("resending a transaction that is already mined fails with 'nonce too low' (ethers: NONCE_EXPIRED), as geth's pool has forgotten it", async () => {
      const wallet = new Wallet(mnemonicKey(10), chain.provider);
      const raw = await wallet.signTransaction({
        to,
        value: 1n,
        nonce: await chain.provider.getTransactionCount(wallet.address),
        gasLimit: 21_000n,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 0n,
        chainId: 43112n,
      });
      await chain.rpc("eth_sendRawTransaction", [raw]);
      const error = await rejection(chain.rpc("eth_sendRawTransaction", [raw]));
      expect(error.message).to.match(/nonce too low/);
      const viaEthers = await chain.provider.broadcastTransaction(raw).catch((e: unknown) => e);
      expect(isError(viaEthers, "NONCE_EXPIRED")).to.equal(true);
    });
  });

  describe("error messages from the EVM", () => {
    it("eth_call with a gas price below the base fee fails with a message naming both prices", async () => {
      const error = await rejection(chain.rpc("eth_call", [{ from, to, gasPrice: "0x1" }]));
      // ethereumjs: "Transaction's gasPrice (1) is less than the block's baseFeePerGas (25000000000)";
      // the engine cuts it after "gasPrice" because its clean-up pattern matches the first " (".
      expect(error.message).to.match(/gasPrice.*1.*base ?fee.*25000000000/i);
    });

    it("eth_call from an account that cannot pay gas * price says what it has and what it needs", async () => {
      const poor = Wallet.createRandom().address;
      const error = await rejection(chain.rpc("eth_call", [{ from: poor, to, gasPrice: hexq(30_000_000_000n), gas: hexq(50_000) }]));
      expect(error.message).to.match(/insufficient funds|enough funds/);
      expect(error.message).to.match(/1500000000000000/); // the upfront cost 50000 * 30 gwei
      expect(error.message).to.match(/has:? 0|only has/);
    });
  });
});
