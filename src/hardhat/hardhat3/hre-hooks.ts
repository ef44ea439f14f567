/**
 * Hardhat 3's runtime-environment hooks: with `workerThread: true`, when a run names an
 * in-process nativekit network (`--network nativekit`), the engine thread starts as soon as
 * Hardhat has its runtime environment, so it loads the engine and builds a chain on another core
 * while Hardhat checks the build and loads the tests; the run's first `network.create()` then
 * finds a chain ready. A run on another network, or without the option, starts nothing.
 */
import { type EngineThread, sharedEngineThread } from "./engine-thread";
import type { HardhatRuntimeEnvironmentHooks } from "./types";

export function createHreHooks(thread: () => EngineThread = sharedEngineThread): Partial<HardhatRuntimeEnvironmentHooks> {
  return {
    async created(_context, hre) {
      const config = hre.config.nativekit;
      const network = hre.globalOptions.network;
      if (config.workerThread && network !== undefined && config.inProcessNetworks.includes(network)) thread().prepare(config);
    },
  };
}
