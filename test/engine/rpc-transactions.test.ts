import { expect } from "chai";
import { HDNodeWallet, Mnemonic, Transaction, Wallet, getAddress, getCreateAddress, id, keccak256, zeroPadValue } from "ethers";

import { RpcHarness__factory, type RpcHarness } from "../../typechain-types";
import { startChain, type TestChain } from "../helpers/chain";

type Json = Record<string, unknown>;
const MNEMONIC = "test test test test test test test test test test test junk";
const mnemonicKey = (i: number) => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(MNEMONIC), "m/44'/60'/0'/0").deriveChild(i).privateKey;
const hexq = (n: bigint | number) => "0x" + n.toString(16);

describe("standard JSON-RPC: transactions and receipts", () => {
  let chain: TestChain;
  let from: string;
  let to: string;
  let harness: RpcHarness;

  const receipt = (hash: string) => chain.rpc("eth_getTransactionReceipt", [hash]) as Promise<Json>;
  const transaction = (hash: string) => chain.rpc("eth_getTransactionByHash", [hash]) as Promise<Json>;
  const balance = async (a: string) => BigInt((await chain.rpc("eth_getBalance", [a, "latest"])) as string);

  before(async () => {
    chain = await startChain();
    from = chain.signers[0]!.address.toLowerCase();
    to = chain.signers[1]!.address.toLowerCase();
    harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await harness.waitForDeployment();
  });

  describe("eth_sendTransaction", () => {
    it("with only from/to/value sends an EIP-1559 (type 2) transaction with fee caps filled in", async () => {
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to, value: "0x10" }])) as string;
      const tx = await transaction(hash);
      expect(tx.type).to.equal("0x2");
      expect(BigInt(tx.maxFeePerGas as string) >= BigInt(tx.maxPriorityFeePerGas as string)).to.equal(true);
      expect(tx.chainId).to.equal("0xa868");
      expect((await receipt(hash)).type).to.equal("0x2");
    });

    it("with gasPrice sends a legacy (type 0) transaction at exactly that price", async () => {
      const gasPrice = 30_000_000_000n;
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to, value: "0x1", gasPrice: hexq(gasPrice) }])) as string;
      const tx = await transaction(hash);
      expect(tx.type).to.equal("0x0");
      expect(tx.gasPrice).to.equal(hexq(gasPrice));
      expect(tx).not.to.have.property("maxFeePerGas");
      expect(tx.chainId).to.equal("0xa868");
      expect((await receipt(hash)).effectiveGasPrice).to.equal(hexq(gasPrice));
    });

    it("with an access list sends an access-list (type 1) transaction that carries the list", async () => {
      const accessList = [{ address: await harness.getAddress(), storageKeys: [zeroPadValue("0x00", 32)] }];
      const hash = (await chain.rpc("eth_sendTransaction", [
        { from, to: accessList[0]!.address, data: harness.interface.encodeFunctionData("store", [5]), accessList, type: "0x1", gasPrice: hexq(26_000_000_000n), gas: hexq(100_000) },
      ])) as string;
      const tx = await transaction(hash);
      expect(tx.type).to.equal("0x1");
      expect(tx.accessList).to.deep.equal([{ address: accessList[0]!.address.toLowerCase(), storageKeys: accessList[0]!.storageKeys }]);
      expect((await receipt(hash)).status).to.equal("0x1");
      expect(await harness.stored()).to.equal(5n);
    });

    it("with an access list and EIP-1559 fees sends a type 2 transaction carrying the list", async () => {
      const accessList = [{ address: await harness.getAddress(), storageKeys: [zeroPadValue("0x00", 32)] }];
      const hash = (await chain.rpc("eth_sendTransaction", [
        { from, to: accessList[0]!.address, data: harness.interface.encodeFunctionData("store", [6]), accessList, gas: hexq(100_000) },
      ])) as string;
      const tx = await transaction(hash);
      expect(tx.type).to.equal("0x2");
      expect(tx.accessList).to.deep.equal([{ address: accessList[0]!.address.toLowerCase(), storageKeys: accessList[0]!.storageKeys }]);
    });

    it("uses the account's next nonce, one more per transaction", async () => {
      const before = BigInt((await chain.rpc("eth_getTransactionCount", [from, "latest"])) as string);
      const h1 = (await chain.rpc("eth_sendTransaction", [{ from, to }])) as string;
      const h2 = (await chain.rpc("eth_sendTransaction", [{ from, to }])) as string;
      expect((await transaction(h1)).nonce).to.equal(hexq(before));
      expect((await transaction(h2)).nonce).to.equal(hexq(before + 1n));
      expect(await chain.rpc("eth_getTransactionCount", [from, "latest"])).to.equal(hexq(before + 2n));
    });

    it("signs deterministically (RFC 6979): the hash is the one an ethers Wallet gives the same fields", async () => {
      const wallet = new Wallet(mnemonicKey(6));
      const hash = (await chain.rpc("eth_sendTransaction", [{ from: wallet.address, to, value: "0x2a", gas: "0x5208" }])) as string;
      const sent = await transaction(hash);
      const signed = await wallet.signTransaction({
        type: 2,
        chainId: BigInt(sent.chainId as string),
        nonce: Number(sent.nonce),
        to,
        value: 42n,
        gasLimit: 21000n,
        maxFeePerGas: BigInt(sent.maxFeePerGas as string),
        maxPriorityFeePerGas: BigInt(sent.maxPriorityFeePerGas as string),
      });
      expect(hash).to.equal(keccak256(signed));
      expect({ r: sent.r, s: sent.s }).to.deep.equal({ r: Transaction.from(signed).signature!.r, s: Transaction.from(signed).signature!.s });
    });

    it("signs a legacy (EIP-155) and an access-list transaction as an ethers Wallet signs the same fields", async () => {
      const wallet = new Wallet(mnemonicKey(7));
      for (const fields of [{ gasPrice: "0xe8d4a51000" }, { gasPrice: "0xe8d4a51000", accessList: [{ address: to, storageKeys: [zeroPadValue("0x01", 32)] }] }]) {
        const hash = (await chain.rpc("eth_sendTransaction", [{ from: wallet.address, to, value: "0x2a", gas: "0x9000", ...fields }])) as string;
        const sent = await transaction(hash);
        const signed = await wallet.signTransaction({
          type: Number(sent.type),
          chainId: BigInt(sent.chainId as string),
          nonce: Number(sent.nonce),
          to,
          value: 42n,
          gasLimit: 0x9000n,
          gasPrice: BigInt(fields.gasPrice),
          ...("accessList" in fields ? { accessList: fields.accessList } : {}),
        });
        expect({ type: sent.type, hash }).to.deep.equal({ type: "accessList" in fields ? "0x1" : "0x0", hash: keccak256(signed) });
      }
    });

    it("ethers signer.sendTransaction works and its response waits for a receipt", async () => {
      const response = await chain.signers[2]!.sendTransaction({ to, value: 7n });
      const mined = await response.wait();
      expect(mined!.status).to.equal(1);
      expect(mined!.hash).to.equal(response.hash);
    });
  });

  describe("eth_sendRawTransaction", () => {
    it("accepts an EIP-1559 transaction signed by an ethers Wallet holding a mnemonic key", async () => {
      const wallet = new Wallet(mnemonicKey(3), chain.provider);
      const response = await wallet.sendTransaction({ to, value: 12345n });
      const mined = await response.wait();
      expect(mined!.status).to.equal(1);
      const tx = await transaction(response.hash);
      expect(tx.from).to.equal(wallet.address.toLowerCase());
      expect(tx.type).to.equal("0x2");
    });

    it("returns the hash of the signed bytes, and eth_getTransactionByHash gives back the same signature", async () => {
      const wallet = new Wallet(mnemonicKey(4));
      const fee = await chain.provider.getFeeData();
      const signed = await wallet.signTransaction({
        to,
        value: 1n,
        nonce: await chain.provider.getTransactionCount(wallet.address),
        gasLimit: 21_000n,
        maxFeePerGas: fee.maxFeePerGas,
        maxPriorityFeePerGas: fee.maxPriorityFeePerGas,
        chainId: 43112n,
      });
      const parsed = Transaction.from(signed);
      const hash = await chain.rpc("eth_sendRawTransaction", [signed]);
      expect(hash).to.equal(parsed.hash);
      const tx = await transaction(hash as string);
      // Quantities, as geth writes them: no leading zero digits.
      expect(tx.r).to.equal("0x" + BigInt(parsed.signature!.r).toString(16));
      expect(tx.s).to.equal("0x" + BigInt(parsed.signature!.s).toString(16));
      expect(Number(tx.yParity)).to.equal(parsed.signature!.yParity);
      expect(Number(tx.v)).to.equal(parsed.signature!.yParity);
    });

    it("accepts a legacy EIP-155 transaction from a fresh key once funded", async () => {
      const fresh = Wallet.createRandom().connect(chain.provider);
      await (await chain.signers[0]!.sendTransaction({ to: fresh.address, value: 10n ** 18n })).wait();
      const response = await fresh.sendTransaction({ to, value: 1000n, type: 0, gasPrice: 25_000_000_000n });
      const mined = await response.wait();
      expect(mined!.status).to.equal(1);
      const tx = await transaction(response.hash);
      expect(tx.type).to.equal("0x0");
      expect(tx.chainId).to.equal("0xa868");
      expect(BigInt(tx.v as string)).to.be.oneOf([43112n * 2n + 35n, 43112n * 2n + 36n]);
      expect(await chain.provider.getTransactionCount(fresh.address)).to.equal(1);
    });

    it("accepts an access-list (type 1) transaction signed by a Wallet", async () => {
      const wallet = new Wallet(mnemonicKey(5), chain.provider);
      const response = await wallet.sendTransaction({
        to: await harness.getAddress(),
        data: harness.interface.encodeFunctionData("store", [77]),
        type: 1,
        gasPrice: 25_000_000_000n,
        gasLimit: 100_000n,
        accessList: [{ address: await harness.getAddress(), storageKeys: [zeroPadValue("0x00", 32)] }],
      });
      expect((await response.wait())!.status).to.equal(1);
      expect((await transaction(response.hash)).type).to.equal("0x1");
      expect(await harness.stored()).to.equal(77n);
    });
  });

  describe("receipts", () => {
    it("a successful call has status 0x1, gasUsed, cumulativeGasUsed and the block's position", async () => {
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to: await harness.getAddress(), data: harness.interface.encodeFunctionData("store", [9]) }])) as string;
      const r = await receipt(hash);
      const b = (await chain.rpc("eth_getBlockByNumber", ["latest", false])) as Json;
      expect(r).to.include({ status: "0x1", transactionHash: hash, transactionIndex: "0x0", blockHash: b.hash, blockNumber: b.number, from, to: (await harness.getAddress()).toLowerCase(), contractAddress: null });
      expect(BigInt(r.gasUsed as string) > 21_000n).to.equal(true);
      expect(r.cumulativeGasUsed).to.equal(r.gasUsed);
    });

    it("effectiveGasPrice of a type 2 transaction is min(maxFeePerGas, baseFee + tip)", async () => {
      const tip = 2_000_000_000n;
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to, maxPriorityFeePerGas: hexq(tip), maxFeePerGas: hexq(200_000_000_000n) }])) as string;
      const r = await receipt(hash);
      const b = (await chain.rpc("eth_getBlockByNumber", [r.blockNumber, false])) as Json;
      expect(BigInt(r.effectiveGasPrice as string)).to.equal(BigInt(b.baseFeePerGas as string) + tip);
      expect((await transaction(hash)).gasPrice).to.equal(r.effectiveGasPrice);
    });

    it("a deployment's receipt names the contract address (sender + nonce) and has to: null", async () => {
      const nonce = await chain.provider.getTransactionCount(from);
      const factory = new RpcHarness__factory(chain.signers[0]!);
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, data: factory.bytecode }])) as string;
      const r = await receipt(hash);
      expect(r.to).to.equal(null);
      expect(r.contractAddress).to.equal(getCreateAddress({ from, nonce }).toLowerCase());
      expect(await chain.rpc("eth_getCode", [r.contractAddress, "latest"])).to.not.equal("0x");
      expect((await transaction(hash)).to).to.equal(null);
    });

    it("logs carry the transaction's position and block-wide log indices", async () => {
      const batch = await startChain({ automine: false });
      const h = await new RpcHarness__factory(batch.signers[0]!).deploy();
      await batch.rpc("evm_mine");
      const target = await h.getAddress();
      const a = batch.signers[0]!.address;
      const c = batch.signers[1]!.address;
      const data = h.interface.encodeFunctionData("ping", [[1, 2]]);
      const first = (await batch.rpc("eth_sendTransaction", [{ from: a, to: target, data, gas: "0x30000" }])) as string;
      const second = (await batch.rpc("eth_sendTransaction", [{ from: c, to: target, data: h.interface.encodeFunctionData("ping", [[3, 4, 5]]), gas: "0x30000" }])) as string;
      await batch.rpc("evm_mine");
      const r1 = (await batch.rpc("eth_getTransactionReceipt", [first])) as Json;
      const r2 = (await batch.rpc("eth_getTransactionReceipt", [second])) as Json;
      const logs = [...(r1.logs as Json[]), ...(r2.logs as Json[])];
      expect(logs.map((l) => l.logIndex)).to.deep.equal(["0x0", "0x1", "0x2", "0x3", "0x4"]);
      expect(logs.map((l) => l.transactionIndex)).to.deep.equal(["0x0", "0x0", "0x1", "0x1", "0x1"]);
      expect(logs.map((l) => l.transactionHash)).to.deep.equal([first, first, second, second, second]);
      for (const log of logs) {
        expect(log).to.include({ blockHash: r1.blockHash, blockNumber: r1.blockNumber, address: target.toLowerCase(), removed: false });
        expect(log.topics).to.deep.equal([id("Ping(uint256)")]);
      }
      expect(BigInt(r2.cumulativeGasUsed as string)).to.equal(BigInt(r1.gasUsed as string) + BigInt(r2.gasUsed as string));
    });

    it("logsBloom contains the emitting address and topics, and is empty without logs", async () => {
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to: await harness.getAddress(), data: harness.interface.encodeFunctionData("store", [11]) }])) as string;
      const r = await receipt(hash);
      const { bloomContains } = bloom(r.logsBloom as string);
      expect(bloomContains(await harness.getAddress())).to.equal(true);
      expect(bloomContains(id("Stored(address,uint256)"))).to.equal(true);
      expect(bloomContains(zeroPadValue(from, 32))).to.equal(true);
      expect(bloomContains(id("Nothing()"))).to.equal(false);
      const block = (await chain.rpc("eth_getBlockByNumber", [r.blockNumber, false])) as Json;
      expect(block.logsBloom).to.equal(r.logsBloom);
      const plain = await receipt((await chain.rpc("eth_sendTransaction", [{ from, to }])) as string);
      expect(plain.logsBloom).to.equal("0x" + "00".repeat(256));
    });

    it("eth_getTransactionReceipt and eth_getTransactionByHash of an unknown hash are null", async () => {
      expect(await chain.rpc("eth_getTransactionReceipt", ["0x" + "12".repeat(32)])).to.equal(null);
      expect(await chain.rpc("eth_getTransactionByHash", ["0x" + "12".repeat(32)])).to.equal(null);
    });
  });

  describe("transaction lookups", () => {
    it("eth_getTransactionByBlockNumberAndIndex and ByBlockHashAndIndex return the mined transaction", async () => {
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to, value: "0x3" }])) as string;
      const tx = await transaction(hash);
      expect(await chain.rpc("eth_getTransactionByBlockNumberAndIndex", [tx.blockNumber, "0x0"])).to.deep.equal(tx);
      expect(await chain.rpc("eth_getTransactionByBlockHashAndIndex", [tx.blockHash, "0x0"])).to.deep.equal(tx);
      expect(await chain.rpc("eth_getTransactionByBlockNumberAndIndex", ["latest", "0x0"])).to.deep.equal(tx);
    });

    it("an index past the block's transactions, or an unknown block, gives null", async () => {
      expect(await chain.rpc("eth_getTransactionByBlockNumberAndIndex", ["latest", "0x5"])).to.equal(null);
      expect(await chain.rpc("eth_getTransactionByBlockNumberAndIndex", ["0xffff", "0x0"])).to.equal(null);
      expect(await chain.rpc("eth_getTransactionByBlockHashAndIndex", ["0x" + "34".repeat(32), "0x0"])).to.equal(null);
    });

    it("a transaction object has the standard fields for its type", async () => {
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to, value: "0x3", data: "0xabcd" }])) as string;
      const tx = await transaction(hash);
      for (const key of ["blockHash", "blockNumber", "from", "gas", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "hash", "input", "nonce", "to", "transactionIndex", "value", "type", "accessList", "chainId", "v", "r", "s", "yParity"]) {
        expect(tx, key).to.have.property(key);
      }
      expect(tx.input).to.equal("0xabcd");
    });

    it("a pooled transaction (automine off) is found by hash with null block fields, and has no receipt yet", async () => {
      const pool = await startChain({ automine: false });
      const hash = (await pool.rpc("eth_sendTransaction", [{ from, to, value: "0x1" }])) as string;
      const pending = (await pool.rpc("eth_getTransactionByHash", [hash])) as Json;
      expect(pending).to.include({ hash, blockHash: null, blockNumber: null, transactionIndex: null });
      expect(await pool.rpc("eth_getTransactionReceipt", [hash])).to.equal(null);
      await pool.rpc("evm_mine");
      expect(((await pool.rpc("eth_getTransactionReceipt", [hash])) as Json).status).to.equal("0x1");
    });
  });

  describe("fee accounting", () => {
    it("the sender pays gasUsed * effectiveGasPrice + value, and the recipient gets value", async () => {
      const value = 10n ** 17n;
      const senderBefore = await balance(from);
      const recipientBefore = await balance(to);
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to, value: hexq(value) }])) as string;
      const r = await receipt(hash);
      const fee = BigInt(r.gasUsed as string) * BigInt(r.effectiveGasPrice as string);
      expect(await balance(from)).to.equal(senderBefore - fee - value);
      expect(await balance(to)).to.equal(recipientBefore + value);
    });

    it("the same holds for a legacy transaction at a gas price above the base fee", async () => {
      const senderBefore = await balance(from);
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, to, value: "0x64", gasPrice: hexq(40_000_000_000n) }])) as string;
      const r = await receipt(hash);
      expect(await balance(from)).to.equal(senderBefore - BigInt(r.gasUsed as string) * 40_000_000_000n - 100n);
    });

    it("for a contract call, the fee is charged on the gas used, not the gas limit", async () => {
      const senderBefore = await balance(from);
      const hash = (await chain.rpc("eth_sendTransaction", [
        { from, to: await harness.getAddress(), data: harness.interface.encodeFunctionData("store", [12]), gas: hexq(500_000) },
      ])) as string;
      const r = await receipt(hash);
      expect(BigInt(r.gasUsed as string) < 500_000n).to.equal(true);
      expect(await balance(from)).to.equal(senderBefore - BigInt(r.gasUsed as string) * BigInt(r.effectiveGasPrice as string));
    });

    it("a Wallet's fee via ethers receipt.fee matches the balance change", async () => {
      const wallet = new Wallet(mnemonicKey(6), chain.provider);
      const before = await chain.provider.getBalance(wallet.address);
      const mined = await (await wallet.sendTransaction({ to, value: 5n })).wait();
      expect(await chain.provider.getBalance(wallet.address)).to.equal(before - mined!.fee - 5n);
      expect(getAddress(mined!.from)).to.equal(wallet.address);
    });
  });
});

/** A logs bloom (2048 bits) and a membership test for an address or 32-byte topic. */
function bloom(hex: string): { bloomContains(value: string): boolean } {
  const bits = Buffer.from(hex.slice(2), "hex");
  return {
    bloomContains(value: string) {
      const digest = Buffer.from(keccak256(value).slice(2), "hex");
      for (let i = 0; i < 6; i += 2) {
        const bit = ((digest[i]! << 8) | digest[i + 1]!) & 2047;
        const byte = bits[256 - 1 - Math.floor(bit / 8)]!;
        if ((byte & (1 << (bit % 8))) === 0) return false;
      }
      return true;
    },
  };
}
