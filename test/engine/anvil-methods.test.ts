import { expect } from "chai";
import { gunzipSync } from "node:zlib";
import { concat, createTestClient, createWalletClient, defineChain, http, keccak256, pad, publicActions, type Hex } from "viem";

import { anvilPeer, startPeer, type PeerProcess } from "../../bench/peers";
import { PATHS } from "../../src/network/paths";
import type { HttpNode } from "../../src/node/http-server";
import { startLocalNode } from "../helpers/local-node";

/**
 * The anvil_ namespace (src/engine/api/anvil.ts): viem's test client in `anvil` mode against a
 * nativekit node over HTTP, unchanged; and the same calls on the anvil binary (the
 * @foundry-rs/anvil-linux-amd64 dev dependency) and on nativekit, answered with the same shapes.
 */

const RECIPIENT = "0x000000000000000000000000000000000000c0de";
const OTHER = "0x00000000000000000000000000000000000000aa";
const STRANGER = "0x00000000000000000000000000000000000b0b0b";
const WORD_7 = `0x${"7".padStart(64, "0")}` as Hex;
/** Init code: SSTORE(0, 5); SSTORE(keccak(caller . 1), 9); SSTORE(5000, 11); runtime code 0x00. */
const STORING_CONTRACT: Hex = "0x60056000553360005260016020526009604060002055600b61138855600060005360016000f3";

interface Answer {
  result?: unknown;
  error?: { code: number; message: string };
}

/** One JSON-RPC call, with its result or its error (neither thrown). */
async function call(url: string, method: string, params: unknown[] = []): Promise<Answer> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await response.json()) as Answer;
}

/** The result of a call that must succeed. */
async function result<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const answer = await call(url, method, params);
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result as T;
}

