export { startRunnerServer, DEFAULT_GATEWAY_PORT, DEFAULT_GRPC_PORT, type RunnerServer, type RunnerServerOptions } from "./server";
export { RunnerControl, DEFAULT_NUM_NODES, RPC_VERSION } from "./control";
export { RunnerError, RunnerMessages } from "./errors";
export { runnerProtocol, protoPath } from "./protocol";
export type { RunnerLog } from "./node-process-network";
export type * from "./messages";
export { nativekitExecutable } from "./node-config";
