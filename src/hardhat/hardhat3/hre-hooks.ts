/**
 * Hardhat 3's runtime-environment hooks, run once Hardhat has its runtime environment:
 * - `network.create()` and `network.getOrCreate()` of an in-process nativekit network are answered
 *   by the plugin (in-process-connections.ts), so no HTTP client is loaded for a network that sends
 *   nothing over HTTP;
 * - with `workerThread: true`, when a run names an in-process nativekit network
 *   (`--network nativekit`), the engine thread starts at once, so it loads the engine and builds a
 *   chain on another core while Hardhat checks the build and loads the tests; the run's first
 *   `network.create()` then finds a chain ready. A run on another network, or without the option,
 *   starts nothing.
 */
import { type EngineThread, sharedEngineThread } from "./engine-thread";
import { withInProcessConnections } from "./in-process-connections";
import type { HardhatRuntimeEnvironmentHooks } from "./types";

export function createHreHooks(thread: () => EngineThread = sharedEngineThread): Partial<HardhatRuntimeEnvironmentHooks> {
  return {
    async created(context, hre) {
      const config = hre.config.nativekit;
      const network = hre.globalOptions.network;
      if (config.workerThread && network !== undefined && config.inProcessNetworks.includes(network)) thread().prepare(config);
      // Hardhat's own `created` handler, which runs before any plugin's, has set hre.network.
      if (hre.network !== undefined && context.hooks !== undefined) {
        hre.network = withInProcessConnections({ config: hre.config, globalOptions: hre.globalOptions, network: hre.network }, context.hooks);
      }
    },
  };
}
