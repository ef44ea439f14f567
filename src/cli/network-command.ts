/**
 * `nativekit network start | status | uris | health | stop`: the local network runner's client
 * on the command line, talking to a running runner through its HTTP gateway (`--endpoint`).
 * Nothing is started behind the user's back: `start --spawn` first starts a runner, detached
 * and on the endpoint's port, when none answers there (stop it with its pid, printed).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ClusterInfo, createRunnerClient, DEFAULT_RUNNER_URL, type RunnerClient, RunnerRequestError, type StartRequest } from "../clients/runner";
import { DEFAULT_GRPC_PORT, nativekitExecutable } from "../services/runner";
import { parseCommandArgs, usageError } from "./command-args";
import { ExitCode } from "./exit-code";

export const NETWORK_USAGE = `Usage: nativekit network <command> [options]

Control a local network through a running runner (nativekit network-runner).

Commands:
  start     start a network and print its nodes (name, URI, node ID)
  status    print the network's nodes and whether the runner last found them healthy
  health    ask every node now; exit code 1 when one is not healthy
  uris      print the nodes' URIs, one per line
  stop      stop every node of the network

Options:
  --endpoint <url>         the runner's HTTP gateway (default ${DEFAULT_RUNNER_URL})
  --json                   print the runner's JSON answer instead
  --help, -h               show this help

Options of start:
  --num-nodes <n>          number of nodes (default 5)
  --exec-path <path>       node executable (default nativekit's own node)
  --root-data-dir <path>   parent of the network's directory (default the temporary directory)
  --dynamic-ports          free ports instead of 9650, 9651, +2 per node
  --global-node-config <json>  flags given to every node, as a JSON object
  --spawn                  start a runner (detached, gateway on the endpoint's port) if none
                           answers there; its pid and log file are printed
  --runner-port <n>        gRPC port of a runner started by --spawn (default ${DEFAULT_GRPC_PORT})
`;

const COMMANDS = ["start", "status", "health", "uris", "stop"] as const;
type NetworkSubcommand = (typeof COMMANDS)[number];

export interface NetworkCommandDeps {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs `nativekit network …`; resolves to the exit code (Ok, Failure when refused or unhealthy, Usage). */
export async function runNetworkCommand(args: readonly string[], deps: NetworkCommandDeps): Promise<ExitCode> {
  const parsed = parseCommandArgs(
    args,
    {
      endpoint: { type: "string" },
      json: { type: "boolean" },
      "num-nodes": { type: "string" },
      "exec-path": { type: "string" },
      "root-data-dir": { type: "string" },
      "dynamic-ports": { type: "boolean" },
      "global-node-config": { type: "string" },
      spawn: { type: "boolean" },
      "runner-port": { type: "string" },
    },
    NETWORK_USAGE,
    deps,
    true,
  );
  if ("exit" in parsed) return parsed.exit;
  const { positionals } = parsed;
  const values = parsed.values as NetworkFlags;
  if (positionals.length === 0) {
    deps.stdout(NETWORK_USAGE);
    return ExitCode.Usage;
  }
  const command = positionals[0] as NetworkSubcommand;
  if (!COMMANDS.includes(command) || positionals.length > 1) return usageError(deps, `unknown network command "${positionals.join(" ")}"`, NETWORK_USAGE);
  const numNodes = values["num-nodes"];
  if (numNodes !== undefined && !/^\d+$/.test(numNodes)) return usageError(deps, `invalid --num-nodes ${JSON.stringify(numNodes)}: expected a whole number`, NETWORK_USAGE);
  const runnerPort = values["runner-port"] ?? String(DEFAULT_GRPC_PORT);
  if (!/^\d+$/.test(runnerPort)) return usageError(deps, `invalid --runner-port ${JSON.stringify(runnerPort)}`, NETWORK_USAGE);

  const endpoint = (values.endpoint ?? DEFAULT_RUNNER_URL).replace(/\/+$/, "");
  const client = createRunnerClient({ url: endpoint });
  const print = (answer: unknown, text: string) => deps.stdout(values.json === true ? `${JSON.stringify(answer, null, 2)}\n` : text);
  try {
    if (command === "start" && values.spawn === true && !(await answers(client))) {
      const spawned = await spawnRunner(endpoint, Number(runnerPort));
      deps.stdout(`started a runner (pid ${spawned.pid}) at ${endpoint}; its log: ${spawned.logFile}\n`);
    }
    return await runSubcommand(command, values, client, print);
  } catch (error) {
    if (error instanceof RunnerRequestError) {
      deps.stderr(`error: the runner refused ${command}: ${error.message}\n`);
    } else {
      deps.stderr(`error: no runner answers at ${endpoint} (${(error as Error).message}); start one with "nativekit network-runner" or pass --spawn to start\n`);
    }
    return ExitCode.Failure;
  }
}

