import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

import { expect } from "chai";
import { transformSync } from "esbuild";

import {
  ABANDONED_PARTIAL_MS,
  CODE_CACHES_KEPT,
  type DirectoryStats,
  ENGINE_BUNDLE_BANNER as LOADER_BANNER,
  engineCodeCacheDirectory,
  isPrivateDirectory,
} from "../../src/hardhat/in-process-engine-loader";
import { type BuiltBundle, bundler, ENGINE_SOURCE_ENTRY, REPO_ROOT, withRepositoryModules } from "../helpers/engine-bundle";
import { startRemoteNativekitNode } from "../helpers/fork-remote";
import { refusal } from "../helpers/refusal";

const { bundleEngine, ENGINE_BUNDLE_BANNER, EXTERNAL_PACKAGES } = bundler;

/** What a fresh Node.js process reports after requiring the bundle and asking a fresh chain one thing. */
interface BundleRun {
  chainId: string;
  blockNumber: string;
  jumpAnalysisMemo: boolean;
  loadedPackages: string[];
}


function runBundle(bundle: string): BundleRun {
  const script = `
    const engine = require(${JSON.stringify(bundle)});
    (async () => {
      const provider = await engine.createNativeProvider({});
      const chainId = await provider.request({ method: "eth_chainId" });
      const [from] = await provider.request({ method: "eth_accounts" });
      // A contract creation: PUSH1 0 PUSH1 0 RETURN, through the EVM the bundle holds.
      await provider.request({ method: "eth_sendTransaction", params: [{ from, data: "0x60006000f3" }] });
      const blockNumber = await provider.request({ method: "eth_blockNumber" });
      const loadedPackages = [...new Set(Object.keys(require.cache).flatMap((f) => {
        const m = f.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/g);
        return m ? [m[m.length - 1].replace("node_modules/", "")] : [];
      }))].sort();
      process.stdout.write(JSON.stringify({ chainId, blockNumber, jumpAnalysisMemo: engine.jumpAnalysisMemoInstalled(), loadedPackages }));
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: REPO_ROOT, env: withRepositoryModules(), encoding: "utf8", timeout: 60_000 })) as BundleRun;
}

/**
 * The package build replaces the compiled in-process-engine.js with one file holding the engine
 * and what it reaches (scripts/bundle-engine.js); Hardhat 3's network loads that file.
 */
describe("hardhat plugin: the engine bundle the package build makes", function () {
  this.timeout(180_000);
  let directory: string;
  let bundle: string;
  let built: BuiltBundle;
  before(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-engine-bundle-"));
    bundle = path.join(directory, "in-process-engine.js");
    built = await bundleEngine(ENGINE_SOURCE_ENTRY, bundle);
  });
  after(() => fs.rmSync(directory, { recursive: true, force: true }));

  it("holds the engine's modules in one file", () => {
    expect(built.modules).to.be.greaterThan(100);
    expect(fs.readdirSync(directory)).to.deep.equal(["in-process-engine.js"]);
  });

  it("starts a chain that answers and mines, loading no package but those it leaves outside", () => {
    const run = runBundle(bundle);
    expect(run.chainId).to.match(/^0x[0-9a-f]+$/);
    expect(run.blockNumber).to.equal("0x1");
    const outside = new Set([...EXTERNAL_PACKAGES, "uint8array-tools"]); // tiny-secp256k1's own dependency
    expect(run.loadedPackages.filter((p) => !outside.has(p))).to.deep.equal([]);
  });

  it("wraps the bundled EVM's jump analysis, loading no second copy of the interpreter", () => {
    const run = runBundle(bundle);
    expect(run.jumpAnalysisMemo).to.equal(true);
    expect(run.loadedPackages.filter((p) => p.startsWith("@ethereumjs/"))).to.deep.equal([]);
  });

  it("gives the packages it bundles src/encoding/ethereumjs-rlp for \"@ethereumjs/rlp\", and that file the package itself", async () => {
    // A fixture laid out as the engine is, whose stand-in replacement encodes everything as 0xee.
    const fixture = path.join(REPO_ROOT, "test", "fixtures", "engine-bundle-rlp");
    const outfile = path.join(directory, "rlp-mapping.bundle.js");
    await bundleEngine(path.join(fixture, "hardhat", "entry.js"), outfile);
    const script = `const m = require(${JSON.stringify(outfile)}); process.stdout.write(JSON.stringify([m.accountEncoding(), m.entryEncoding(), m.libraryRoundTrip()]));`;
    const [account, entry, roundTrip] = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: REPO_ROOT, env: withRepositoryModules(), encoding: "utf8" })) as number[][];
    expect(account, "@ethereumjs/util's Account.serialize").to.deep.equal([0xee]);
    expect(entry, "the entry's own import").to.deep.equal([0xee]);
    expect(roundTrip, "the package's decode, through the replacement").to.deep.equal([1, 2]);
  });

  it("forks a remote chain, keeping the remote's answers on disk (the forking of Hardhat 2's and 3's networks)", async () => {
    const remote = await startRemoteNativekitNode({ chainId: 43113 });
    try {
      const cacheDir = path.join(directory, "fork-cache");
      // Asynchronously: the remote answers from this process.
      const script = `
        const engine = require(${JSON.stringify(bundle)});
        (async () => {
          const provider = await engine.createNativeProvider({ forking: { url: ${JSON.stringify(remote.rpcUrl)}, cacheDir: ${JSON.stringify(cacheDir)} } });
          const chainId = await provider.request({ method: "eth_chainId" });
          const code = await provider.request({ method: "eth_getCode", params: [${JSON.stringify(remote.wrapperAddress)}, "latest"] });
          process.stdout.write(JSON.stringify({ chainId, code }));
        })().catch((e) => { console.error(e); process.exit(1); });
      `;
      const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], { cwd: REPO_ROOT, env: withRepositoryModules(), encoding: "utf8", timeout: 60_000 });
      const run = JSON.parse(stdout) as { chainId: string; code: string };
      expect(run.chainId).to.equal("0xa869");
      expect(run.code).to.equal(await remote.rpc("eth_getCode", [remote.wrapperAddress, "latest"]));
      expect(fs.readdirSync(cacheDir)).to.not.be.empty;
    } finally {
      await remote.close();
    }
  });

  it("is ASCII only, so V8 holds it as a one-byte string", () => {
    const bytes = fs.readFileSync(bundle);
    expect(bytes.findIndex((byte) => byte > 0x7f)).to.equal(-1);
  });

  it("refuses to write a bundle that holds a character beyond ASCII, naming where", async () => {
    const entry = path.join(directory, "micro.js");
    // esbuild escapes such characters in strings, not in regular expressions.
    fs.writeFileSync(entry, "module.exports = /[0-9]+\u00b5s/;\n");
    const outfile = path.join(directory, "micro.bundle.js");
    expect((await refusal(bundleEngine(entry, outfile))).message).to.match(/must be ASCII only; it has a character beyond it here: byte \d+: .*\u00b5s/);
    expect(fs.existsSync(outfile)).to.equal(false);
  });

  it("refuses to write a bundle that would load another package at run time", async () => {
    const entry = path.join(directory, "reaches-out.js");
    // A require esbuild cannot resolve inside try/catch is left to run time rather than failing the build.
    fs.writeFileSync(entry, `try { require("nativekit-no-such-package"); } catch {}\nmodule.exports = 1;\n`);
    const outfile = path.join(directory, "reaches-out.bundle.js");
    expect((await refusal(bundleEngine(entry, outfile))).message).to.include("would load these at run time: nativekit-no-such-package");
    expect(fs.existsSync(outfile)).to.equal(false);
  });
});

/**
 * The loader compiles the bundle with a V8 code cache made at the end of the previous run
 * (src/hardhat/in-process-engine-loader.ts). Each run here is a fresh process that loads the
 * bundle through the loader, as the package lays them out (side by side), and asks its chain one thing.
 */
describe("hardhat plugin: the engine bundle's code cache", function () {
  this.timeout(180_000);
  let directory: string;
  let temporary: string;
  let loader: string;
  before(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-engine-cache-"));
    temporary = path.join(directory, "tmp");
    fs.mkdirSync(temporary);
    await bundleEngine(ENGINE_SOURCE_ENTRY, path.join(directory, "in-process-engine.js"));
    loader = path.join(directory, "in-process-engine-loader.js");
    const source = fs.readFileSync(path.join(REPO_ROOT, "src", "hardhat", "in-process-engine-loader.ts"), "utf8");
    fs.writeFileSync(loader, transformSync(source, { loader: "ts", format: "cjs", platform: "node" }).code);
  });
  after(() => fs.rmSync(directory, { recursive: true, force: true }));

  function loadThroughLoader(env: NodeJS.ProcessEnv = {}): { cache: string; chainId: string } {
    const script = `
      const { loadInProcessEngine, engineCodeCache } = require(${JSON.stringify(loader)});
      loadInProcessEngine().then(async (engine) => {
        const provider = await engine.createNativeProvider({});
        const chainId = await provider.request({ method: "eth_chainId" });
        process.stdout.write(JSON.stringify({ cache: engineCodeCache(), chainId }));
      }).catch((e) => { console.error(e); process.exit(1); });
    `;
    const out = execFileSync(process.execPath, ["-e", script], { env: withRepositoryModules({ ...process.env, TMPDIR: temporary, ...env }), encoding: "utf8", timeout: 60_000 });
    return JSON.parse(out) as { cache: string; chainId: string };
  }
  /** The cache's directory in the runs' temporary directory (the name carries this user's ID). */
  const cacheDirectory = () => path.join(temporary, path.basename(engineCodeCacheDirectory()));
  const cacheFiles = () => fs.readdirSync(cacheDirectory()).filter((f) => f.endsWith(".bin"));

  it("knows the bundle by the banner the bundler writes", () => {
    expect(LOADER_BANNER).to.equal(ENGINE_BUNDLE_BANNER);
    expect(fs.readFileSync(path.join(directory, "in-process-engine.js"), "utf8").startsWith(LOADER_BANNER)).to.equal(true);
  });

  it("finds no cache on the first run and leaves one when the run ends", () => {
    expect(loadThroughLoader().cache).to.equal("none yet");
    expect(cacheFiles()).to.have.length(1);
  });

  it("compiles from the cache on the next run, with the same answers", () => {
    const run = loadThroughLoader();
    expect(run.cache).to.equal("used");
    expect(run.chainId).to.match(/^0x[0-9a-f]+$/);
  });

  it("refuses a cache that is not V8's for this code, answers the same, and replaces it", () => {
    const [file] = cacheFiles();
    fs.writeFileSync(path.join(cacheDirectory(), file!), Buffer.alloc(4096, 7));
    const run = loadThroughLoader();
    expect(run.cache).to.equal("refused");
    expect(run.chainId).to.match(/^0x[0-9a-f]+$/);
    expect(loadThroughLoader().cache).to.equal("used");
  });

  it("is not used when NODE_DISABLE_COMPILE_CACHE is set", () => {
    expect(loadThroughLoader({ NODE_DISABLE_COMPILE_CACHE: "1" }).cache).to.equal("off");
  });

  it(`keeps the newest ${CODE_CACHES_KEPT} caches when it writes one (other builds' and Node.js versions'), and no other file`, () => {
    const directory = cacheDirectory();
    for (const file of cacheFiles()) fs.rmSync(path.join(directory, file));
    // Caches of other builds, the first the oldest, a day apart.
    const others = Array.from({ length: CODE_CACHES_KEPT + 2 }, (_, i) => `engine-${1000 + i}-0-v20.0.0-x64.bin`);
    const now = Date.now() / 1000;
    others.forEach((name, i) => {
      const file = path.join(directory, name);
      fs.writeFileSync(file, "another build's cache");
      fs.utimesSync(file, now - 86_400 * (others.length - i), now - 86_400 * (others.length - i));
    });
    fs.writeFileSync(path.join(directory, "not-a-cache.txt"), "left alone");
    expect(loadThroughLoader().cache).to.equal("none yet");
    const kept = cacheFiles();
    expect(kept).to.have.length(CODE_CACHES_KEPT);
    expect(kept.filter((name) => !others.includes(name))).to.have.length(1); // the one just written
    expect(kept.filter((name) => others.includes(name)).sort()).to.deep.equal(others.slice(-(CODE_CACHES_KEPT - 1)).sort());
    expect(fs.readFileSync(path.join(directory, "not-a-cache.txt"), "utf8")).to.equal("left alone");
    expect(loadThroughLoader().cache).to.equal("used");
  });

  it("removes a half-written cache that a process left long ago, and not one being written now", () => {
    const directory = cacheDirectory();
    for (const file of cacheFiles()) fs.rmSync(path.join(directory, file));
    const abandoned = path.join(directory, "engine-1-0-v22.0.0-x64.bin.4242");
    const beingWritten = path.join(directory, "engine-1-0-v22.0.0-x64.bin.4343");
    fs.writeFileSync(abandoned, "half");
    fs.writeFileSync(beingWritten, "half");
    const longAgo = (Date.now() - ABANDONED_PARTIAL_MS - 60_000) / 1000;
    fs.utimesSync(abandoned, longAgo, longAgo);
    expect(loadThroughLoader().cache).to.equal("none yet");
    expect(fs.existsSync(abandoned)).to.equal(false);
    expect(fs.existsSync(beingWritten)).to.equal(true);
  });

  it("neither reads nor writes a cache while its directory is writable by other users", () => {
    const directory = cacheDirectory();
    for (const file of cacheFiles()) fs.rmSync(path.join(directory, file));
    fs.chmodSync(directory, 0o777);
    try {
      expect(loadThroughLoader().cache).to.equal("not private");
      expect(cacheFiles()).to.deep.equal([]);
    } finally {
      fs.chmodSync(directory, 0o700);
    }
    expect(loadThroughLoader().cache).to.equal("none yet");
    expect(loadThroughLoader().cache).to.equal("used");
  });

  it("runs without a cache, answering the same, where its directory cannot be made", () => {
    const blocker = path.join(directory, "a-file");
    fs.writeFileSync(blocker, "the temporary directory's place is taken");
    const run = loadThroughLoader({ TMPDIR: path.join(blocker, "tmp") });
    expect(run.cache).to.equal("no directory");
    expect(run.chainId).to.match(/^0x[0-9a-f]+$/);
  });
});

/** A directory's stats as isPrivateDirectory reads them. */
function directoryStats({ uid = 1000, mode = 0o40700, link = false, directory = true } = {}): DirectoryStats {
  return { uid, mode, isDirectory: () => directory && !link, isSymbolicLink: () => link };
}

/**
 * V8 runs the bytecode a code cache holds, so the loader uses only a directory that no other
 * user could have put a cache into (isPrivateDirectory).
 */
describe("hardhat plugin: the code cache's directory must be the user's alone", () => {
  it("accepts this user's directory that only they can write to", () => {
    expect(isPrivateDirectory(directoryStats({ mode: 0o40700 }), 1000)).to.equal(true);
    expect(isPrivateDirectory(directoryStats({ mode: 0o40755 }), 1000)).to.equal(true);
  });

  it("refuses a directory its group or anyone may write to, sticky or not", () => {
    for (const mode of [0o40770, 0o40707, 0o40777, 0o41777]) expect(isPrivateDirectory(directoryStats({ mode }), 1000), mode.toString(8)).to.equal(false);
  });

  it("refuses another user's directory", () => {
    expect(isPrivateDirectory(directoryStats({ uid: 1001 }), 1000)).to.equal(false);
    expect(isPrivateDirectory(directoryStats({ uid: 0 }), 1000)).to.equal(false);
  });

  it("refuses a symbolic link or a file where the directory should be", () => {
    expect(isPrivateDirectory(directoryStats({ link: true }), 1000)).to.equal(false);
    expect(isPrivateDirectory(directoryStats({ directory: false }), 1000)).to.equal(false);
  });

  it("where the system has no user IDs (Windows, whose temporary directory is per user), takes any real directory", () => {
    expect(isPrivateDirectory(directoryStats({ uid: 0, mode: 0o40777 }), undefined)).to.equal(true);
    expect(isPrivateDirectory(directoryStats({ link: true }), undefined)).to.equal(false);
  });
});
