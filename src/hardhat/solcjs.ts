import path from "node:path";
import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";

/**
 * Points Hardhat at the solc-js build shipped in the npm `solc` package, so Solidity
 * compiles offline: Hardhat would otherwise download a compiler on first use.
 *
 * `solc` is a dependency of nativekit (pinned: its soljson is the compiler), so it is installed
 * in every project that installs nativekit, and resolved from here it is nativekit's own copy —
 * not the `solc` Hardhat depends on, which is another version.
 */
export function solcjsVersion(): string {
  // The npm package version is "0.8.x"; its soljson is the matching compiler build.
  return (require("solc/package.json") as { version: string }).version;
}

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args: { solcVersion: string }, _hre, runSuper) => {
  const bundled = solcjsVersion();
  if (args.solcVersion !== bundled) {
    // Another version was asked for explicitly; keep Hardhat's behaviour (a download) for it.
    try {
      return await runSuper(args);
    } catch (error) {
      console.error(
        `nativekit: solc ${args.solcVersion} has to be downloaded; nativekit brings solc ${bundled} (solc-js), which compiles offline: ` +
          `set solidity.version to "${bundled}" in hardhat.config.ts to use it.`,
      );
      throw error;
    }
  }
  const compilerPath = path.join(path.dirname(require.resolve("solc/package.json")), "soljson.js");
  const solc = require("solc") as { version(): string };
  return { compilerPath, isSolcJs: true, version: bundled, longVersion: solc.version() };
});
