import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { JsonRpcProvider } from "ethers";
import { RpcHarness__factory } from "../../typechain-types";
import { startChain, testAssetId, type TestChain } from "../helpers/chain";
import { alive } from "../helpers/processes";

/** A port that was free a moment ago (`hardhat node` takes no port 0). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("fork: a `hardhat node` over HTTP", function () {
  this.timeout(90_000);
  let child: ChildProcess;
  let dir: string;
  let url: string;
  let remote: JsonRpcProvider;
  let harnessAddress: string;
  let forkBlock: number;
  let fork: TestChain;
  const lines: string[] = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-hardhat-remote-"));
    // A bare config: the project's own would load the nativekit plugin, not needed by `hardhat node`.
    fs.writeFileSync(path.join(dir, "hardhat.config.js"), "module.exports = {};\n");
    const port = await freePort();
    const cli = path.join(__dirname, "..", "..", "node_modules", "hardhat", "internal", "cli", "cli.js");
    child = spawn(process.execPath, [cli, "--config", path.join(dir, "hardhat.config.js"), "node", "--hostname", "127.0.0.1", "--port", String(port)], {
      cwd: path.join(__dirname, "..", ".."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const started = Date.now();
    while (!output.includes("Started HTTP") && Date.now() - started < 60_000) {
      if (child.exitCode !== null) throw new Error(`hardhat node exited: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output, output).to.include("Started HTTP");
    url = `http://127.0.0.1:${port}/`;
    remote = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 });
    const signer = await remote.getSigner(0);
    const harness = await new RpcHarness__factory(signer).deploy();
    await harness.waitForDeployment();
    harnessAddress = await harness.getAddress();
    await (await harness.store(42)).wait();
    forkBlock = await remote.getBlockNumber();
    fork = await startChain({ forking: { url, blockNumber: forkBlock, cacheDir: path.join(dir, "cache") }, log: (l) => lines.push(l) });
  });

  after(async () => {
    remote?.destroy();
    if (child?.pid !== undefined && alive(child.pid)) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(child.pid, "SIGTERM");
      await exited;
    }
    expect(child.pid !== undefined && alive(child.pid)).to.equal(false);
    fs.rmSync(dir, { recursive: true, force: true });
    (fork as unknown) = undefined;
  });

  it("takes the remote's chain ID (31337) and keeps the precompiles active on a chain without a known schedule", async () => {
    expect(await fork.rpc("eth_chainId")).to.equal("0x7a69");
    expect(lines).to.include("Native-asset precompiles: active (chain 31337 has no known upgrade schedule).");
  });

  it("reads the remote's code and storage, and its block by the remote's hash", async () => {
    expect(await fork.rpc("eth_getCode", [harnessAddress, "latest"])).to.equal(await remote.getCode(harnessAddress));
    expect(BigInt((await fork.rpc("eth_getStorageAt", [harnessAddress, "0x0", "latest"])) as string)).to.equal(42n);
    await fork.rpc("hardhat_mine", []);
    const first = (await fork.rpc("eth_getBlockByNumber", [`0x${(forkBlock + 1).toString(16)}`, false])) as { parentHash: string };
    expect(first.parentHash).to.equal((await remote.getBlock(forkBlock))!.hash);
  });

  it("starts multi-coin balances at zero: a Hardhat node does not serve eth_getAssetBalance", async () => {
    const signer = fork.signers[0]!.address;
    expect(await fork.rpc("eth_getAssetBalance", [signer, "latest", testAssetId(1)])).to.equal("0x0");
    expect(lines.some((l) => l.includes("does not serve eth_getAssetBalance"))).to.equal(true);
  });

  it("writes stay on the fork: the remote's storage and block number are unchanged", async () => {
    const harness = RpcHarness__factory.connect(harnessAddress, fork.signers[0]!);
    await (await harness.store(99)).wait();
    expect(BigInt((await fork.rpc("eth_getStorageAt", [harnessAddress, "0x0", "latest"])) as string)).to.equal(99n);
    expect(BigInt(await remote.getStorage(harnessAddress, 0))).to.equal(42n);
    expect(await remote.getBlockNumber()).to.equal(forkBlock);
  });
});
