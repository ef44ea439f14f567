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
