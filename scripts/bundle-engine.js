// Part of `npm run build`: replaces the compiled dist/src/hardhat/in-process-engine.js (what
// the in-process network, Hardhat 3's and Hardhat 2's, loads to start a chain) with one file
// holding everything it reaches, bundled by esbuild from this repository's node_modules, where npm
// has deduplicated the @noble and @ethereumjs packages that a user's project nests up to five
// times. Why: see src/hardhat/in-process-engine.ts.
//
// Left outside the bundle, loaded from the user's node_modules as before:
// - Node's own modules;
// - packages that read files beside their own code (tiny-secp256k1's .wasm, classic-level's
//   native binding), which a bundle would move away from them;
// - ethers, which the engine loads only when a request needs it (engine/lazy-ethers.ts).
// The build fails if the bundle would load any other package at run time.
//
// The bundle is written without comments or indentation, in ASCII only: it is read and compiled
// at the start of every test run on the in-process network. The indentation and comments were a
// third of its size (2.7 MB, 1.8 MB without). ASCII text is decoded by a fast path and held by V8
// as a one-byte string; a single other character makes it a two-byte string, twice the memory,
// and its reading slower (7.1 against 4.4 ms for the same 1.8 MB in a fresh Node.js 22 process
// here). Stack traces through the bundle name a column of its one line; the sources are in src/
// and the packages.
//
// Then scripts/engine-bundle-patches.js changes how the bundled packages reach each other (their
// re-exports become plain values) and how @ethereumjs/util sets itself up; see there.
const fs = require("node:fs");
const path = require("node:path");
const { builtinModules } = require("node:module");

const { patchEngineBundle } = require("./engine-bundle-patches");

const ROOT = path.resolve(__dirname, "..");
const ENGINE_ENTRY = path.join(ROOT, "dist", "src", "hardhat", "in-process-engine.js");
const EXTERNAL_PACKAGES = ["tiny-secp256k1", "classic-level", "ethers"];
/** The same line as ENGINE_BUNDLE_BANNER in src/hardhat/in-process-engine-loader.ts (a test checks they agree). */
const ENGINE_BUNDLE_BANNER = "/* nativekit: the in-process engine, bundled (scripts/bundle-engine.js) */";

/**
 * The EVM's interpreter file, which @ethereumjs/evm's exports do not list: the jump-analysis
 * memo (src/engine/jump-analysis-memo.ts) names it by its literal path, and the bundle must hold
 * the same file the bundled EVM runs, not a second copy loaded from the user's node_modules.
 */
const interpreterFile = {
  name: "ethereumjs-evm-interpreter",
  setup(build) {
    build.onResolve({ filter: /^@ethereumjs\/evm\/dist\/cjs\/interpreter\.js$/ }, (args) => {
      const entry = require.resolve("@ethereumjs/evm", { paths: [args.resolveDir] });
      return { path: path.join(path.dirname(entry), "interpreter.js") };
    });
  },
};

/**
 * "@ethereumjs/rlp", for every package in the bundle but one, is src/encoding/ethereumjs-rlp
 * (compiled, or the TypeScript source when the entry is): the package with a one-pass encode
 * and decode (why: see there). That file's own import of the name is the package. A bundle of an entry with
 * no such file beside it (a test's) keeps the package.
 */
function ethereumjsRlpWithOnePassEncode(entry) {
  const replacement = path.resolve(path.dirname(entry), "..", "encoding", `ethereumjs-rlp${path.extname(entry)}`);
  return {
    name: "ethereumjs-rlp-one-pass-encode",
    setup(build) {
      if (!fs.existsSync(replacement)) return;
      build.onResolve({ filter: /^@ethereumjs\/rlp$/ }, (args) => (args.importer === replacement ? undefined : { path: replacement }));
    },
  };
}

