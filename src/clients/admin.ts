/**
 * Client of the contract chain's admin API (`admin.*` at `/ext/bc/C/admin`): profiles written on
 * the node's side, its log level and its VM configuration.
 */
import { Args, invoke, type Reader } from "./internal";
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
  if (typeof transport !== "object" || transport === null || typeof transport.call !== "function") {
    throw new TypeError("createAdminClient: transport must be a Transport (see createTransport)");
  }
  const path = `/ext/bc/${new Args("createAdminClient").nonEmptyString(options.chain ?? "C", "chain")}/admin`;
  // Older nodes answer { success: true }, newer ones {} (failures are JSON-RPC errors).
  const done = (r: Reader): void => {
    if (r.value !== null && r.maybe("success")?.boolean() === false) r.get("success").fail("true");
  };
  const call = (method: string, o?: RequestOptions) => invoke(transport, path, `admin.${method}`, {}, done, o);
  return {
    path,
    startCPUProfiler: (o) => call("startCPUProfiler", o),
    stopCPUProfiler: (o) => call("stopCPUProfiler", o),
    memoryProfile: (o) => call("memoryProfile", o),
    lockProfile: (o) => call("lockProfile", o),
    setLogLevel: (level, o) =>
      Promise.resolve().then(() =>
        invoke(transport, path, "admin.setLogLevel", { level: new Args("admin.setLogLevel").nonEmptyString(level, "level") }, done, o),
      ),
    getVMConfig: (o) => invoke(transport, path, "admin.getVMConfig", {}, (r) => r.get("config").object(), o),
  };
}
