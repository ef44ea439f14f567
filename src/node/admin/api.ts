import { LogLevelError, type NodeLogger } from "../logger";
import { RpcApi, serverError, type NamedParams } from "../../rpc";
import { type Profiler, ProfilerError } from "./profiler";

/**
 * The contract chain's admin API (path /ext/bc/C/admin; coreth `plugin/evm/admin.go`):
 * `admin.startCPUProfiler`, `stopCPUProfiler`, `memoryProfile`, `lockProfile`,
 * `setLogLevel{level}` and `getVMConfig` -> `{config}`. Every other method answers
 * `{success: true}`, the seed's reply (recent reference nodes answer `{}`; clients accept both).
 *
 * Errors in the reference's words: "cpu profiler already running", "cpu profiler doesn't exist",
 * "failed to parse log level: unknown level: <name>" (the reference appends a space after the
 * message; so does this node).
 */
export interface AdminApiOptions {
  logger: NodeLogger;
  profiler: Profiler;
  /** The chain's configuration as `getVMConfig` reports it. */
  vmConfig: () => Record<string, unknown>;
}

const SUCCESS = { success: true } as const;

export function createAdminApi(options: AdminApiOptions): RpcApi {
  return new RpcApi({ mapError: adminError }).namedMethods(options, {
    "admin.startCPUProfiler": startCPUProfiler,
    "admin.stopCPUProfiler": stopCPUProfiler,
    "admin.memoryProfile": memoryProfile,
    "admin.lockProfile": lockProfile,
    "admin.setLogLevel": setLogLevel,
    "admin.getVMConfig": getVMConfig,
  });
}

async function startCPUProfiler({ logger, profiler }: AdminApiOptions): Promise<typeof SUCCESS> {
  logger.write("info", "admin: startCPUProfiler called");
  await profiler.startCpuProfiler();
  return SUCCESS;
}

async function stopCPUProfiler({ logger, profiler }: AdminApiOptions): Promise<typeof SUCCESS> {
  logger.write("info", "admin: stopCPUProfiler called");
  logger.write("info", `admin: CPU profile written to ${await profiler.stopCpuProfiler()}`);
  return SUCCESS;
}

function memoryProfile({ logger, profiler }: AdminApiOptions): typeof SUCCESS {
  logger.write("info", "admin: memoryProfile called");
  logger.write("info", `admin: heap snapshot written to ${profiler.memoryProfile()}`);
  return SUCCESS;
}

function lockProfile({ logger, profiler }: AdminApiOptions): typeof SUCCESS {
  logger.write("info", "admin: lockProfile called");
  logger.write("info", `admin: waiting report written to ${profiler.lockProfile()}`);
  return SUCCESS;
}

/** {level}: the node's log level from now on. */
function setLogLevel({ logger }: AdminApiOptions, params: NamedParams): typeof SUCCESS {
  const level = params.stringOr("level", "");
  logger.write("info", `admin: setLogLevel called with ${JSON.stringify(level)}`);
  logger.setLevel(level);
  return SUCCESS;
}

function getVMConfig(options: AdminApiOptions): { config: Record<string, unknown> } {
  return { config: options.vmConfig() };
}

function adminError(error: unknown) {
  if (error instanceof ProfilerError) return serverError(error.message);
  if (error instanceof LogLevelError) return serverError(`failed to parse log level: ${error.message} `);
  return undefined;
}