/** A result's shape: its JSON type, hex strings told apart, objects by their keys (recursively). */
function shape(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "[]" : ["array of", shape(value[0])];
  if (typeof value === "string") return /^0x[0-9a-f]*$/i.test(value) ? "hex" : "string";
  if (typeof value === "object") return Object.fromEntries(Object.keys(value).sort().map((k) => [k, shape((value as Record<string, unknown>)[k])]));
  return typeof value;
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe("engine: the anvil_ methods", function () {
  this.timeout(120_000);

  describe("viem's test client in anvil mode, on a nativekit node", () => {
    let node: HttpNode;
    let url: string;
    let from: Hex;
    const chain = defineChain({ id: 43112, name: "nativekit local", nativeCurrency: { name: "AVAX", symbol: "AVAX", decimals: 18 }, rpcUrls: { default: { http: [] } } });
    let client: ReturnType<typeof makeClient>;
    let wallet: ReturnType<typeof createWalletClient>;

    function makeClient(rpcUrl: string) {
      return createTestClient({ mode: "anvil", chain, transport: http(rpcUrl) }).extend(publicActions);
    }

    before(async () => {
      ({ node } = await startLocalNode());
      url = `${node.url}${PATHS.contractRpc}`;
      client = makeClient(url);
      wallet = createWalletClient({ chain, transport: http(url) });
      [from] = (await result<Hex[]>(url, "eth_accounts")) as [Hex];
    });

    after(async () => {
      await client.setIntervalMining({ interval: 0 });
      await node.close();
    });

    const send = (account: Hex, value = 1n) => wallet.sendTransaction({ account, chain, to: RECIPIENT, value });
    const latest = () => client.getBlock({ blockTag: "latest" });
    // viem caches the block number for its polling interval: each read here asks the node.
    const height = () => client.getBlockNumber({ cacheTime: 0 });

    it("mine: blocks, each `interval` seconds after the one before", async () => {
      const before = await height();
      await client.mine({ blocks: 3, interval: 5 });
      expect(await height()).to.equal(before + 3n);
      const third = await latest();
      const second = await client.getBlock({ blockNumber: before + 2n });
      expect(third.timestamp - second.timestamp).to.equal(5n);
      // viem's default interval is 0: blocks one second apart (never at their parent's time).
      await client.mine({ blocks: 2 });
      const last = await latest();
      expect(last.timestamp - (await client.getBlock({ blockNumber: last.number - 1n })).timestamp).to.equal(1n);
    });

    it("setBalance, setCode, setStorageAt and setNonce write the head state", async () => {
      await client.setBalance({ address: OTHER, value: 123n });
      await client.setCode({ address: OTHER, bytecode: "0x6000" });
      await client.setStorageAt({ address: OTHER, index: 1, value: WORD_7 });
      await client.setNonce({ address: OTHER, nonce: 9 });
      expect(await client.getBalance({ address: OTHER })).to.equal(123n);
      expect(await client.getCode({ address: OTHER })).to.equal("0x6000");
      expect(await client.getStorageAt({ address: OTHER, slot: "0x1" })).to.equal(WORD_7);
      expect(await client.getTransactionCount({ address: OTHER })).to.equal(9);
    });

    it("impersonateAccount lets a keyless account send; stopImpersonatingAccount ends it", async () => {
      await client.setBalance({ address: STRANGER, value: 10n ** 18n });
      await client.impersonateAccount({ address: STRANGER });
      const hash = await send(STRANGER);
      expect((await client.getTransactionReceipt({ hash })).status).to.equal("success");
      await client.stopImpersonatingAccount({ address: STRANGER });
      let refused = false;
      await send(STRANGER).catch(() => (refused = true));
      expect(refused).to.equal(true);
    });

    it("setAutomine(false), then dropTransaction: the node goes on mining what comes next", async () => {
      await client.setAutomine(false);
      expect(await client.getAutomine()).to.equal(false);
      const dropped = await send(from, 5n);
      expect((await client.getTxpoolStatus()).pending).to.equal(1);
      await client.dropTransaction({ hash: dropped });
      expect((await client.getTxpoolStatus()).pending).to.equal(0);
      const next = await send(from, 6n);
      await client.mine({ blocks: 1 });
      expect((await client.getTransactionReceipt({ hash: next })).status).to.equal("success");
      await client.setAutomine(true);
      expect(await client.getAutomine()).to.equal(true);
      const automined = await send(from, 7n);
      expect((await client.getTransactionReceipt({ hash: automined })).status).to.equal("success");
    });

    it("setNextBlockBaseFeePerGas gives the next block that base fee", async () => {
      await client.setNextBlockBaseFeePerGas({ baseFeePerGas: 31_000_000_000n });
      await client.mine({ blocks: 1 });
      expect((await latest()).baseFeePerGas).to.equal(31_000_000_000n);
    });

    it("increaseTime and setNextBlockTimestamp move the next block's time", async () => {
      const head = await latest();
      await client.setNextBlockTimestamp({ timestamp: head.timestamp + 1000n });
      await client.mine({ blocks: 1 });
      expect((await latest()).timestamp).to.equal(head.timestamp + 1000n);
      await client.increaseTime({ seconds: 100 });
      await client.mine({ blocks: 1 });
      expect(Number((await latest()).timestamp - (head.timestamp + 1000n))).to.be.within(100, 101);
    });

    it("snapshot and revert", async () => {
      const id = await client.snapshot();
      const before = await height();
      await client.mine({ blocks: 2 });
      await client.revert({ id });
      expect(await height()).to.equal(before);
    });

    it("sendUnsignedTransaction sends from any funded address without its key", async () => {
      await client.setBalance({ address: STRANGER, value: 10n ** 18n });
      const hash = await client.sendUnsignedTransaction({ from: STRANGER, to: RECIPIENT, value: 3n });
      expect((await client.getTransactionReceipt({ hash })).status).to.equal("success");
      // Not left impersonated.
      let refused = false;
      await send(STRANGER).catch(() => (refused = true));
      expect(refused).to.equal(true);
    });

    it("dumpState, reset, loadState: the accounts come back", async () => {
      await client.setBalance({ address: OTHER, value: 456n });
      await client.setCode({ address: OTHER, bytecode: "0x6001" });
      await client.setStorageAt({ address: OTHER, index: 2, value: WORD_7 });
      const sent = await send(from, 11n);
      await client.getTransactionReceipt({ hash: sent });
      const recipientBalance = await client.getBalance({ address: RECIPIENT });
      // A contract whose creation writes slot 0, its mapping at slot 1 for the sender, and slot 5000.
      const deployed = await wallet.sendTransaction({ account: from, chain, data: STORING_CONTRACT });
      const contract = (await client.getTransactionReceipt({ hash: deployed })).contractAddress!;
      const entry = keccak256(concat([pad(from), pad("0x01")]));
      expect(await client.getStorageAt({ address: contract, slot: "0x1388" })).to.equal(pad("0x0b"));
      const state = await client.dumpState();
      expect(state.startsWith("0x1f8b")).to.equal(true);

      await client.reset();
      expect(await height()).to.equal(0n);
      expect(await client.getBalance({ address: OTHER })).to.equal(0n);

      await client.loadState({ state });
      expect(await client.getBalance({ address: OTHER })).to.equal(456n);
      expect(await client.getCode({ address: OTHER })).to.equal("0x6001");
      expect(await client.getStorageAt({ address: OTHER, slot: "0x2" })).to.equal(WORD_7);
      expect(await client.getBalance({ address: RECIPIENT })).to.equal(recipientBalance);
      expect(await client.getCode({ address: contract })).to.equal("0x00");
      expect(await client.getStorageAt({ address: contract, slot: "0x0" })).to.equal(pad("0x05"));
      expect(await client.getStorageAt({ address: contract, slot: entry })).to.equal(pad("0x09"));
      // A slot the dump cannot name (README): not in it.
      expect(await client.getStorageAt({ address: contract, slot: "0x1388" })).to.equal(pad("0x00"));
    });

    it("setIntervalMining: anvil_setIntervalMining in seconds; viem's call in anvil mode is read as milliseconds (README)", async () => {
      await result(url, "anvil_setIntervalMining", [1]);
      expect(await result(url, "anvil_getIntervalMining")).to.equal(1);
      const start = await height();
      await sleep(2300);
      expect(Number((await height()) - start)).to.be.within(1, 3);
      // viem sends evm_setIntervalMining with the number as given: Hardhat's milliseconds here.
      await client.setIntervalMining({ interval: 50 });
      const fast = await height();
      await sleep(400);
      expect(Number((await height()) - fast)).to.be.at.least(2);
      await client.setIntervalMining({ interval: 0 });
      await sleep(100);
      const stopped = await height();
      await sleep(300);
      expect(await height()).to.equal(stopped);
      expect(await result(url, "anvil_getIntervalMining")).to.equal(null);
    });

    it("setBlockTimestampInterval and removeBlockTimestampInterval", async () => {
      await client.setBlockTimestampInterval({ interval: 30 });
      const head = await latest();
      await client.mine({ blocks: 1 });
      expect((await latest()).timestamp - head.timestamp).to.equal(30n);
      await client.removeBlockTimestampInterval();
      expect(await result(url, "anvil_removeBlockTimestampInterval")).to.equal(false);
    });

    it("setLoggingEnabled, setCoinbase and setBlockGasLimit are answered; setMinGasPrice is refused as anvil refuses it", async () => {
      await client.setLoggingEnabled(false);
      await client.setLoggingEnabled(true);
      await client.setCoinbase({ address: OTHER });
      await client.setBlockGasLimit({ gasLimit: 20_000_000n });
      await client.mine({ blocks: 1 });
      const block = await latest();
      expect(block.miner).to.equal(OTHER);
      expect(block.gasLimit).to.equal(20_000_000n);
      let message = "";
      await client.setMinGasPrice({ gasPrice: 1n }).catch((error: Error) => (message = error.message));
      expect(message).to.contain("not supported when EIP-1559 is active");
    });
  });

  describe("the same calls on anvil and on nativekit answer with the same shapes", () => {
    let anvil: PeerProcess;
    let node: HttpNode;
    let urls: { anvil: string; nativekit: string };

    before(async () => {
      anvil = (await startPeer(anvilPeer())).peer;
      ({ node } = await startLocalNode());
      urls = { anvil: anvil.spec.url(anvil.port), nativekit: `${node.url}${PATHS.contractRpc}` };
    });

    after(async () => {
      await anvil?.stop();
      await node?.close();
    });

    /** Calls `method` on both; returns both answers after checking both succeeded or both were refused. */
    async function both(method: string, params: unknown[] | ((url: string) => Promise<unknown[]>) = []): Promise<{ anvil: Answer; nativekit: Answer }> {
      const answers = {
        anvil: await call(urls.anvil, method, typeof params === "function" ? await params(urls.anvil) : params),
        nativekit: await call(urls.nativekit, method, typeof params === "function" ? await params(urls.nativekit) : params),
      };
      expect(answers.nativekit.error === undefined, `${method}: refused on nativekit as on anvil (${JSON.stringify(answers)})`).to.equal(answers.anvil.error === undefined);
      return answers;
    }

    async function sameShape(method: string, params: unknown[] | ((url: string) => Promise<unknown[]>) = []): Promise<void> {
      const answers = await both(method, params);
      expect(shape(answers.nativekit.result), method).to.deep.equal(shape(answers.anvil.result));
    }

    it("the powers over accounts, the pool, the clock and mining", async () => {
      const zero32 = `0x${"0".repeat(64)}`;
      for (const [method, params] of [
        ["anvil_getAutomine", []],
        ["anvil_setAutomine", [true]],
        ["anvil_mine", ["0x2", "0x5"]],
        ["anvil_setBalance", [OTHER, "0x10"]],
        ["anvil_setNonce", [OTHER, "0x5"]],
        ["anvil_setCode", [OTHER, "0x6000"]],
        ["anvil_setStorageAt", [OTHER, "0x1", WORD_7]],
        ["anvil_impersonateAccount", [OTHER]],
        ["anvil_stopImpersonatingAccount", [OTHER]],
        ["anvil_dropTransaction", [zero32]],
        ["anvil_dropAllTransactions", []],
        ["anvil_removePoolTransactions", [OTHER]],
        ["anvil_setNextBlockBaseFeePerGas", ["0x3b9aca00"]],
        ["anvil_setLoggingEnabled", [false]],
        ["anvil_setCoinbase", [OTHER]],
        ["anvil_setBlockGasLimit", ["0x1c9c380"]],
        ["anvil_increaseTime", ["0x10"]],
        ["anvil_setTime", [2_000_000_000]],
        ["anvil_setBlockTimestampInterval", [5]],
        ["anvil_removeBlockTimestampInterval", []],
        ["anvil_snapshot", []],
        ["anvil_setIntervalMining", [0]],
        ["anvil_getIntervalMining", []],
        ["anvil_setMinGasPrice", ["0x1"]],
        ["anvil_mine_detailed", []],
      ] as [string, unknown[]][]) {
        if (method === "anvil_mine_detailed") {
          const answers = await both(method, params);
          const [ours, theirs] = [answers.nativekit.result as Record<string, unknown>[], answers.anvil.result as Record<string, unknown>[]];
          expect(ours).to.have.length(theirs.length);
          // nativekit's blocks are the contract chain's, with its own header fields besides anvil's;
          // anvil runs a later hardfork than the contract chain's Cancun, whose blocks have no requestsHash.
          const missing = Object.keys(theirs[0]!).filter((k) => !(k in ours[0]!));
          expect(missing, "block fields anvil has that nativekit lacks").to.deep.equal(["requestsHash"]);
          continue;
        }
        await sameShape(method, params);
      }
      await sameShape("anvil_revert", async (url) => [await result(url, "anvil_snapshot")]);
      await sameShape("anvil_setNextBlockTimestamp", async (url) => [Number((await result<{ timestamp: string }>(url, "eth_getBlockByNumber", ["latest", false])).timestamp) + 100]);
    });

    it("anvil_dropTransaction answers the dropped transaction's hash", async () => {
      const answers: Record<string, unknown> = {};
      for (const [name, url] of Object.entries(urls)) {
        const [sender] = await result<string[]>(url, "eth_accounts");
        await result(url, "evm_setAutomine", [false]);
        const hash = await result<string>(url, "eth_sendTransaction", [{ from: sender, to: RECIPIENT, value: "0x1" }]);
        answers[name] = (await result(url, "anvil_dropTransaction", [hash])) === hash;
        await result(url, "evm_setAutomine", [true]);
      }
      expect(answers).to.deep.equal({ anvil: true, nativekit: true });
    });

    it("anvil_nodeInfo and anvil_metadata have anvil's fields", async () => {
      await sameShape("anvil_nodeInfo");
      const { anvil: theirs, nativekit: ours } = await both("anvil_metadata");
      const keys = (a: Answer) => Object.keys(a.result as object).sort();
      // Not served: the build's commit, and the snapshots map (README: differences from anvil).
      expect(keys(ours)).to.deep.equal(keys(theirs).filter((k) => k !== "clientCommitSha" && k !== "snapshots"));
      expect((ours.result as { forkedNetwork: unknown }).forkedNetwork).to.equal(null);
    });

    it("anvil_dumpState is anvil's format (hex of gzipped JSON), and each loads its own dump and the other's", async () => {
      for (const url of Object.values(urls)) {
        await result(url, "anvil_setBalance", [OTHER, "0x99"]);
        await result(url, "anvil_setStorageAt", [OTHER, "0x3", WORD_7]);
      }
      const dumps = await both("anvil_dumpState");
      const decode = (a: Answer) => JSON.parse(gunzipSync(Buffer.from((a.result as string).slice(2), "hex")).toString()) as { accounts: Record<string, Record<string, unknown>> };
      const [ours, theirs] = [decode(dumps.nativekit), decode(dumps.anvil)];
      expect(Object.keys(ours).sort()).to.deep.equal(Object.keys(theirs).sort());
      expect(shape(ours.accounts[OTHER])).to.deep.equal(shape(theirs.accounts[OTHER]));
      expect(ours.accounts[OTHER]).to.deep.equal(theirs.accounts[OTHER]);
      for (const url of Object.values(urls)) {
        await result(url, "anvil_setBalance", [OTHER, "0x0"]);
        expect(await result(url, "anvil_loadState", [await result(url, "anvil_dumpState")])).to.equal(true);
      }
      // Each loads the other's dump.
      await result(urls.nativekit, "anvil_setBalance", [OTHER, "0x1"]);
      expect(await result(urls.nativekit, "anvil_loadState", [dumps.anvil.result])).to.equal(true);
      expect(await result(urls.nativekit, "eth_getBalance", [OTHER, "latest"])).to.equal("0x99");
      await result(urls.anvil, "anvil_setBalance", [OTHER, "0x1"]);
      expect(await result(urls.anvil, "anvil_loadState", [dumps.nativekit.result])).to.equal(true);
      expect(await result(urls.anvil, "eth_getBalance", [OTHER, "latest"])).to.equal("0x99");
      expect(await result(urls.anvil, "eth_getStorageAt", [OTHER, "0x3", "latest"])).to.equal(WORD_7);
    });

    it("anvil_reset", async () => {
      await sameShape("anvil_reset", []);
      for (const url of Object.values(urls)) expect(await result(url, "eth_blockNumber")).to.equal("0x0");
    });
  });
});