function isAllowedAtRunTime(specifier) {
  const bare = specifier.replace(/^node:/, "");
  if (builtinModules.includes(bare) || builtinModules.includes(bare.split("/")[0])) return true;
  return EXTERNAL_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/**
 * Bundles `entry` (a compiled .js, or a .ts source) into `outfile`, which may be the entry itself:
 * the bundle is written beside it, patched (engine-bundle-patches.js), and moved over it only once
 * it passed the checks. `everyPatch`: refuse a bundle that any patch found nothing to change in
 * (the package build's, from the compiled engine; a bundle of other code has no such text).
 */
async function bundleEngine(entry, outfile, { everyPatch = false } = {}) {
  const esbuild = require("esbuild");
  const written = `${outfile}.bundling`;
  const result = await esbuild.build({
    entryPoints: [entry],
    outfile: written,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: EXTERNAL_PACKAGES,
    plugins: [interpreterFile, ethereumjsRlpWithOnePassEncode(entry)],
    metafile: true,
    logLevel: "warning",
    legalComments: "eof",
    minifyWhitespace: true,
    // How in-process-engine-loader.ts knows the compiled module is this bundle.
    banner: { js: ENGINE_BUNDLE_BANNER },
    // jump-analysis-memo.ts's fallback for an unbundled run: never reached in the bundle, where
    // the literal path resolves; require.resolve loads nothing.
    logOverride: { "require-resolve-not-external": "silent" },
  });
  const output = Object.values(result.metafile.outputs)[0];
  const unexpected = output.imports.filter((i) => i.external && i.kind !== "require-resolve" && !isAllowedAtRunTime(i.path)).map((i) => i.path);
  if (unexpected.length > 0) {
    fs.rmSync(written, { force: true });
    throw new Error(`the engine bundle would load these at run time: ${[...new Set(unexpected)].join(", ")}`);
  }
  const { text, applied } = patchEngineBundle(fs.readFileSync(written, "latin1"));
  // Each patch was made for text the engine's packages hold: one that finds none is out of date.
  const unapplied = applied.filter((p) => p.count === 0).map((p) => p.name);
  if (everyPatch && unapplied.length > 0) {
    fs.rmSync(written, { force: true });
    throw new Error(`the engine bundle's patches found nothing to change: ${unapplied.join(", ")} (scripts/engine-bundle-patches.js: update each to the packages' new text, or drop it)`);
  }
  // Read as latin1, each byte is one character: the bytes written are the bytes checked.
  const bytes = Buffer.from(text, "latin1");
  const nonAscii = firstNonAscii(bytes);
  if (nonAscii !== undefined) {
    fs.rmSync(written, { force: true });
    throw new Error(`the engine bundle must be ASCII only; it has a character beyond it here: ${nonAscii} (write it as a \\u escape in the source)`);
  }
  fs.writeFileSync(written, bytes);
  fs.renameSync(written, outfile);
  return { bytes: bytes.length, modules: Object.keys(result.metafile.inputs).length, patches: applied };
}

/** Where the first byte beyond ASCII is, with the text around it; undefined when there is none. */
function firstNonAscii(bytes) {
  const at = bytes.findIndex((byte) => byte > 0x7f);
  if (at === -1) return undefined;
  return `byte ${at}: ${JSON.stringify(bytes.subarray(Math.max(0, at - 40), at + 20).toString("utf8"))}`;
}

module.exports = { bundleEngine, ENGINE_BUNDLE_BANNER, ENGINE_ENTRY, EXTERNAL_PACKAGES };

if (require.main === module) {
  if (!fs.existsSync(ENGINE_ENTRY)) throw new Error(`${ENGINE_ENTRY} is missing: run tsc -p tsconfig.build.json first`);
  bundleEngine(ENGINE_ENTRY, ENGINE_ENTRY, { everyPatch: true }).then(
    ({ bytes, modules, patches }) => {
      const counts = patches.map((p) => `${p.name} ${p.count}`).join(", ");
      console.log(`engine bundle: ${modules} modules in ${(bytes / 1e6).toFixed(1)} MB (${path.relative(ROOT, ENGINE_ENTRY)}); patched: ${counts}`);
    },
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
