import { expect } from "chai";

import { resolveNativekitConfig } from "../../src/hardhat/config";
import type { EngineThread } from "../../src/hardhat/hardhat3/engine-thread";
import { createHreHooks } from "../../src/hardhat/hardhat3/hre-hooks";
import type { CreatedRuntime, HardhatRuntimeEnvironmentHooks } from "../../src/hardhat/hardhat3/types";

/** A thread that records what it was asked to prepare. */
function recordingThread(): { thread: () => EngineThread; prepared: unknown[] } {
  const prepared: unknown[] = [];
  const thread = { prepare: (config: unknown) => void prepared.push(config) } as unknown as EngineThread;
  return { thread: () => thread, prepared };
}

function runtime(network: string | undefined, workerThread = true): CreatedRuntime {
  const nativekit = { ...resolveNativekitConfig({ workerThread }), inProcessNetworks: ["nativekit", "nativekit2"] };
  return { config: { paths: { root: "/project", cache: "/project/cache" }, nativekit }, globalOptions: network === undefined ? {} : { network } };
}

describe("Hardhat 3 runtime-environment hooks", () => {
  const created = async (hre: CreatedRuntime, thread: () => EngineThread) =>
    (createHreHooks(thread) as HardhatRuntimeEnvironmentHooks).created({ config: hre.config } as Parameters<HardhatRuntimeEnvironmentHooks["created"]>[0], hre);

  it("prepares the engine thread with the run's config when --network names an in-process network", async () => {
    for (const network of ["nativekit", "nativekit2"]) {
      const { thread, prepared } = recordingThread();
      const hre = runtime(network);
      await created(hre, thread);
      expect(prepared).to.deep.equal([hre.config.nativekit]);
    }
  });

  it("starts nothing for a run on another network or on the default one", async () => {
    for (const network of ["default", "localhost", "", undefined]) {
      const { thread, prepared } = recordingThread();
      await created(runtime(network), thread);
      expect(prepared, `network ${String(network)}`).to.deep.equal([]);
    }
  });

  it("starts nothing when the config keeps the engine on Hardhat's thread (workerThread: false, the default)", async () => {
    const { thread, prepared } = recordingThread();
    await created(runtime("nativekit", false), thread);
    expect(prepared).to.deep.equal([]);
  });

  it("answers network.create() of an in-process network itself once Hardhat's hook manager is there, and leaves hre.network as it is otherwise", async () => {
    const { thread } = recordingThread();
    const builtinCalls: unknown[] = [];
    const builtin = { create: async (params?: unknown) => (builtinCalls.push(params), { id: 0 }), getOrCreate: async () => ({ id: 0 }) } as unknown as NonNullable<CreatedRuntime["network"]>;
    const without = { ...runtime("nativekit", false), network: builtin };
    await created(without, thread);
    expect(without.network).to.equal(builtin);

    const plain = runtime("nativekit", false);
    const withHooks = { ...plain, config: { ...plain.config, networks: { nativekit: { type: "http" } } }, network: builtin };
    const chains = { runHandlerChain: async (_category: string, _hook: string, _params: unknown[], last: () => Promise<unknown>) => last() };
    const context = { config: withHooks.config, hooks: chains } as unknown as Parameters<HardhatRuntimeEnvironmentHooks["created"]>[0];
    await (createHreHooks(thread) as HardhatRuntimeEnvironmentHooks).created(context, withHooks);
    expect(withHooks.network).to.not.equal(builtin);
    const connection = await withHooks.network.create();
    expect(connection.networkName).to.equal("nativekit");
    await withHooks.network.create("localhost");
    expect(builtinCalls).to.deep.equal(["localhost"]);
  });
});
