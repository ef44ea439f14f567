import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encodeNativeAssetCallInput, NATIVE_ASSET_BALANCE_ADDRESS, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding";
import { WrappedNativeAsset__factory, type WrappedNativeAsset } from "../../typechain-types";
import { startChain, type TestChain } from "../helpers/chain";
import { FORK_ASSET, startRemoteNativekitNode, type RemoteNativekitNode } from "../helpers/fork-remote";

type Json = Record<string, unknown>;
const hexq = (n: bigint | number) => "0x" + n.toString(16);

describe("fork: a live nativekit node over HTTP", function () {
  this.timeout(60_000);
  let remote: RemoteNativekitNode;
  let forkBlock: number;
  let cacheDir: string;
  let fork: TestChain;
  let wrapper: WrappedNativeAsset;
  const lines: string[] = [];

  async function startFork(extra: Json = {}): Promise<TestChain> {
    return startChain({ forking: { url: remote.rpcUrl, blockNumber: forkBlock, cacheDir, ...extra }, log: (l) => lines.push(l) });
  }

  before(async () => {
    remote = await startRemoteNativekitNode();
    forkBlock = await remote.provider.getBlockNumber();
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-fork-"));
    fork = await startFork();
    wrapper = WrappedNativeAsset__factory.connect(remote.wrapperAddress, fork.signers[0]!);
  });

  after(async () => {
    await remote.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    // Let the chains go: later suites (heap snapshots) should not carry them.
    (remote as unknown) = (fork as unknown) = (wrapper as unknown) = undefined;
  });

  const assetBalance = async (chain: { rpc(m: string, p?: unknown[]): Promise<unknown> }, address: string, block = "latest") =>
    BigInt((await chain.rpc("eth_getAssetBalance", [address, block, FORK_ASSET])) as string);

  it("takes the remote's chain ID", async () => {
    expect(await fork.rpc("eth_chainId")).to.equal(await remote.rpc("eth_chainId"));
  });

  it("continues the remote's numbering: the first local block's parent is the fork block, by the remote's hash", async () => {
    const remoteForkBlock = await remote.rpc<Json>("eth_getBlockByNumber", [hexq(forkBlock), false]);
    expect(await fork.rpc("eth_blockNumber")).to.equal(hexq(forkBlock));
    await fork.rpc("hardhat_mine", []);
    const first = (await fork.rpc("eth_getBlockByNumber", [hexq(forkBlock + 1), false])) as Json;
    expect(first.parentHash).to.equal(remoteForkBlock.hash);
    expect(first.number).to.equal(hexq(forkBlock + 1));
  });

  it("reports the fork in hardhat_metadata, as Hardhat's network does", async () => {
    const remoteForkBlock = await remote.rpc<Json>("eth_getBlockByNumber", [hexq(forkBlock), false]);
    const metadata = (await fork.rpc("hardhat_metadata")) as Json;
    expect(metadata.forkedNetwork).to.deep.equal({ chainId: 43112, forkBlockNumber: forkBlock, forkBlockHash: remoteForkBlock.hash });
  });

  it("reads the remote's code, storage, balances and nonces at the fork block", async () => {
    expect(await fork.rpc("eth_getCode", [remote.wrapperAddress, "latest"])).to.equal(await remote.rpc("eth_getCode", [remote.wrapperAddress, hexq(forkBlock)]));
    expect(await wrapper.totalSupply()).to.equal(300n);
    expect(await wrapper.balanceOf(remote.signers[1]!.address)).to.equal(300n);
    expect(await fork.rpc("eth_getStorageAt", [remote.wrapperAddress, "0x2", "latest"])).to.equal(hexq(300n).replace("0x", "0x" + "0".repeat(64 - 3)));
    expect(await fork.rpc("eth_getBalance", [remote.remoteOnlyAccount, "latest"])).to.equal(hexq(10n ** 18n));
    expect(await fork.rpc("eth_getTransactionCount", [remote.signers[0]!.address, "latest"])).to.equal(
      await remote.rpc("eth_getTransactionCount", [remote.signers[0]!.address, hexq(forkBlock)]),
    );
  });

  it("reads multi-coin balances from the remote with eth_getAssetBalance", async () => {
    expect(await assetBalance(fork, remote.wrapperAddress)).to.equal(300n);
    expect(await assetBalance(fork, remote.signers[2]!.address)).to.equal(1000n);
    expect(lines).to.include("Multi-coin balances: read from the remote with eth_getAssetBalance.");
  });

  it("serves blocks, transactions, receipts and logs up to the fork block from the remote, hashes as given", async () => {
    const block = hexq(remote.depositBlock);
    expect(await fork.rpc("eth_getBlockByNumber", [block, true])).to.deep.equal(await remote.rpc("eth_getBlockByNumber", [block, true]));
    const remoteBlock = await remote.rpc<Json>("eth_getBlockByNumber", [block, false]);
    expect(((await fork.rpc("eth_getBlockByHash", [remoteBlock.hash, false])) as Json).hash).to.equal(remoteBlock.hash);
    expect(await fork.rpc("eth_getTransactionByHash", [remote.depositHash])).to.deep.equal(await remote.rpc("eth_getTransactionByHash", [remote.depositHash]));
    expect(await fork.rpc("eth_getTransactionReceipt", [remote.depositHash])).to.deep.equal(await remote.rpc("eth_getTransactionReceipt", [remote.depositHash]));
    const logs = (await fork.rpc("eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest", address: remote.wrapperAddress }])) as Json[];
    expect(logs.map((l) => l.transactionHash)).to.include(remote.depositHash);
  });

  it("forwards eth_call, eth_getBalance and eth_getAssetBalance at a block before the fork to the remote", async () => {
    const before = hexq(remote.depositBlock - 1);
    const data = wrapper.interface.encodeFunctionData("totalSupply");
    expect(BigInt((await fork.rpc("eth_call", [{ to: remote.wrapperAddress, data }, before])) as string)).to.equal(0n);
    expect(await fork.rpc("eth_getBalance", [remote.remoteOnlyAccount, before])).to.equal("0x0");
    expect(await assetBalance(fork, remote.wrapperAddress, before)).to.equal(0n);
  });

  it("runs the wrapper's deposit and withdraw with caller forwarding on the forked state", async () => {
    const [, s1, s2] = fork.signers;
    const deposit = encodeNativeAssetCallInput({ to: remote.wrapperAddress, assetId: FORK_ASSET, amount: 100n, callData: wrapper.interface.encodeFunctionData("deposit") });
    expect((await (await s2!.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data: deposit })).wait())!.status).to.equal(1);
    expect(await wrapper.balanceOf(s2!.address)).to.equal(100n);
    expect(await wrapper.totalSupply()).to.equal(400n);
    expect(await assetBalance(fork, remote.wrapperAddress)).to.equal(400n);
    expect(await assetBalance(fork, s2!.address)).to.equal(900n);
    await (await wrapper.connect(s1!).withdraw(50n)).wait();
    expect(await wrapper.balanceOf(s1!.address)).to.equal(250n);
    expect(await assetBalance(fork, s1!.address)).to.equal(750n);
    expect(await assetBalance(fork, remote.wrapperAddress)).to.equal(350n);
  });

  it("never writes to the remote", async () => {
    expect(await remote.provider.getBlockNumber()).to.equal(forkBlock);
    expect(await remote.wrapper.totalSupply()).to.equal(300n);
    expect(BigInt(await remote.rpc<string>("eth_getAssetBalance", [remote.wrapperAddress, "latest", FORK_ASSET]))).to.equal(300n);
  });

  it("remembers a slot cleared on the fork instead of reading the remote's value again", async () => {
    await fork.rpc("hardhat_setStorageAt", [remote.wrapperAddress, "0x2", "0x" + "00".repeat(32)]);
    await fork.rpc("hardhat_mine", []);
    expect(await fork.rpc("eth_getStorageAt", [remote.wrapperAddress, "0x2", "latest"])).to.equal("0x" + "00".repeat(32));
    expect(await wrapper.totalSupply()).to.equal(0n);
  });

  it("remembers an asset balance spent to zero instead of reading the remote's again", async () => {
    const [, , , s3] = fork.signers;
    const all = encodeNativeAssetCallInput({ to: remote.wrapperAddress, assetId: FORK_ASSET, amount: 1000n, callData: wrapper.interface.encodeFunctionData("deposit") });
    await (await s3!.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data: all })).wait();
    expect(await assetBalance(fork, s3!.address)).to.equal(0n);
  });

  it("sends from an account only the remote funded, by impersonation", async () => {
    const account = remote.remoteOnlyAccount;
    await fork.rpc("hardhat_impersonateAccount", [account]);
    const hash = (await fork.rpc("eth_sendTransaction", [{ from: account, to: remote.signers[0]!.address, value: hexq(10n ** 17n) }])) as string;
    expect(((await fork.rpc("eth_getTransactionReceipt", [hash])) as Json).status).to.equal("0x1");
    expect(BigInt((await fork.rpc("eth_getBalance", [account, "latest"])) as string) < 9n * 10n ** 17n).to.equal(true);
  });

  it("goes back over forked state with evm_snapshot and evm_revert", async () => {
    const id = await fork.rpc("evm_snapshot");
    await fork.rpc("hardhat_setBalance", [remote.wrapperAddress, "0x1234"]);
    await fork.rpc("hardhat_mine", []);
    await fork.rpc("evm_revert", [id]);
    const code = await fork.rpc("eth_getCode", [remote.wrapperAddress, "latest"]);
    expect(code).to.not.equal("0x");
    expect(await fork.rpc("eth_getBalance", [remote.wrapperAddress, "latest"])).to.equal("0x0");
  });

  it("hardhat_reset forks again with new forking parameters, and returns to a chain without fork", async () => {
    await fork.rpc("hardhat_reset", [{ forking: { jsonRpcUrl: remote.rpcUrl, blockNumber: hexq(remote.depositBlock - 1) } }]);
    expect(await fork.rpc("eth_blockNumber")).to.equal(hexq(remote.depositBlock - 1));
    expect(await wrapper.totalSupply()).to.equal(0n);
    await fork.rpc("hardhat_reset", [{}]);
    expect(await fork.rpc("eth_blockNumber")).to.equal("0x0");
    expect(await fork.rpc("eth_getCode", [remote.wrapperAddress, "latest"])).to.equal("0x");
    await fork.rpc("hardhat_reset", []);
    expect(await fork.rpc("eth_blockNumber")).to.equal(hexq(forkBlock));
    expect(await wrapper.totalSupply()).to.equal(300n);
  });

  it("says which precompile behaviour is in force: a nativekit remote passes on its own", async () => {
    expect(lines).to.include("Native-asset precompiles: active (as the remote nativekit node runs them).");
    expect(await fork.rpc("nativekit_precompileMode")).to.equal("active");
  });

  it("forks a nativekit node that runs deprecated precompiles with deprecated precompiles", async () => {
    const deprecated = await startRemoteNativekitNodeDeprecated();
    try {
      const chain = await startChain({ forking: { url: deprecated.rpcUrl, cacheDir }, log: () => {} });
      expect(await chain.rpc("nativekit_precompileMode")).to.equal("deprecated");
      const input = remote.signers[0]!.address + FORK_ASSET.slice(2);
      const failure = await chain.rpc("eth_call", [{ to: NATIVE_ASSET_BALANCE_ADDRESS, data: input }, "latest"]).catch((e: Error) => e);
      expect(failure).to.be.instanceOf(Error);
    } finally {
      await deprecated.close();
    }
  });

  it("can force the precompiles' behaviour whatever the remote runs", async () => {
    const chain = await startFork({ precompiles: "deprecated" });
    expect(await chain.rpc("nativekit_precompileMode")).to.equal("deprecated");
  });
});

async function startRemoteNativekitNodeDeprecated(): Promise<{ rpcUrl: string; close(): Promise<void> }> {
  const { NodeChains } = await import("../../src/node/node-chains");
  const { startHttpNode } = await import("../../src/node/http-server");
  const { PATHS } = await import("../../src/network/paths");
  const network = await NodeChains.create({ deprecatedPrecompiles: true });
  const node = await startHttpNode({ port: 0, routes: network.routes });
  return {
    rpcUrl: `${node.url}${PATHS.contractRpc}`,
    close: async () => {
      await node.close();
      await network.close();
    },
  };
}
