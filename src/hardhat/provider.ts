import { EventEmitter } from "node:events";
import type { NativeProvider, RequestArguments } from "../engine";
import type { NativekitConfig } from "./config";
import { hardhatNodeEvents, type HardhatNodeEvents } from "./hardhat-node-events";
import { loadInProcessEngine } from "./in-process-engine-loader";
import type { ProjectSolidityTraces } from "./solidity/project-traces";
import { callerStack, isExecutingMethod } from "./solidity/solidity-error";

/**
 * The engine as a Hardhat network provider: an EIP-1193 provider that is also an EventEmitter,
 * which is what Hardhat expects from `hre.network.provider` (it adds send/sendAsync itself).
 * Subscriptions (`eth_subscribe`) are delivered as EIP-1193 `message` events, as Hardhat's own
 * network emits them.
 */
export class NativeHardhatProvider extends EventEmitter {
  private native: Promise<NativeProvider> | undefined;
  private traces: Promise<ProjectSolidityTraces> | undefined;
  /**
   * The engine's EVM events where solidity-coverage listens on Hardhat's own network (see
   * hardhat-node-events.ts). An own, enumerable field: solidity-coverage reaches it on a copy
   * (`Object.assign({}, provider)`).
   */
  readonly _node: HardhatNodeEvents = hardhatNodeEvents();

  /**
   * `artifactsDir`: where the project's build infos are, for Solidity stack traces.
   * `cacheDirectory`: the project's cache directory, where the chain's signatures are kept across
   * runs (signature-cache.ts).
   */
  constructor(
    private readonly config: NativekitConfig,
    private readonly artifactsDir?: string,
    private readonly cacheDirectory?: string,
  ) {
    super();
  }

  /** The in-process engine, created on first use. */
  async nativeProvider(): Promise<NativeProvider> {
    this.native ??= this.create();
    return this.native;
  }

  async request(args: RequestArguments): Promise<unknown> {
    const native = await this.nativeProvider();
    const artifactsDir = this.artifactsDir;
    if (artifactsDir === undefined || !isExecutingMethod(args.method)) return native.request(args);
    const stack = callerStack();
    try {
      return await native.request(args);
    } catch (error) {
      // Made on the first failure: the build infos' readers are not needed before.
      this.traces ??= loadInProcessEngine().then(({ ProjectSolidityTraces }) => new ProjectSolidityTraces(artifactsDir));
      throw (await this.traces).errorFor(error, stack);
    }
  }

  private async create(): Promise<NativeProvider> {
    // Loaded here, not at the top: a project that has the plugin but runs on another network
    // (or runs a task that needs no network) would otherwise load the whole engine for nothing.
    // In the package it is the engine's single-file bundle, compiled with a code cache, as on
    // Hardhat 3 (in-process-engine-loader.ts); from the sources, the modules themselves.
    const { createNativeProvider, networkEngineOptions, keptSignatures } = await loadInProcessEngine();
    const log = this.config.loggingEnabled ? (line: string) => console.log(line) : () => {};
    const native = await createNativeProvider({
      ...networkEngineOptions(this.config, log),
      evmEvents: this._node._vm.evm.events,
      signatureMemo: keptSignatures(this.cacheDirectory),
    });
    native.on("message", (message: unknown) => this.emit("message", message));
    return native;
  }
}
