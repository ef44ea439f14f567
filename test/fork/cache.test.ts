import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding";
import { WrappedNativeAsset__factory } from "../../typechain-types";
import { startChain } from "../helpers/chain";
import { startCountingProxy, type TestServer } from "../helpers/fork";
import { FORK_ASSET, startRemoteNativekitNode, type RemoteNativekitNode } from "../helpers/fork-remote";

/** Calls a fork on a loopback remote makes at every start, to check the remote's chain is still the cached one. */
const LOOPBACK_START_CHECKS = new Set(["eth_chainId", "eth_getBlockByNumber"]);

describe("fork: the disk cache", function () {
  this.timeout(60_000);
  let remote: RemoteNativekitNode;
  let proxy: TestServer;
  let cacheDir: string;
  let forkBlock: number;
  let firstRun: unknown[];
  const timings: string[] = [];

  /** A small forked suite: reads of the remote's state and history, then a deposit on the fork. */
  async function runSuite(label: string): Promise<unknown[]> {
    const started = performance.now();
    const chain = await startChain({ forking: { url: proxy.url, blockNumber: forkBlock, cacheDir }, log: () => {} });
    const wrapper = WrappedNativeAsset__factory.connect(remote.wrapperAddress, chain.signers[0]!);
    const results: unknown[] = [
      await wrapper.totalSupply(),
      ...(await Promise.all(remote.signers.map((s) => wrapper.balanceOf(s.address)))),
      await chain.rpc("eth_getAssetBalance", [remote.wrapperAddress, "latest", FORK_ASSET]),
      await chain.rpc("eth_getStorageAt", [remote.wrapperAddress, "0x2", "latest"]),
      await chain.rpc("eth_getTransactionReceipt", [remote.depositHash]),
      await chain.rpc("eth_getBalance", [remote.remoteOnlyAccount, "latest"]),
    ];
    const data = encodeNativeAssetCallInput({ to: remote.wrapperAddress, assetId: FORK_ASSET, amount: 10n, callData: wrapper.interface.encodeFunctionData("deposit") });
    await (await chain.signers[2]!.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data })).wait();
    results.push(await wrapper.totalSupply());
    timings.push(`${label}: ${(performance.now() - started).toFixed(0)} ms, ${proxy.methods.length} remote calls`);
    return results;
  }

  before(async () => {
    remote = await startRemoteNativekitNode();
    forkBlock = await remote.provider.getBlockNumber();
    proxy = await startCountingProxy(remote.rpcUrl, Number(process.env.FORK_LATENCY_MS ?? 0));
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-fork-cache-"));
  });

  after(async () => {
    await proxy.close().catch(() => {});
    await remote.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    if (process.env.FORK_TIMINGS !== undefined) console.log(timings.join("\n"));
    (remote as unknown) = undefined;
  });

  it("a first run reads the remote and writes each immutable answer to its own file under the endpoint and chain", async () => {
    firstRun = await runSuite("cold");
    expect(proxy.methods).to.include.members(["eth_getCode", "eth_getStorageAt", "eth_getAssetBalance", "eth_getTransactionReceipt"]);
    const chainDirs = fs.readdirSync(path.join(cacheDir, "rpc_cache"));
    expect(chainDirs).to.have.length(1);
    const files = fs.readdirSync(path.join(cacheDir, "rpc_cache", chainDirs[0]!, "43112"), { recursive: true }).filter((f) => String(f).endsWith(".json"));
    expect(files.length).to.be.greaterThan(10);
  });

  it("a second run asks the remote nothing that is cached", async () => {
    proxy.methods.length = 0;
    expect(await runSuite("cached")).to.deep.equal(firstRun);
    expect(proxy.methods.filter((m) => !LOOPBACK_START_CHECKS.has(m))).to.deep.equal([]);
  });

  it("a third run works offline, from the cache alone, with the remote stopped", async () => {
    await proxy.close();
    proxy.methods.length = 0;
    expect(await runSuite("offline")).to.deep.equal(firstRun);
  });

  it("never shares answers between two endpoints with the same chain ID", async () => {
    const other = await startCountingProxy(remote.rpcUrl);
    try {
      await startChain({ forking: { url: other.url, blockNumber: forkBlock, cacheDir }, log: () => {} }).then((c) => c.rpc("eth_getCode", [remote.wrapperAddress, "latest"]));
      expect(other.methods).to.include("eth_getCode");
      expect(fs.readdirSync(path.join(cacheDir, "rpc_cache"))).to.have.length(2);
    } finally {
      await other.close();
    }
  });
});
