import { expect } from "chai";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { JsonRpcProvider } from "ethers";
import { formatChainAddress } from "../../src/encoding";
import { LOCAL_NETWORK } from "../../src/network/constants";
import { parsePlatformGenesisJson, platformGenesis } from "../../src/pchain/genesis";
import { DEMO_ASSET, GENESIS_ASSET_BALANCE } from "./fixtures";

const ROOT = path.join(__dirname, "..", "..");
const HARDHAT_CLI = path.join(ROOT, "node_modules", "hardhat", "internal", "cli", "cli.js");

/**
 * Runs `hardhat [args] nativekit:node --port 0` in `cwd`, gives `use` the node's base URL
 * (`http://127.0.0.1:PORT`), then stops it with SIGINT and checks it exits with 0.
 */
async function withNodeTask(args: string[], cwd: string, use: (base: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, [HARDHAT_CLI, ...args, "nativekit:node", "--port", "0"], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const listening = /listening on (http:\/\/[^/\s]+)/;
  try {
    const started = Date.now();
    while (!listening.test(output) && Date.now() - started < 45_000) await new Promise((r) => setTimeout(r, 100));
    const base = listening.exec(output)?.[1];
    expect(base, output).to.be.a("string");
    await use(base!);
  } finally {
    child.kill("SIGINT");
  }
  expect(await exited).to.equal(0);
}

describe("npx hardhat nativekit:node", () => {
  it("serves the simulator with the config's options over HTTP and stops on SIGINT", async function () {
    this.timeout(60_000);
    await withNodeTask([], ROOT, async (base) => {
      const provider = new JsonRpcProvider(`${base}/ext/bc/C/rpc`, undefined, { staticNetwork: true });
      // The config's initial asset balances are there: the node runs with the project's options.
      const balance = await provider.send("eth_getAssetBalance", ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "latest", DEMO_ASSET]);
      expect(BigInt(balance)).to.equal(GENESIS_ASSET_BALANCE);
      provider.destroy();
    });
  });

  it("declares the platform chain's multisig aliases of the config's genesisFile, a path from the project root", async function () {
    this.timeout(60_000);
    const project = path.join(__dirname, "genesis-project");
    await withNodeTask(["--config", path.join(project, "hardhat.config.ts")], project, async (base) => {
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
    });
  });
});
