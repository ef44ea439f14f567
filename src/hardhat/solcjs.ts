import path from "node:path";
import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";

/**
 * Points Hardhat at the solc-js build shipped in the npm `solc` package, so Solidity
 * compiles offline: Hardhat would otherwise download a compiler on first use.
 */
export function solcjsVersion(): string {
  // The npm package version is "0.8.x"; its soljson is the matching compiler build.
  return (require("solc/package.json") as { version: string }).version;
}

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args: { solcVersion: string }, _hre, runSuper) => {
  const bundled = solcjsVersion();
  if (args.solcVersion !== bundled) {
    // Another version was asked for explicitly; keep Hardhat's behaviour for it.
    return runSuper(args);
  }
  const compilerPath = path.join(path.dirname(require.resolve("solc/package.json")), "soljson.js");
  const solc = require("solc") as { version(): string };
  return { compilerPath, isSolcJs: true, version: bundled, longVersion: solc.version() };
});
