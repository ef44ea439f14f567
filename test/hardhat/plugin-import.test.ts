import * as path from "node:path";

import { expect } from "chai";

import { stdoutOfFreshProcess } from "../helpers/fresh-process";
import { modulesLoadedBy } from "../helpers/loaded-modules";

/** The modules a fresh Node.js process has loaded after importing the plugin (and, optionally, starting its network). */
function loadedByThePlugin(startNetwork: boolean): string[] {
  return modulesLoadedBy(`
    require("hardhat/internal/context").HardhatContext.createHardhatContext();
    require("./src/hardhat");
    const { NativeHardhatProvider } = require("./src/hardhat/provider");
    const { resolveNativekitConfig } = require("./src/hardhat/config");
    if (${startNetwork}) new NativeHardhatProvider(resolveNativekitConfig(undefined)).request({ method: "eth_chainId" }).then(report);
    else report();
  `);
}

/**
 * A project with the plugin that runs on another network (or runs a task that needs none) must
 * not pay for loading the engine: it is loaded when the nativekit network starts.
 */
describe("hardhat plugin: what importing it loads", function () {
  this.timeout(120_000);
  /** What importing alone loads: one fresh process, read by the first two tests. */
  let imported: string[];
  before(() => {
    imported = loadedByThePlugin(false);
  });

  it("importing the plugin loads no EVM, state or block code", () => {
    const loaded = imported;
    const heavy = loaded.filter((file) => /node_modules\/@ethereumjs\/(evm|vm|statemanager|mpt|block)\//.test(file) || /^src\/engine\/(engine|provider|block-producer|executor)\.ts$/.test(file));
    expect(heavy).to.deep.equal([]);
    expect(loaded).to.include(path.join("src", "hardhat", "index.ts"));
  });

  it("importing the plugin loads no curve code, no ethers and no encodings: those load with the network or a task", () => {
    const loaded = imported;
    const deferred = loaded.filter(
      (file) => /node_modules\/(@ethereumjs|@noble\/curves|tiny-secp256k1|ethers)\//.test(file) || /^src\/(encoding|crypto|flows)\//.test(file) || file === path.join("src", "engine", "accounts.ts"),
    );
    expect(deferred).to.deep.equal([]);
  });

  it("starting the nativekit network loads the engine", () => {
    const loaded = loadedByThePlugin(true);
    expect(loaded).to.include(path.join("src", "engine", "engine.ts"));
    expect(loaded.some((file) => file.includes("node_modules/@ethereumjs/evm/"))).to.equal(true);
  });

  it("starting the nativekit network loads the engine through the loader, which takes the package's bundle when there is one", () => {
    const codeCache = stdoutOfFreshProcess(`
      const { NativeHardhatProvider } = require("./src/hardhat/provider");
      const { resolveNativekitConfig } = require("./src/hardhat/config");
      const { engineCodeCache } = require("./src/hardhat/in-process-engine-loader");
      new NativeHardhatProvider(resolveNativekitConfig(undefined)).request({ method: "eth_chainId" }).then(() => process.stdout.write(engineCodeCache()));
    `);
    // Run from the sources there is no bundle beside the loader: it loads the modules themselves.
    // Loaded any other way, the loader would still say "not loaded".
    expect(codeCache).to.equal("no bundle");
  });
});
