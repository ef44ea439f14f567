import { execFileSync } from "node:child_process";
import * as path from "node:path";

import { expect } from "chai";

const REPO_ROOT = path.join(__dirname, "..", "..");

/** The modules a fresh Node.js process has loaded after importing the plugin (and, optionally, starting its network). */
function modulesLoadedBy(startNetwork: boolean): string[] {
  const script = `
    require("hardhat/internal/context").HardhatContext.createHardhatContext();
    require("./src/hardhat");
    const { NativeHardhatProvider } = require("./src/hardhat/provider");
    const { resolveNativekitConfig } = require("./src/hardhat/config");
    const done = () => process.stdout.write(JSON.stringify(Object.keys(require.cache)));
    if (${startNetwork}) new NativeHardhatProvider(resolveNativekitConfig(undefined)).request({ method: "eth_chainId" }).then(done);
    else done();
  `;
  const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 });
  return (JSON.parse(out) as string[]).map((file) => path.relative(REPO_ROOT, file));
}

/**
 * A project with the plugin that runs on another network (or runs a task that needs none) must
 * not pay for loading the engine: it is loaded when the nativekit network starts.
 */
describe("hardhat plugin: what importing it loads", function () {
  this.timeout(120_000);

  it("importing the plugin loads no EVM, state or block code", () => {
    const loaded = modulesLoadedBy(false);
    const heavy = loaded.filter((file) => /node_modules\/@ethereumjs\/(evm|vm|statemanager|mpt|block)\//.test(file) || /^src\/engine\/(engine|provider|block-producer|executor)\.ts$/.test(file));
    expect(heavy).to.deep.equal([]);
    expect(loaded).to.include(path.join("src", "hardhat", "index.ts"));
  });

  it("importing the plugin loads no curve code, no ethers and no encodings: those load with the network or a task", () => {
    const loaded = modulesLoadedBy(false);
    const deferred = loaded.filter(
      (file) => /node_modules\/(@ethereumjs|@noble\/curves|tiny-secp256k1|ethers)\//.test(file) || /^src\/(encoding|crypto|flows)\//.test(file) || file === path.join("src", "engine", "accounts.ts"),
    );
    expect(deferred).to.deep.equal([]);
  });

  it("starting the nativekit network loads the engine", () => {
    const loaded = modulesLoadedBy(true);
    expect(loaded).to.include(path.join("src", "engine", "engine.ts"));
    expect(loaded.some((file) => file.includes("node_modules/@ethereumjs/evm/"))).to.equal(true);
  });
});
