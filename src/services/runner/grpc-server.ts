/**
 * The runner's gRPC server (@grpc/grpc-js): PingService and ControlService from the proto, each
 * unary method answered from the handler table, refusals sent as gRPC statuses with the
 * runner's code and message, and StreamStatus pushing the cluster until the caller cancels or
 * the server closes.
 */
import * as grpc from "@grpc/grpc-js";
import type { RunnerControl } from "./control";
import { asRunnerError } from "./errors";
import type { RunnerHandlers, UnaryHandler } from "./handlers";
import type { StreamStatusRequest } from "./messages";
import { runnerProtocol } from "./protocol";

export interface GrpcRunnerServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startGrpcServer(control: RunnerControl, handlers: RunnerHandlers, host: string, port: number): Promise<GrpcRunnerServer> {
  const protocol = runnerProtocol();
  const streams = new Set<AbortController>();
  const server = new grpc.Server();
  server.addService(protocol.ping, unaryImplementations(handlers.PingService));
  server.addService(protocol.control, {
    ...unaryImplementations(handlers.ControlService),
    StreamStatus: (call: grpc.ServerWritableStream<Record<string, unknown>, unknown>) => {
      const abort = new AbortController();
      streams.add(abort);
      call.on("cancelled", () => abort.abort());
      control
        .streamStatus(call.request as unknown as StreamStatusRequest, (response) => call.write(response), abort.signal)
        .then(
          () => call.end(),
          (error: unknown) => {
            const refusal = asRunnerError(error);
            call.destroy(Object.assign(new Error(refusal.message), { code: refusal.code, details: refusal.message }));
          },
        )
        .finally(() => streams.delete(abort));
    },
  });
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (error, actual) => (error === null ? resolve(actual) : reject(error))),
  );
  return {
    port: bound,
    close: async () => {
      for (const abort of streams) abort.abort();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}

function unaryImplementations(table: Readonly<Record<string, UnaryHandler>>): grpc.UntypedServiceImplementation {
  const implementations: grpc.UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(table)) {
    implementations[name] = (call: grpc.ServerUnaryCall<Record<string, unknown>, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const abort = new AbortController();
      call.on("cancelled", () => abort.abort());
      handler(call.request, abort.signal).then(
        (response) => callback(null, response),
        (error: unknown) => {
          const refusal = asRunnerError(error);
          callback({ code: refusal.code, details: refusal.message });
        },
      );
    };
  }
  return implementations;
}
