import { expect } from "chai";
import { spawn } from "node:child_process";
import path from "node:path";
import fs from "node:fs";
import { JsonRpcProvider } from "ethers";
import { formatChainAddress } from "../../src/encoding";
import { LOCAL_NETWORK } from "../../src/network/constants";
import { parsePlatformGenesisJson, platformGenesis } from "../../src/pchain/genesis";
import { DEMO_ASSET, GENESIS_ASSET_BALANCE } from "./fixtures";

describe("npx hardhat nativekit:node", () => {
  it("serves the simulator with the config's options over HTTP and stops on SIGINT", async function () {
    this.timeout(60_000);
    const root = path.join(__dirname, "..", "..");
    const cli = path.join(root, "node_modules", "hardhat", "internal", "cli", "cli.js");
    const child = spawn(process.execPath, [cli, "nativekit:node", "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const started = Date.now();
      while (!/listening on (http:\S+)/.test(output) && Date.now() - started < 45_000) await new Promise((r) => setTimeout(r, 100));
      const match = /listening on (http:\S+)/.exec(output);
      expect(match, output).to.not.equal(null);
      const provider = new JsonRpcProvider(match![1], undefined, { staticNetwork: true });
      // The config's initial asset balances are there: the node runs with the project's options.
      const balance = await provider.send("eth_getAssetBalance", ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "latest", DEMO_ASSET]);
      expect(BigInt(balance)).to.equal(GENESIS_ASSET_BALANCE);
      provider.destroy();
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).to.equal(0);
  });

  it("declares the platform chain's multisig aliases of the config's genesisFile, a path from the project root", async function () {
    this.timeout(60_000);
    const root = path.join(__dirname, "..", "..");
    const project = path.join(__dirname, "genesis-project");
    const cli = path.join(root, "node_modules", "hardhat", "internal", "cli", "cli.js");
    const child = spawn(process.execPath, [cli, "--config", path.join(project, "hardhat.config.ts"), "nativekit:node", "--port", "0"], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const started = Date.now();
      while (!/listening on (http:\/\/[^/\s]+)/.test(output) && Date.now() - started < 45_000) await new Promise((r) => setTimeout(r, 100));
      const base = /listening on (http:\/\/[^/\s]+)/.exec(output)?.[1];
      expect(base, output).to.be.a("string");
      // The alias's address is Camino's, derived from its owners, threshold and memo.
      const declared = platformGenesis(LOCAL_NETWORK, parsePlatformGenesisJson(JSON.parse(fs.readFileSync(path.join(project, "genesis.json"), "utf8")), LOCAL_NETWORK));
      const alias = formatChainAddress(declared.aliases[0]!.alias.id, "local", "P");
      const response = await fetch(`${base}/ext/bc/P`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "platform.getMultisigAlias", params: { address: alias } }),
      });
      const { result } = (await response.json()) as { result: { threshold: string; addresses: string[] } };
      expect(result.threshold).to.equal("2");
      expect(result.addresses).to.have.length(3);
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).to.equal(0);
  });
});
