/**
 * The runner's methods by service and RPC name (as the proto declares them), each taking the
 * request in its protobuf JSON shape: the one table both the gRPC server and the HTTP gateway
 * serve. StreamStatus, the only streaming method, is served by each transport on its own.
 */
import type { RunnerControl } from "./control";
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

export function runnerHandlers(control: RunnerControl): RunnerHandlers {
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
