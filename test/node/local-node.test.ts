import { expect } from "chai";
import { spawn } from "node:child_process";
import path from "node:path";
import { JsonRpcProvider, Wallet } from "ethers";
import { createLocalNode, CONTRACT_CHAIN_RPC_PATH, startHttpNode, type HttpNode } from "../../src";
import { WrappedNativeAsset__factory } from "../../typechain-types";
import { wrap } from "../../src/flows/wrapped";

const ASSET = "0x" + "c0".repeat(32);

describe("the local node over HTTP", () => {
  let node: HttpNode;
  let provider: JsonRpcProvider;
  let url: string;

  beforeEach(async () => {
    const local = await createLocalNode();
    node = await startHttpNode({ port: 0, routes: local.routes });
    url = node.url + CONTRACT_CHAIN_RPC_PATH;
    provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 });
  });

  afterEach(async () => {
    provider.destroy();
    await node.close();
  });

  it("serves the contract chain at /ext/bc/C/rpc", async () => {
    expect((await provider.getNetwork()).chainId).to.equal(43112n);
    expect(await provider.getBlockNumber()).to.equal(0);
  });

  it("runs the wrap flow with the real semantics (deposit credits the original sender)", async () => {
    const alice = await provider.getSigner(0);
    await provider.send("nativekit_setAssetBalance", [alice.address, ASSET, "0x64"]);
    const wrapper = await new WrappedNativeAsset__factory(alice).deploy("W", "W", 18, BigInt(ASSET));
    await wrapper.waitForDeployment();
    await wrap(alice, await wrapper.getAddress(), ASSET, 60n);
    expect(await wrapper.balanceOf(alice.address)).to.equal(60n);
    expect(BigInt(await provider.send("eth_getAssetBalance", [alice.address, "latest", ASSET]))).to.equal(40n);
  });

  it("accepts a transaction signed outside the node", async () => {
    const key = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"; // mnemonic account 1
    const wallet = new Wallet(key, provider);
    const tx = await wallet.sendTransaction({ to: Wallet.createRandom().address, value: 5n });
    expect((await tx.wait())?.status).to.equal(1);
  });

  it("answers a batch in order, with a JSON-RPC error for an unknown method", async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
        { jsonrpc: "2.0", id: 2, method: "eth_nope", params: [] },
      ]),
    });
    const body = (await response.json()) as { id: number; result?: string; error?: { code: number; message: string } }[];
    expect(body[0]).to.deep.include({ id: 1, result: "0xa868" });
    expect(body[1]!.error!.code).to.equal(-32601);
    expect(body[1]!.error!.message).to.match(/eth_nope/);
  });

  it("returns 404 naming the served path for a wrong path", async () => {
    const response = await fetch(node.url + "/ext/bc/D/rpc", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
    });
    expect(response.status).to.equal(404);
    expect(await response.text()).to.contain(CONTRACT_CHAIN_RPC_PATH);
  });
});

describe("npx nativekit node", () => {
  it("prints a ready line with the URL and the accounts, serves requests, and stops on SIGTERM", async function () {
    this.timeout(30_000);
    const bin = path.join(__dirname, "..", "..", "bin", "nativekit.js");
    const child = spawn(process.execPath, [bin, "node", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const started = Date.now();
      while (!/listening on (http:\S+)/.test(output) && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
      const rpcUrl = /listening on (http:\S+)/.exec(output)![1]!;
      expect(rpcUrl).to.match(/\/ext\/bc\/C\/rpc$/);
      expect(output).to.contain("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
      const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true });
      expect(await provider.send("eth_chainId", [])).to.equal("0xa868");
      provider.destroy();
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).to.equal(0);
  });
});