/** The flags of `nativekit network`, as parsed. */
interface NetworkFlags {
  endpoint?: string;
  json?: boolean;
  "num-nodes"?: string;
  "exec-path"?: string;
  "root-data-dir"?: string;
  "dynamic-ports"?: boolean;
  "global-node-config"?: string;
  spawn?: boolean;
  "runner-port"?: string;
}

/** Asks the runner for `command` and prints its answer; health is a Failure when a node is not healthy. */
async function runSubcommand(command: NetworkSubcommand, values: NetworkFlags, client: RunnerClient, print: (answer: unknown, text: string) => void): Promise<ExitCode> {
  switch (command) {
    case "start": {
      const numNodes = values["num-nodes"];
      const request: Partial<StartRequest> = {
        ...(numNodes === undefined ? {} : { numNodes: Number(numNodes) }),
        ...(values["exec-path"] === undefined ? {} : { execPath: path.resolve(values["exec-path"]) }),
        ...(values["root-data-dir"] === undefined ? {} : { rootDataDir: path.resolve(values["root-data-dir"]) }),
        ...(values["dynamic-ports"] === true ? { dynamicPorts: true } : {}),
        ...(values["global-node-config"] === undefined ? {} : { globalNodeConfig: values["global-node-config"] }),
      };
      const began = Date.now();
      const answer = await client.start(request);
      print(answer, `started ${answer.clusterInfo!.nodeNames.length} nodes in ${((Date.now() - began) / 1000).toFixed(1)} s\n${describeCluster(answer.clusterInfo!)}`);
      return ExitCode.Ok;
    }
    case "status": {
      const answer = await client.status();
      print(answer, describeCluster(answer.clusterInfo!));
      return ExitCode.Ok;
    }
    case "health": {
      const answer = await client.health();
      print(answer, describeCluster(answer.clusterInfo!));
      return answer.clusterInfo!.healthy ? ExitCode.Ok : ExitCode.Failure;
    }
    case "uris": {
      const answer = await client.uris();
      print(answer, answer.uris.map((uri) => `${uri}\n`).join(""));
      return ExitCode.Ok;
    }
    case "stop": {
      const answer = await client.stop();
      const count = answer.clusterInfo?.nodeNames.length ?? 0;
      print(answer, answer.clusterInfo === null ? "no network was started\n" : `stopped ${count} node${count === 1 ? "" : "s"}\n`);
      return ExitCode.Ok;
    }
  }
}

/** The cluster for people: health, directory, then one line per node. */
function describeCluster(info: ClusterInfo): string {
  const lines = [`healthy: ${info.healthy}`, `network directory: ${info.rootDataDir}`];
  for (const name of info.nodeNames) {
    const node = info.nodeInfos[name]!;
    lines.push(`${name}  ${node.uri}  ${node.id}${node.paused ? "  (paused)" : ""}`);
  }
  return `${lines.join("\n")}\n`;
}

async function answers(client: RunnerClient): Promise<boolean> {
  try {
    await client.ping();
    return true;
  } catch {
    return false;
  }
}

/** Starts `nativekit network-runner` detached, its gateway on the endpoint's port; waits until it answers. */
async function spawnRunner(endpoint: string, grpcPort: number): Promise<{ pid: number; logFile: string }> {
  const url = new URL(endpoint);
  const gatewayPort = url.port === "" ? "80" : url.port;
  const logFile = path.join(os.tmpdir(), `nativekit-network-runner-${gatewayPort}.log`);
  const log = fs.openSync(logFile, "a");
  const child = spawn(process.execPath, [nativekitExecutable(), "network-runner", "--host", url.hostname, "--grpc-gateway-port", gatewayPort, "--port", String(grpcPort)], {
    detached: true,
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  child.unref();
  let exited = false;
  child.once("exit", () => (exited = true));
  const client = createRunnerClient({ url: endpoint });
  const deadline = Date.now() + 120_000;
  while (!(await answers(client))) {
    if (exited || Date.now() > deadline) throw new Error(`the runner started with --spawn did not answer; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { pid: child.pid!, logFile };
}
