import { EventEmitter } from "node:events";
import type { NativeProvider, RequestArguments } from "../engine";
import type { NativekitConfig } from "./config";

/**
 * The engine as a Hardhat network provider: an EIP-1193 provider that is also an EventEmitter,
 * which is what Hardhat expects from `hre.network.provider` (it adds send/sendAsync itself).
 * Subscriptions (`eth_subscribe`) are delivered as EIP-1193 `message` events, as Hardhat's own
 * network emits them.
 */
export class NativeHardhatProvider extends EventEmitter {
  private native: Promise<NativeProvider> | undefined;

  constructor(private readonly config: NativekitConfig) {
    super();
  }

  /** The in-process engine, created on first use. */
  async nativeProvider(): Promise<NativeProvider> {
    this.native ??= this.create();
    return this.native;
  }

  async request(args: RequestArguments): Promise<unknown> {
    return (await this.nativeProvider()).request(args);
  }

  private async create(): Promise<NativeProvider> {
    // Loaded here, not at the top: a project that has the plugin but runs on another network
    // (or runs a task that needs no network) would otherwise load the whole engine for nothing.
    const { createNativeProvider } = await import("../engine/provider");
    const { networkEngineOptions } = await import("./network-options");
    const log = this.config.loggingEnabled ? (line: string) => console.log(line) : () => {};
    const native = await createNativeProvider(networkEngineOptions(this.config, log));
    native.on("message", (message: unknown) => this.emit("message", message));
    return native;
  }
}
