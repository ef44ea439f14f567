import { expect } from "chai";
import { createNodeClient, type NodeClient } from "../../src/clients";
import { LOCAL_NETWORK, LOCAL_TEST_KEY, LOCAL_TEST_KEY_C_BALANCE, LOCAL_TEST_KEY_X_BALANCE } from "../../src/network/constants";
import { privateKeyToAddresses } from "../../src/encoding";
import type { HttpNode } from "../../src/node/http-server";
import { startLocalNode, type LocalNode } from "../helpers/local-node";
import { runTransferCommand } from "../../src/cli/transfer-command";

const ewoq = privateKeyToAddresses(LOCAL_TEST_KEY, "local");
const credentials = { username: "tester", password: "a-fine-password-7" };

describe("the local network served as one node", () => {
  let node: HttpNode;
  let client: NodeClient;
  let rpc: LocalNode["rpc"];

  beforeEach(async () => {
    ({ node, client, rpc } = await startLocalNode());
  });
  afterEach(async () => {
    await node.close();
  });

  it("funds the local test key on the exchange chain as a real local network does", async () => {
    const { balance, utxoIDs } = await client.xvm.getBalance({ address: ewoq.exchange, assetID: "AVAX" });
    expect(balance).to.equal(LOCAL_TEST_KEY_X_BALANCE);
    expect(utxoIDs).to.deep.equal([{ txID: LOCAL_NETWORK.nativeAsset.id, outputIndex: 1 }]);
  });

  it("describes the local test key with its published exchange and contract addresses", async () => {
    const { NodeChains } = await import("../../src/node/node-chains");
    const lines = (await NodeChains.create()).describeTestKey();
    expect(lines).to.include(`  ${LOCAL_TEST_KEY}`);
    expect(lines.some((line) => line.includes(`exchange chain ${ewoq.exchange}`) && line.includes(`contract chain ${ewoq.contract}`))).to.equal(true);
  });

  it("funds the local test key on the contract chain too", async () => {
    expect(BigInt(await rpc<string>("eth_getBalance", [ewoq.contract, "latest"]))).to.equal(LOCAL_TEST_KEY_C_BALANCE);
  });

  it("answers the info API with the local network's identifiers and fees", async () => {
    expect(await client.info.getNetworkID()).to.equal(12345);
    expect(await client.info.getBlockchainID("X")).to.equal(LOCAL_NETWORK.xChainId);
    expect(await client.info.getBlockchainID("C")).to.equal(LOCAL_NETWORK.cChainId);
    expect((await client.info.getTxFee()).txFee).to.equal(LOCAL_NETWORK.txFee);
    expect(await client.info.isBootstrapped("X")).to.equal(true);
  });

  it("serves both namings: xvm/cvm (seed) and avm/avax (reference)", async () => {
    const reference = createNodeClient({ url: node.url, naming: "reference" });
    expect((await reference.xvm.getAssetDescription({ assetID: "" })).symbol).to.equal("AVAX");
    expect((await client.xvm.getAssetDescription({ assetID: "" })).symbol).to.equal("AVAX");
    const status = await reference.cvm.getAtomicTxStatus({ txID: LOCAL_NETWORK.nativeAsset.id });
    expect(status.status).to.equal("Unknown");
  });

  describe("nativekit x-to-c and c-to-x", () => {
    beforeEach(async () => {
      await client.keystore.createUser(credentials);
      await client.xvm.importKey({ credentials, privateKey: LOCAL_TEST_KEY });
      await client.cvm.importKey({ credentials, privateKey: LOCAL_TEST_KEY });
    });

    async function run(direction: "x-to-c" | "c-to-x", args: string[]) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runTransferCommand(direction, ["--url", node.url, ...args], {
        stdout: (t) => out.push(t),
        stderr: (t) => err.push(t),
        env: { NATIVEKIT_USERNAME: credentials.username, NATIVEKIT_PASSWORD: credentials.password },
      });
      return { code, out: out.join(""), err: err.join("") };
    }

    it("x-to-c moves native coin to a contract-chain address, 10^9 wei per unit", async () => {
      const to = "0x000000000000000000000000000000000000c0de";
      const { code, out } = await run("x-to-c", ["--to", to, "--amount", "3000000000"]);
      expect(code, out).to.equal(0);
      expect(out).to.match(/xvm\.export \S+: Accepted/);
      expect(out).to.match(/cvm\.import \S+: Accepted/);
      const wei = BigInt(await rpc<string>("eth_getBalance", [to, "latest"]));
      // The import fee is paid from the imported coin, so slightly less than 3 coin arrives.
      expect(wei > 2_999_000_000n * 10n ** 9n && wei < 3_000_000_000n * 10n ** 9n).to.equal(true);
    });

    it("x-to-c moves another asset into the multi-coin balance, unscaled, with native coin for the fee", async () => {
      const { assetID } = await client.xvm.createFixedCapAsset({ credentials, name: "Test Silver", symbol: "SLV", initialHolders: [{ address: ewoq.exchange, amount: 5000n }] });
      const to = "0x000000000000000000000000000000000000beef";
      const { code, out } = await run("x-to-c", ["--to", to, "--amount", "1200", "--asset", assetID]);
      expect(code, out).to.equal(0);
      expect(out).to.match(/for the contract chain's import fee/);
      expect(await client.cvm.getAssetBalance(to, assetID)).to.equal(1200n);
      expect((await client.xvm.getBalance({ address: ewoq.exchange, assetID })).balance).to.equal(3800n);
    });

    it("c-to-x moves native coin back to an exchange-chain address", async () => {
      const before = (await client.xvm.getBalance({ address: ewoq.exchange, assetID: "AVAX" })).balance;
      const { code, out } = await run("c-to-x", ["--to", ewoq.exchange, "--amount", "1000000000"]);
      expect(code, out).to.equal(0);
      expect(out).to.match(/xvm\.import \S+: Accepted/);
      // + 1 coin exported from the contract chain, - the exchange chain's import fee.
      expect((await client.xvm.getBalance({ address: ewoq.exchange, assetID: "AVAX" })).balance).to.equal(before + 1_000_000_000n - LOCAL_NETWORK.txFee);
    });

    it("rejects bad arguments before sending anything, naming each problem", async () => {
      const { code, err } = await run("x-to-c", ["--to", "X-local1abc", "--amount", "5x"]);
      expect(code).to.equal(2);
      expect(err).to.match(/--to must be a 0x address/);
      expect(err).to.match(/--amount must be a positive whole number/);
    });

    it("takes --naming nativekit or reference (and the deprecated seed), and names the choices for anything else", async () => {
      const { code, err } = await run("x-to-c", ["--to", ewoq.contract, "--amount", "1", "--naming", "avalanche"]);
      expect(code).to.equal(2);
      expect(err).to.include('--naming must be nativekit or reference, got "avalanche"');
      const seed = await run("x-to-c", ["--to", ewoq.contract, "--amount", "1000000000", "--naming", "seed"]);
      expect(seed.code, seed.err).to.equal(0);
      expect(seed.out).to.match(/xvm\.export \S+: Accepted/);
    });

    it("reports the node's own message when the user cannot pay", async () => {
      const { code, err } = await run("c-to-x", ["--to", ewoq.exchange, "--amount", "999999999999999999"]);
      expect(code).to.equal(1);
      expect(err).to.match(/^error: (cvm|avax)\.export failed: /);
    });

    it("reports a wrong password as the node words it", async () => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runTransferCommand("x-to-c", ["--url", node.url, "--to", ewoq.contract, "--amount", "1", "--username", credentials.username, "--password", "wrong-password-1"], {
        stdout: (t) => out.push(t),
        stderr: (t) => err.push(t),
        env: {},
      });
      expect(code).to.equal(1);
      expect(err.join("")).to.match(/password/);
    });
  });
});
