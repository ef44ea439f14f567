import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { expect } from "chai";
import * as ts from "typescript";

import { createNativeProvider } from "../../src/engine";
import harness from "../../artifacts/contracts/test/RpcHarness.sol/RpcHarness.json";
import { bundler, ENGINE_SOURCE_ENTRY, REPO_ROOT, withRepositoryModules } from "../helpers/engine-bundle";
import { refusal } from "../helpers/refusal";

const { bundleEngine } = bundler;
// The package build's patches and the workload (plain JavaScript).
/* eslint-disable @typescript-eslint/no-require-imports */
const { PATCH_NAMES } = require(path.join(REPO_ROOT, "scripts", "engine-bundle-patches.js")) as { PATCH_NAMES: string[] };
const { engineWorkload, GENESIS_TIMESTAMP } = require("../helpers/engine-workload") as {
  engineWorkload(provider: { request(args: { method: string; params?: unknown[] }): Promise<unknown> }, artifact: unknown): Promise<unknown[]>;
  GENESIS_TIMESTAMP: number;
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Writes TypeScript modules compiled as tsc compiles the engine's packages (CommonJS, ES2022). */
function writeCompiled(directory: string, modules: Record<string, string>): void {
  for (const [name, source] of Object.entries(modules)) {
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } });
    fs.writeFileSync(path.join(directory, `${name}.js`), outputText);
  }
}

/**
 * Runs `expression` on the module a bundle exports, in a fresh Node.js process, and returns its
 * JSON. A failure is reported by its message alone: Node's report would quote the bundle's one line.
 */
function inBundle(bundle: string, expression: string): unknown {
  const script = `const m = require(${JSON.stringify(bundle)}); Promise.resolve(${expression}).then((v) => process.stdout.write(JSON.stringify(v)), (e) => { process.stderr.write("FAILED " + String(e && e.stack || e).slice(0, 2000)); process.exit(1); });`;
  try {
    return JSON.parse(execFileSync(process.execPath, ["-e", script], { env: withRepositoryModules(), encoding: "utf8", timeout: 120_000, stdio: ["ignore", "pipe", "pipe"] }));
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? "");
    const failed = stderr.indexOf("FAILED ");
    throw new Error(`the bundle failed: ${failed >= 0 ? stderr.slice(failed + 7, failed + 2007) : stderr.slice(-2000)}`);
  }
}

/**
 * The package build patches the engine bundle's text (scripts/engine-bundle-patches.js): the
 * bundled packages' re-exports become values, @ethereumjs/util's BigInt cache is filled as used,
 * and ethereumjs makes one debug logger per namespace.
 */
