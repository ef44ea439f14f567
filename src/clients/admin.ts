/**
 * Client of the contract chain's admin API (`admin.*` at `/ext/bc/C/admin`): profiles written on
 * the node's side, its log level and its VM configuration.
 */
import { checkTransport, Endpoint, readEmptyReply } from "./call";
import { Args } from "./internal";
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
  return {
    path: admin.path,
    startCPUProfiler: (o) => admin.call("startCPUProfiler", () => ({}), readEmptyReply, o),
    stopCPUProfiler: (o) => admin.call("stopCPUProfiler", () => ({}), readEmptyReply, o),
    memoryProfile: (o) => admin.call("memoryProfile", () => ({}), readEmptyReply, o),
    lockProfile: (o) => admin.call("lockProfile", () => ({}), readEmptyReply, o),
    setLogLevel: (level, o) => admin.call("setLogLevel", (args) => ({ level: args.nonEmptyString(level, "level") }), readEmptyReply, o),
    getVMConfig: (o) => admin.call("getVMConfig", () => ({}), (r) => r.get("config").object(), o),
  };
}
