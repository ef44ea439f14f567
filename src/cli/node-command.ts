/**
 * `nativekit node`: the flags parsed, the node built by the injected factory (`CliDeps.createNode`)
 * and started with `startNode` (its log file, the vault and the explorer it hosts joining the
 * node's one shutdown), the banner printed, and the node served until a signal stops it.
 */
import { type LogFile, openLogFile } from "./log-file";
import { type MountedService, NodeStartError, type StartedNode, startNode } from "../node/start-node";
import { ShutdownSequence } from "../node/shutdown";
import { type CreateNodeOptions, type NodeArgs, NODE_USAGE, parseNodeArgs } from "./node-flags";
import type { NodeVaultMount } from "./vault-command";
import type { NodeExplorerMount } from "./explorer-command";
import { dumpStateFile, loadStateFile } from "./state-file";
import { messageOf, usageError } from "./command-args";
import { ExitCode } from "./exit-code";
import { nodeBanner } from "./node-banner";
import type { CliDeps, CliNode } from "./cli";
import { processSignals } from "./signals";

/** Where the node's log lines go (undefined with --silent and no --log-dir), and the shutdown holding its log file. */
interface NodeLog {
  readonly write: ((line: string) => void) | undefined;
  readonly shutdown: ShutdownSequence;
}

/** Runs `nativekit node`; resolves to its exit code once a signal has stopped the node. */
export async function runNodeCommand(args: readonly string[], deps: CliDeps): Promise<ExitCode> {
  const parsed = parseNodeArgs(args);
  if (parsed === "help") {
    deps.stdout(NODE_USAGE);
    return ExitCode.Ok;
  }
  if ("error" in parsed) return usageError(deps, parsed.error, NODE_USAGE);
  const log = openNodeLog(parsed, deps);
  if (log === undefined) return ExitCode.Failure;
  const started = await startNodeWithServices(parsed, deps, log);
  if (started === undefined) return ExitCode.Failure;
  deps.stdout(nodeBanner(started.server, started.node));
  for (const line of started.serviceLines) deps.stdout(`${line}\n`);
  return untilStopped(started.server, deps);
}

/** The node's log: the output unless --silent, and <--log-dir>/main.log when given (undefined when that cannot be written). */
function openNodeLog(parsed: NodeArgs, deps: CliDeps): NodeLog | undefined {
  let logFile: LogFile | undefined;
  try {
    logFile = parsed.options.logDir === undefined ? undefined : openLogFile(parsed.options.logDir);
  } catch (e) {
    deps.stderr(`error: cannot write the log to ${parsed.options.logDir}: ${messageOf(e)}\n`);
    return undefined;
  }
  const shutdown = new ShutdownSequence();
  if (logFile !== undefined) shutdown.add(() => logFile.close());
  const toStdout = parsed.silent ? undefined : (line: string) => deps.stdout(`${line}\n`);
  if (logFile === undefined) return { write: toStdout, shutdown };
  return {
    write: (line) => {
      toStdout?.(line);
      logFile.write(line);
    },
    shutdown,
  };
}

/** A node listening, with its services started and their lines for the banner. */
interface StartedCliNode {
  readonly server: StartedNode;
  readonly node: CliNode;
  readonly serviceLines: readonly string[];
}

/** Builds and starts the node and the services it hosts; on a failure, prints why, undoes the start and answers undefined. */
async function startNodeWithServices(parsed: NodeArgs, deps: CliDeps, log: NodeLog): Promise<StartedCliNode | undefined> {
  const { options } = parsed;
  // The services a node mounts load before it is created, so there is nothing to undo if one cannot.
  const vaultCommand = options.vault === true ? await import("./vault-command") : undefined;
  const explorerCommand = options.explorer === true ? await import("./explorer-command") : undefined;
  let node: CliNode;
  try {
    node = await deps.createNode(options, log.write);
  } catch (e) {
    await log.shutdown.abandon();
    deps.stderr(`error: could not create the node: ${messageOf(e)}\n`);
    return undefined;
  }
  const vault = vaultCommand?.createNodeVaultMount(options.dbDir);
  const explorer = explorerCommand?.createNodeExplorerMount(options.dbDir, log.write);
  const { loadState, dumpState } = options;
  let server: StartedNode;
  try {
    server = await startNode({
      node,
      host: parsed.host,
      port: parsed.port,
      maxJsonDepth: options.apiMaxJsonDepth,
      maxBatchSize: options.batchRequestLimit,
      maxBodyBytes: options.apiMaxBodyBytes,
      log: log.write,
      services: [vault, explorer].flatMap((service): MountedService[] => (service === undefined ? [] : [service])),
      shutdown: log.shutdown,
      prepare: loadState === undefined ? undefined : (served) => loadStateFile(served.routes, loadState),
      beforeRelease:
        dumpState === undefined
          ? undefined
          : async (served) => {
              await dumpStateFile(served.routes, dumpState);
              deps.stdout(`The contract chain's state is in ${dumpState}\n`);
            },
    });
  } catch (e) {
    deps.stderr(`error: ${describeStartError(e, parsed)}\n`);
    return undefined;
  }
  try {
    return { server, node, serviceLines: await startHostedServices(server.url, options, vault, explorer) };
  } catch (e) {
    await server.shutdown.abandon();
    deps.stderr(`error: ${messageOf(e)}\n`);
    return undefined;
  }
}

