/**
 * The runner as one service: its operations, the gRPC server and (unless disabled) the HTTP
 * gateway. Closing it stops the network first — every node process ended and waited for — then
 * both listeners.
 */
import { RunnerControl } from "./control";
import { startGateway, type RunnerGateway } from "./gateway";
import { startGrpcServer, type GrpcRunnerServer } from "./grpc-server";
import { runnerHandlers } from "./handlers";
import type { RunnerLog } from "./node-process-network";

export const DEFAULT_GRPC_PORT = 8080;
export const DEFAULT_GATEWAY_PORT = 8081;

export interface RunnerServerOptions {
  /** Interface both listeners bind (default 127.0.0.1). */
  host?: string;
  /** gRPC port, 0 for a free one (default 8080). */
  port?: number;
  /** HTTP gateway port, 0 for a free one (default 8081). */
  gatewayPort?: number;
  disableGateway?: boolean;
  log?: RunnerLog;
}

export interface RunnerServer {
  readonly control: RunnerControl;
  /** The gRPC address, host:port. */
  readonly grpcAddress: string;
  readonly grpcPort: number;
  /** The gateway's base URL; undefined when disabled. */
  readonly gatewayUrl: string | undefined;
  /** Stops the network (if any), then the listeners. */
  close(): Promise<void>;
}

export async function startRunnerServer(options: RunnerServerOptions = {}): Promise<RunnerServer> {
  const host = options.host ?? "127.0.0.1";
  const log: RunnerLog = options.log ?? (() => undefined);
  const control = new RunnerControl(log);
  const handlers = runnerHandlers(control, log);
  const grpcServer: GrpcRunnerServer = await startGrpcServer(control, handlers, host, options.port ?? DEFAULT_GRPC_PORT);
  let gateway: RunnerGateway | undefined;
  if (options.disableGateway !== true) {
    try {
      gateway = await startGateway(control, handlers, host, options.gatewayPort ?? DEFAULT_GATEWAY_PORT);
    } catch (error) {
      await grpcServer.close();
      throw error;
    }
  }
  let closing: Promise<void> | undefined;
  return {
    control,
    grpcAddress: `${host}:${grpcServer.port}`,
    grpcPort: grpcServer.port,
    gatewayUrl: gateway?.url,
    close: () =>
      (closing ??= (async () => {
        await control.shutdown();
        await Promise.all([gateway?.close(), grpcServer.close()]);
      })()),
  };
}
