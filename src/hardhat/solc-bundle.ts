/**
 * The Solidity compiler nativekit brings: the solc-js build of the npm `solc` package, a
 * dependency pinned to one version, so a project with the plugin compiles offline (Hardhat
 * would otherwise download a compiler on first use). Resolved from here, it is nativekit's own
 * copy, not the `solc` Hardhat depends on (another version).
 */
import path from "node:path";

/** The compiler version nativekit brings (the npm package's version is the compiler's). */
export function solcjsVersion(): string {
  return (require("solc/package.json") as { version: string }).version;
}

/** Path of the bundled compiler's soljson.js (a WebAssembly build Hardhat runs as solc-js). */
export function solcjsCompilerPath(): string {
  return path.join(path.dirname(require.resolve("solc/package.json")), "soljson.js");
}

/**
 * What the bundled compiler answers to `version()`, for the versions nativekit has shipped (the
 * dependency is pinned to one). Knowing it saves loading the compiler (a 9 MB script, about
 * a third of a second) only to ask: Hardhat asks on every build, even one with nothing to
 * compile. A test checks the entry against the compiler itself.
 */
const SOLCJS_LONG_VERSIONS: Readonly<Record<string, string>> = {
  "0.8.28": "0.8.28+commit.7893614a.Emscripten.clang",
};

/** The bundled compiler's `version()`, from the table when it holds the version, else from the compiler. */
export function solcjsLongVersion(): string {
  const known = SOLCJS_LONG_VERSIONS[solcjsVersion()];
  if (known !== undefined) return known;
  return (require("solc") as { version(): string }).version();
}
