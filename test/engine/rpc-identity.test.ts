import { expect } from "chai";
import { HDNodeWallet, Mnemonic, TypedDataEncoder, getAddress, hexlify, toUtf8Bytes, verifyMessage, verifyTypedData } from "ethers";

import { rejection, startChain, type TestChain } from "../helpers/chain";

const MNEMONIC = "test test test test test test test test test test test junk";
const TEN_THOUSAND_COIN = 10_000n * 10n ** 18n;
const isQuantity = (v: unknown) => typeof v === "string" && /^0x(0|[1-9a-f][0-9a-f]*)$/.test(v);

describe("standard JSON-RPC: identity, fees and signing", () => {
  let chain: TestChain;

  before(async () => {
    chain = await startChain();
  });

  describe("identity", () => {
    it("eth_chainId is 0xa868 (43112, the local network) by default", async () => {
      expect(await chain.rpc("eth_chainId")).to.equal("0xa868");
      expect((await chain.provider.getNetwork()).chainId).to.equal(43112n);
    });

    it("eth_chainId and net_version follow the chainId option", async () => {
      const other = await startChain({ chainId: 501 });
      expect(await other.rpc("eth_chainId")).to.equal("0x1f5");
      expect(await other.rpc("net_version")).to.equal("501");
    });

    it("net_version is the network ID as a decimal string", async () => {
      expect(await chain.rpc("net_version")).to.equal("43112");
      const other = await startChain({ chainId: 501, networkId: 1001 });
      expect(await other.rpc("net_version")).to.equal("1001");
    });

    it("web3_clientVersion is a name/version string (starting HardhatNetwork, which Hardhat's helpers require)", async () => {
      const version = await chain.rpc("web3_clientVersion");
      expect(version).to.be.a("string").and.match(/^HardhatNetwork\/[\w./-]*\d+\.\d+/);
    });

    it("eth_accounts lists the 20 standard-mnemonic accounts in derivation order, as lowercase hex", async () => {
      const accounts = (await chain.rpc("eth_accounts")) as string[];
      expect(accounts).to.have.length(20);
      const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(MNEMONIC), "m/44'/60'/0'/0");
      accounts.forEach((a, i) => {
        expect(a).to.equal(a.toLowerCase());
        expect(getAddress(a)).to.equal(root.deriveChild(i).address);
      });
      expect(getAddress(accounts[0]!)).to.equal("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    });

    it("every account starts with 10000 coin", async () => {
      const accounts = (await chain.rpc("eth_accounts")) as string[];
      for (const a of accounts) expect(await chain.rpc("eth_getBalance", [a, "latest"])).to.equal("0x" + TEN_THOUSAND_COIN.toString(16));
    });

    it("eth_syncing is false", async () => {
      expect(await chain.rpc("eth_syncing")).to.equal(false);
    });

    it("web3_sha3 returns keccak-256 of the bytes", async () => {
      expect(await chain.rpc("web3_sha3", ["0x68656c6c6f20776f726c64"])).to.equal(
        "0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad",
      );
    });
  });

  describe("fee fields", () => {
    it("eth_gasPrice is a hex quantity at least the next block's base fee", async () => {
      const price = await chain.rpc("eth_gasPrice");
      expect(isQuantity(price)).to.equal(true);
      expect(BigInt(price as string)).to.be.gte(BigInt((await chain.rpc("eth_baseFee")) as string));
    });

    it("eth_baseFee is a hex quantity equal to the base fee of the next mined block", async () => {
      const fresh = await startChain();
      const predicted = (await fresh.rpc("eth_baseFee")) as string;
      expect(isQuantity(predicted)).to.equal(true);
      await (await fresh.signers[0]!.sendTransaction({ to: fresh.signers[1]!.address, value: 1n })).wait();
      const block = (await fresh.rpc("eth_getBlockByNumber", ["latest", false])) as { baseFeePerGas: string };
      expect(block.baseFeePerGas).to.equal(predicted);
    });

    it("eth_baseFee rises after a block fuller than half the gas limit, as EIP-1559 computes", async () => {
      const small = await startChain({ blockGasLimit: 100_000n });
      const before = BigInt((await small.rpc("eth_baseFee")) as string);
      // A block using 84000 of 100000 gas (target 50000): +1/8 * 34000/50000 of the base fee.
      const data = "0x" + "01".repeat(3_000); // 3000 non-zero bytes of calldata = 48000 gas
      await small.rpc("eth_sendTransaction", [{ from: small.signers[0]!.address, to: small.signers[1]!.address, data, gas: "0x" + (84_000).toString(16) }]);
      const receipt = (await small.rpc("eth_getTransactionReceipt", [
        ((await small.rpc("eth_getBlockByNumber", ["latest", false])) as { transactions: string[] }).transactions[0],
      ])) as { gasUsed: string };
      const used = BigInt(receipt.gasUsed);
      const expected = before + (before * (used - 50_000n)) / 50_000n / 8n;
      expect(BigInt((await small.rpc("eth_baseFee")) as string)).to.equal(expected);
      const next = await small.provider.getBlock("latest");
      expect(next!.baseFeePerGas).to.equal(before);
    });

    it("eth_maxPriorityFeePerGas is a hex quantity", async () => {
      expect(isQuantity(await chain.rpc("eth_maxPriorityFeePerGas"))).to.equal(true);
    });

    it("eth_feeHistory returns oldestBlock, count+1 base fees, count ratios and per-block rewards", async () => {
      const fresh = await startChain();
      for (let i = 0; i < 3; i++) await (await fresh.signers[0]!.sendTransaction({ to: fresh.signers[1]!.address, value: 1n })).wait();
      const history = (await fresh.rpc("eth_feeHistory", ["0x3", "latest", [25, 75]])) as {
        oldestBlock: string;
        baseFeePerGas: string[];
        gasUsedRatio: number[];
        reward: string[][];
      };
      expect(history.oldestBlock).to.equal("0x1");
      expect(history.baseFeePerGas).to.have.length(4);
      history.baseFeePerGas.forEach((f) => expect(isQuantity(f)).to.equal(true));
      expect(history.baseFeePerGas[3]).to.equal(await fresh.rpc("eth_baseFee"));
      expect(history.gasUsedRatio).to.have.length(3);
      history.gasUsedRatio.forEach((r) => expect(r).to.be.a("number").within(0, 1));
      expect(history.gasUsedRatio[0]).to.equal(21_000 / 15_000_000);
      expect(history.reward).to.have.length(3);
      history.reward.forEach((r) => {
        expect(r).to.have.length(2);
        r.forEach((x) => expect(isQuantity(x)).to.equal(true));
      });
    });

    it("eth_feeHistory with more blocks than exist starts at genesis and omits reward without percentiles", async () => {
      const fresh = await startChain();
      const history = (await fresh.rpc("eth_feeHistory", ["0xa", "latest"])) as Record<string, unknown>;
      expect(history.oldestBlock).to.equal("0x0");
      expect(history.baseFeePerGas).to.have.length(2);
      expect(history.gasUsedRatio).to.deep.equal([0]);
      expect(history).not.to.have.property("reward");
    });

    it("eth_feeHistory rejects percentiles that are not increasing numbers between 0 and 100 with -32602", async () => {
      for (const bad of [[50, 25], [101], [-1], ["50"]]) {
        const error = await rejection(chain.rpc("eth_feeHistory", ["0x1", "latest", bad]));
        expect(error.code, JSON.stringify(bad)).to.equal(-32602);
        expect(error.message).to.match(/percentile/i);
      }
    });

    it("ethers provider.getFeeData() returns a gas price and EIP-1559 fees", async () => {
      const fee = await chain.provider.getFeeData();
      expect(fee.gasPrice).to.be.a("bigint");
      expect(fee.maxFeePerGas).to.be.a("bigint");
      expect(fee.maxPriorityFeePerGas).to.be.a("bigint");
      const block = await chain.provider.getBlock("latest");
      expect(fee.maxFeePerGas! >= block!.baseFeePerGas!).to.equal(true);
    });
  });

  describe("signing with the node's accounts", () => {
    it("eth_sign signs the EIP-191 personal message of the data; verifyMessage recovers the account", async () => {
      const account = chain.signers[1]!.address;
      const message = "hello contract chain";
      const signature = (await chain.rpc("eth_sign", [account, hexlify(toUtf8Bytes(message))])) as string;
      expect(signature).to.match(/^0x[0-9a-f]{130}$/);
      expect(verifyMessage(message, signature)).to.equal(account);
    });

    it("personal_sign (message first, then address) signs the same way", async () => {
      const account = chain.signers[2]!.address;
      const message = "sign in to the dApp";
      const signature = (await chain.rpc("personal_sign", [hexlify(toUtf8Bytes(message)), account])) as string;
      expect(verifyMessage(message, signature)).to.equal(account);
    });

    it("ethers JsonRpcSigner.signMessage verifies with verifyMessage", async () => {
      const signer = chain.signers[3]!;
      const signature = await signer.signMessage("plain text");
      expect(verifyMessage("plain text", signature)).to.equal(signer.address);
    });

    it("eth_signTypedData_v4 (via ethers signTypedData) verifies with verifyTypedData", async () => {
      const signer = chain.signers[0]!;
      const domain = { name: "Permit", version: "1", chainId: 43112, verifyingContract: "0x" + "11".repeat(20) };
      const types = {
        Person: [
          { name: "name", type: "string" },
          { name: "wallet", type: "address" },
        ],
        Mail: [
          { name: "from", type: "Person" },
          { name: "to", type: "Person" },
          { name: "contents", type: "string" },
          { name: "amount", type: "uint256" },
        ],
      };
      const message = {
        from: { name: "Alice", wallet: signer.address },
        to: { name: "Bob", wallet: "0x" + "22".repeat(20) },
        contents: "hi",
        amount: 10n ** 30n,
      };
      const signature = await signer.signTypedData(domain, types, message);
      expect(verifyTypedData(domain, types, message, signature)).to.equal(signer.address);
    });

    it("eth_signTypedData_v4 signs for the primaryType given, even when types lists more than one root", async () => {
      const signer = chain.signers[0]!;
      const domain = { name: "Multi", chainId: 43112 };
      const types = {
        Order: [{ name: "amount", type: "uint256" }],
        Unused: [{ name: "flag", type: "bool" }],
      };
      const message = { amount: 5 };
      const payload = {
        types: { EIP712Domain: [{ name: "name", type: "string" }, { name: "chainId", type: "uint256" }], ...types },
        domain,
        primaryType: "Order",
        message,
      };
      const signature = (await chain.rpc("eth_signTypedData_v4", [signer.address, JSON.stringify(payload)])) as string;
      const orderOnly = { Order: types.Order };
      expect(verifyTypedData(domain, orderOnly, message, signature)).to.equal(signer.address);
      expect(TypedDataEncoder.from(orderOnly).primaryType).to.equal("Order");
    });

    it("signing for an address the node holds no key for fails with a clear error", async () => {
      const error = await rejection(chain.rpc("personal_sign", ["0x1234", "0x" + "ab".repeat(20)]));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.match(/unknown account/i);
    });
  });
});