describe("hardhat plugin: the engine bundle's patches", function () {
  this.timeout(180_000);
  let directory: string;

  before(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-bundle-patches-"));
  });
  after(() => fs.rmSync(directory, { recursive: true, force: true }));

  // Bundled from the engine's sources, as the bundle tests do; the package build bundles the
  // compiled engine, and refuses its bundle itself if a patch finds nothing to change there.
  describe("on the engine", () => {
    let bundle: string;
    let patches: { name: string; count: number }[];

    before(async () => {
      bundle = path.join(directory, "in-process-engine.js");
      ({ patches } = await bundleEngine(ENGINE_SOURCE_ENTRY, bundle, { everyPatch: true }));
    });

    it("each patch changes the engine's bundle", () => {
      expect(patches.map((p) => p.name)).to.deep.equal(PATCH_NAMES);
      for (const patch of patches) expect(patch.count, patch.name).to.be.greaterThan(0);
    });

    it("answers a workload of transactions, calls, failures, snapshots, blocks, logs, proofs and a trace exactly as the engine's sources do", async () => {
      const fromSources = await engineWorkload(await createNativeProvider({ genesisTimestamp: GENESIS_TIMESTAMP }), harness);
      const workload = JSON.stringify(path.join(REPO_ROOT, "test", "helpers", "engine-workload.js"));
      const artifact = JSON.stringify(path.join(REPO_ROOT, "artifacts", "contracts", "test", "RpcHarness.sol", "RpcHarness.json"));
      const fromBundle = inBundle(
        bundle,
        `m.createNativeProvider({ genesisTimestamp: ${GENESIS_TIMESTAMP} }).then((p) => require(${workload}).engineWorkload(p, require(${artifact})))`,
      );
      // The workload ran through: its answers, and the calls it makes fail on purpose refused.
      const refused = fromSources.filter((entry) => "refused" in (entry as object));
      expect(fromSources.length).to.be.greaterThan(50);
      expect(refused.length).to.be.within(3, 12);
      expect(fromBundle).to.deep.equal(JSON.parse(JSON.stringify(fromSources)));
    });

    it("logs through one logger per namespace when DEBUG names it: ethereumjs' tries print as they did", () => {
      const script = `require(${JSON.stringify(bundle)}).createNativeProvider({}).then(async (p) => {
        const [from] = await p.request({ method: "eth_accounts" });
        await p.request({ method: "eth_sendTransaction", params: [{ from, to: from, value: "0x1" }] });
      })`;
      const run = spawnSync(process.execPath, ["-e", script], { env: { ...withRepositoryModules(), DEBUG: "ethjs,mpt:*", DEBUG_COLORS: "0" }, encoding: "utf8", timeout: 120_000 });
      expect(run.status, run.stderr.slice(-2000)).to.equal(0);
      const trieLines = run.stderr.split("\n").filter((line) => line.includes("mpt:#"));
      expect(trieLines.length).to.be.greaterThan(10);
    });
  });

  describe("on TypeScript's re-exports", () => {
    let bundle: string;
    let patches: { name: string; count: number }[];

    before(async () => {
      const modules = path.join(directory, "reexports");
      fs.mkdirSync(modules);
      writeCompiled(modules, {
        // `b` re-exports `entry` while `entry` is still running (a cycle), before it has set `late`.
        entry: `export * as viaB from "./b";\nexport * from "./a";\nexport { twice } from "./c";\nexport const late = 42;`,
        a: `export const answer = 21;`,
        b: `export * from "./entry";`,
        c: `export function twice(n: number): number { return 2 * n; }`,
      });
      bundle = path.join(directory, "reexports.bundle.js");
      ({ patches } = await bundleEngine(path.join(modules, "entry.js"), bundle));
    });

    const descriptor = (name: string) => `(({ get, value }) => ({ getter: get !== undefined, value }))(Object.getOwnPropertyDescriptor(m, ${JSON.stringify(name)}))`;

    it("makes a name another module exports a value once that module has run: no getter to call on each use", () => {
      expect(patches.find((p) => p.name === "typescript-star-reexports-as-values")?.count).to.be.greaterThan(0);
      expect(patches.find((p) => p.name === "typescript-named-reexports-as-values")?.count).to.be.greaterThan(0);
      expect(inBundle(bundle, descriptor("answer"))).to.deep.equal({ getter: false, value: 21 });
      expect(inBundle(bundle, `[m.twice(4), ${descriptor("twice")}.getter]`)).to.deep.equal([8, false]);
    });

    it("keeps the getter for a name its module had not set yet, so a module in a cycle still sees it once set", () => {
      expect(inBundle(bundle, "m.viaB.late")).to.equal(42);
    });
  });

  it("refuses, with everyPatch, a bundle that a patch finds nothing to change in, naming the patch", async () => {
    const entry = path.join(directory, "plain.js");
    fs.writeFileSync(entry, "module.exports = { one: 1 };\n");
    const outfile = path.join(directory, "plain.bundle.js");
    const error = await refusal(bundleEngine(entry, outfile, { everyPatch: true }));
    expect(error.message).to.include("patches found nothing to change: typescript-star-reexports-as-values, typescript-named-reexports-as-values");
    expect(fs.existsSync(outfile)).to.equal(false);
  });
});
