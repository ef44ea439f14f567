/**
 * Client of the contract chain's admin API (`admin.*` at `/ext/bc/C/admin`): profiles written on
 * the node's side, its log level and its VM configuration.
 */
import { checkTransport, Endpoint } from "./call";
import { Args, type Reader } from "./internal";
import type { JsonObject } from "./json";
import type { Transport } from "./transport";
import type { RequestOptions } from "./types";

export interface AdminClientOptions {
  transport: Transport;
  /** Alias or blockchain ID of the contract chain. Default "C". */
  chain?: string;
}

export interface AdminClient {
  readonly path: string;
  startCPUProfiler(options?: RequestOptions): Promise<void>;
  /** Stops the CPU profiler; the node writes the profile into its profile directory. */
  stopCPUProfiler(options?: RequestOptions): Promise<void>;
  memoryProfile(options?: RequestOptions): Promise<void>;
  lockProfile(options?: RequestOptions): Promise<void>;
  /** trace, debug, info, warn, error or crit. */
  setLogLevel(level: string, options?: RequestOptions): Promise<void>;
  getVMConfig(options?: RequestOptions): Promise<JsonObject>;
}

export function createAdminClient(options: AdminClientOptions): AdminClient {
  const { transport } = options;
  const admin = new Endpoint(
    checkTransport("createAdminClient", transport),
    `/ext/bc/${new Args("createAdminClient").nonEmptyString(options.chain ?? "C", "chain")}/admin`,
    "admin",
  );
  // Older nodes answer { success: true }, newer ones {} (failures are JSON-RPC errors).
  const done = (r: Reader): void => {
    if (r.value !== null && r.maybe("success")?.boolean() === false) r.get("success").fail("true");
  };
  return {
    path: admin.path,
    startCPUProfiler: (o) => admin.call("startCPUProfiler", () => ({}), done, o),
    stopCPUProfiler: (o) => admin.call("stopCPUProfiler", () => ({}), done, o),
    memoryProfile: (o) => admin.call("memoryProfile", () => ({}), done, o),
    lockProfile: (o) => admin.call("lockProfile", () => ({}), done, o),
    setLogLevel: (level, o) => admin.call("setLogLevel", (args) => ({ level: args.nonEmptyString(level, "level") }), done, o),
    getVMConfig: (o) => admin.call("getVMConfig", () => ({}), (r) => r.get("config").object(), o),
  };
}
