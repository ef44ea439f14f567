/**
 * nativekit's Hardhat 3 plugin object. The package's ESM entry (src/hardhat/index.mjs) builds it
 * with Hardhat 3's task builder and the project's chai, and exports it as `nativekit/hardhat`'s
 * default export:
 *
 *   import nativekit from "nativekit/hardhat";
 *   export default defineConfig({ plugins: [hardhatToolboxMochaEthers, nativekit], ... });
 */
import type { Hardhat3Modules, Hardhat3Plugin } from "./types";
import { nativekitTasks } from "./tasks";

export function createHardhat3Plugin(modules: Hardhat3Modules): Hardhat3Plugin {
  return {
    id: "nativekit",
    npmPackage: "nativekit",
    hookHandlers: {
      config: async () => {
        const hooks = await import("./config-hooks");
        return { default: hooks.default };
      },
      network: async () => {
        const { createNetworkHooks } = await import("./network-hooks");
        return { default: async () => createNetworkHooks(modules) };
      },
      hre: async () => {
        const { createHreHooks } = await import("./hre-hooks");
        return { default: async () => createHreHooks() };
      },
      solidity: async () => {
        const hooks = await import("./solidity-hooks");
        return { default: hooks.default };
      },
    },
    tasks: nativekitTasks(modules),
  };
}