/**
 * Opens the vault and the explorer the node hosts (those asked for), now that it listens at
 * `nodeUrl`; answers their lines for the banner. A failure's message says which could not start.
 */
async function startHostedServices(nodeUrl: string, options: CreateNodeOptions, vault: NodeVaultMount | undefined, explorer: NodeExplorerMount | undefined): Promise<string[]> {
  const lines: string[] = [];
  let stage = "the node's services cannot get their tokens";
  try {
    const tokens = options.apiAuthRequired === true && (vault !== undefined || explorer !== undefined) ? await serviceTokens(nodeUrl, options.apiAuthPasswordFile!) : undefined;
    stage = "the vault could not start";
    if (vault !== undefined) lines.push(await vault.start(nodeUrl, tokens?.(VAULT_NODE_PATHS)));
    stage = "the explorer could not start";
    if (explorer !== undefined) lines.push(await explorer.start(nodeUrl, tokens?.(explorer.nodePaths)));
  } catch (e) {
    throw new Error(`${stage}: ${messageOf(e)}`);
  }
  return lines;
}

/** Why `startNode` failed, in the words of its stage. */
function describeStartError(e: unknown, parsed: NodeArgs): string {
  if (!(e instanceof NodeStartError)) return messageOf(e);
  switch (e.stage) {
    case "listen":
      return describeListenError(e.reason, parsed.host, parsed.port);
    case "listening":
      return `the node could not start: ${messageOf(e.reason)}`;
    default:
      return messageOf(e.reason);
  }
}

/**
 * Serves until a signal: the first stops the node in order (its shutdown) and resolves Ok, or
 * Failure when a step fails; a second, while it stops, resolves Interrupted at once.
 */
function untilStopped(server: StartedNode, deps: CliDeps): Promise<ExitCode> {
  const onSignal = deps.onSignal ?? processSignals;
  return new Promise<ExitCode>((resolve) => {
    let stopping = false;
    let unsubscribe: () => void = () => undefined;
    unsubscribe = onSignal((signal) => {
      if (stopping) {
        deps.stderr(`Received ${signal} again, exiting without waiting for the shutdown\n`);
        unsubscribe();
        resolve(ExitCode.Interrupted);
        return;
      }
      stopping = true;
      deps.stdout(`\nReceived ${signal}, stopping nativekit node...\n`);
      void server
        .close()
        .then(
          () => {
            deps.stdout("nativekit node stopped\n");
            resolve(ExitCode.Ok);
          },
          (e: unknown) => {
            deps.stderr(`error while stopping the node: ${messageOf(e)}\n`);
            resolve(ExitCode.Failure);
          },
        )
        .finally(() => unsubscribe());
    });
  });
}

/** The paths the vault calls on the node: the platform chain's API (multisig aliases, issuing). */
const VAULT_NODE_PATHS: readonly string[] = ["/ext/bc/P"];

/** A token source for a service calling `endpoints` (see {@link serviceTokens}). */
type ServiceTokens = (endpoints: readonly string[]) => () => Promise<string>;

/**
 * How a node started with --api-auth-required gives the services it hosts (--vault, --explorer)
 * their tokens: a function per service that asks the node's public auth API over HTTP
 * (`auth.newToken` at /ext/auth, as any client would) for a token opening only the paths that
 * service calls. The services ask it at their first call and again whenever the node answers 401
 * (the token expired after 12 hours, or was revoked). The password is read from
 * --api-auth-password-file now, so a file that cannot be read stops the start, and again for
 * each token, so a password changed with auth.changePassword is taken up once the file holds it.
 */
async function serviceTokens(nodeUrl: string, passwordFile: string): Promise<ServiceTokens> {
  const [{ readFile }, { createAuthClient, createTransport }] = await Promise.all([import("node:fs/promises"), import("../clients")]);
  const readPassword = async () => (await readFile(passwordFile, "utf8")).trim();
  let password = await readPassword();
  const auth = createAuthClient({ transport: createTransport({ url: nodeUrl }) });
  return (endpoints) => async () => {
    password = await readPassword().catch(() => password);
    return auth.newToken(password, endpoints);
  };
}

/** A one-line, actionable explanation of why the server could not listen. */
export function describeListenError(e: unknown, host: string, port: number): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "EADDRINUSE":
      return `port ${port} is already in use; pass --port 0 for a free port or another number`;
    case "EACCES":
      return `permission denied to listen on port ${port}; use a port above 1023 or --port 0`;
    case "EADDRNOTAVAIL":
      return `cannot listen on ${host}: that address does not belong to this machine; try --host 127.0.0.1`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot resolve the host "${host}"; pass an IP address such as 127.0.0.1`;
    default:
      return `could not start the HTTP server on ${host}:${port}: ${messageOf(e)}`;
  }
}
