/**
 * `nativekit network-runner`: the local network runner as a long-running server — gRPC on
 * `--port`, the HTTP gateway on `--grpc-gateway-port` — until SIGINT or SIGTERM, which stop the
 * network (every node process ended and waited for) before the runner exits. A second signal
 * kills the remaining node processes with SIGKILL and exits at once.
 */
import fs from "node:fs";
import path from "node:path";
import { DEFAULT_GATEWAY_PORT, DEFAULT_GRPC_PORT, type RunnerLog, type RunnerServer, startRunnerServer } from "../services/runner";
import { invalidPort, parseCommandArgs, parsePort, usageError } from "./command-args";
import { ExitCode } from "./exit-code";

export const NETWORK_RUNNER_USAGE = `Usage: nativekit network-runner [options]

Start the local network runner: a gRPC server (the reference runner's PingService and
ControlService) and its HTTP gateway (POST /v1/ping, /v1/control/start, /health, /uris,
/status, /stop, /addnode, /removenode, /restartnode, /pausenode, /resumenode,
/waitforhealthy, /rpcversion, /streamstatus). A start launches each node as its own process
(nativekit's node by default, or execPath), with its own data, logs and staking identity.

Options:
  --port <n>                 gRPC port, 0 for a free one (default ${DEFAULT_GRPC_PORT})
  --grpc-gateway-port <n>    HTTP gateway port, 0 for a free one (default ${DEFAULT_GATEWAY_PORT})
  --disable-grpc-gateway     serve gRPC only
  --host <value>             interface both listen on (default 127.0.0.1)
  --log-level <level>        debug, info, warn or error (default info)
  --log-dir <path>           also write the runner's log to <path>/runner.log
  --help, -h                 show this help

Then: nativekit network start | status | uris | health | stop (see nativekit network --help).
`;

const LEVELS = ["debug", "info", "warn", "error"] as const;
type Level = (typeof LEVELS)[number];

export interface NetworkRunnerDeps {
  stdout(text: string): void;
  stderr(text: string): void;
  onSignal(handler: (signal: "SIGINT" | "SIGTERM") => void): () => void;
}

/** Runs the runner until a signal; resolves to the exit code (2 on a usage error, 1 if it cannot listen). */
export async function runNetworkRunnerCommand(args: readonly string[], deps: NetworkRunnerDeps): Promise<ExitCode> {
  const parsed = parseCommandArgs(
    args,
    {
      port: { type: "string" },
      "grpc-gateway-port": { type: "string" },
      "disable-grpc-gateway": { type: "boolean" },
      host: { type: "string" },
      "log-level": { type: "string" },
      "log-dir": { type: "string" },
    },
    NETWORK_RUNNER_USAGE,
    deps,
  );
  if ("exit" in parsed) return parsed.exit;
  const { values } = parsed;
  const port = parsePort(values.port, DEFAULT_GRPC_PORT);
  const gatewayPort = parsePort(values["grpc-gateway-port"], DEFAULT_GATEWAY_PORT);
  if (port === undefined) return usage(deps, invalidPort("--port", values.port));
  if (gatewayPort === undefined) return usage(deps, invalidPort("--grpc-gateway-port", values["grpc-gateway-port"]));
  const level = (values["log-level"] ?? "info") as Level;
  if (!LEVELS.includes(level)) return usage(deps, `invalid --log-level ${JSON.stringify(level)}: expected ${LEVELS.join(", ")}`);
  const logDir = values["log-dir"] as string | undefined;
  const log = leveledLog(level, deps.stdout, logDir === undefined ? undefined : path.join(logDir, "runner.log"));

  let server;
  try {
    server = await startRunnerServer({
      host: values.host as string | undefined,
      port,
      gatewayPort,
      disableGateway: values["disable-grpc-gateway"] === true,
      log,
    });
  } catch (error) {
    deps.stderr(`error: the runner could not start: ${(error as Error).message}\n`);
    return ExitCode.Failure;
  }
  deps.stdout(
    `nativekit network-runner (pid ${process.pid}) serving gRPC on ${server.grpcAddress}` +
      (server.gatewayUrl === undefined ? " (gateway disabled)\n" : ` and the HTTP gateway on ${server.gatewayUrl}\n`) +
      "Stop with Ctrl+C: every node it started is stopped with it.\n",
  );
  return untilStopped(server, deps);
}

/**
 * Serves until a signal: the first stops the network and the runner (every node process ended
 * and waited for); a second, while they stop, kills the node processes left and resolves at once.
 */
function untilStopped(server: RunnerServer, deps: NetworkRunnerDeps): Promise<ExitCode> {
  return new Promise<ExitCode>((resolve) => {
    let stopping = false;
    const unsubscribe = deps.onSignal((signal) => {
      if (stopping) {
        for (const pid of server.control.nodePids) killQuietly(pid);
        deps.stderr(`Received ${signal} again: killed the node processes, exiting without waiting\n`);
        unsubscribe();
        resolve(ExitCode.Interrupted);
        return;
      }
      stopping = true;
      deps.stdout(`\nReceived ${signal}, stopping the network and the runner...\n`);
      server.close().then(
        () => {
          unsubscribe();
          deps.stdout("nativekit network-runner stopped\n");
          resolve(ExitCode.Ok);
        },
        (error: unknown) => {
          unsubscribe();
          deps.stderr(`error while stopping the runner: ${(error as Error).message}\n`);
          resolve(ExitCode.Failure);
        },
      );
    });
  });
}

/** Log lines at or above `level`, to the output and to `file` when given. */
function leveledLog(level: Level, write: (text: string) => void, file: string | undefined): RunnerLog {
  if (file !== undefined) fs.mkdirSync(path.dirname(file), { recursive: true });
  const threshold = LEVELS.indexOf(level);
  return (lineLevel, message) => {
    if (LEVELS.indexOf(lineLevel) < threshold) return;
    const line = `${new Date().toISOString()} ${lineLevel.toUpperCase()} ${message}\n`;
    write(line);
    if (file !== undefined) fs.appendFileSync(file, line);
  };
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function usage(deps: NetworkRunnerDeps, message: string): ExitCode {
  return usageError(deps, message, NETWORK_RUNNER_USAGE);
}
