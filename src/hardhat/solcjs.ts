import { solcjsCompilerPath, solcjsLongVersion, solcjsVersion } from "./solc-bundle";
import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";

/**
 * Hardhat 2: points the compile task at the solc-js build nativekit brings (solc-bundle.ts), so
 * Solidity compiles offline.
 */
export { solcjsVersion } from "./solc-bundle";

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
  const compilerPath = solcjsCompilerPath();
  return { compilerPath, isSolcJs: true, version: bundled, longVersion: solcjsLongVersion() };
});
