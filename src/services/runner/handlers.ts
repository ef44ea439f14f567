/**
 * The runner's methods by service and RPC name (as the proto declares them), each taking the
 * request in its protobuf JSON shape: the one table both the gRPC server and the HTTP gateway
 * serve. StreamStatus, the only streaming method, is served by each transport on its own.
 */
import type { RunnerControl } from "./control";
import type { RunnerLog } from "./node-process-network";
import type { AddNodeRequest, NodeNameRequest, RestartNodeRequest, StartRequest } from "./messages";

/** A unary method: the request as decoded from the wire; `signal` aborts when the caller goes away. */
export type UnaryHandler = (request: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;

export interface RunnerHandlers {
  readonly PingService: Readonly<Record<string, UnaryHandler>>;
  readonly ControlService: Readonly<Record<string, UnaryHandler>>;
}

/** The decoded request as the message type its method declares (the protocol filled in every field). */
function as<T>(request: Record<string, unknown>): T {
  return request as unknown as T;
}

/** The table, each call logged at debug level with how it ended. */
export function runnerHandlers(control: RunnerControl, log: RunnerLog): RunnerHandlers {
  const table = handlerTable(control);
  const logged = (service: string, handlers: Readonly<Record<string, UnaryHandler>>) =>
    Object.fromEntries(
      Object.entries(handlers).map(([name, handler]) => [
        name,
        (async (request, signal) => {
          const began = Date.now();
          try {
            const response = await handler(request, signal);
            log("debug", `${service}.${name} answered in ${Date.now() - began} ms`);
            return response;
          } catch (error) {
            log("debug", `${service}.${name} refused in ${Date.now() - began} ms: ${(error as Error).message.split("\n")[0]}`);
            throw error;
          }
        }) satisfies UnaryHandler,
      ]),
    );
  return { PingService: logged("PingService", table.PingService), ControlService: logged("ControlService", table.ControlService) };
}

function handlerTable(control: RunnerControl): RunnerHandlers {
  return {
    PingService: {
      Ping: async () => control.ping(),
    },
    ControlService: {
      RPCVersion: async () => control.rpcVersion(),
      Start: (r) => control.start(as<StartRequest>(r)),
      Health: () => control.health(),
      URIs: async () => control.uris(),
      WaitForHealthy: (_r, signal) => control.waitForHealthy(signal),
      Status: async () => control.status(),
      RemoveNode: (r) => control.removeNode(as<NodeNameRequest>(r)),
      AddNode: (r) => control.addNode(as<AddNodeRequest>(r)),
      RestartNode: (r) => control.restartNode(as<RestartNodeRequest>(r)),
      PauseNode: (r) => control.pauseNode(as<NodeNameRequest>(r)),
      ResumeNode: (r) => control.resumeNode(as<NodeNameRequest>(r)),
      Stop: () => control.stop(),
    },
  };
}
