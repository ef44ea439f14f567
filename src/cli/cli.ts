/**
 * The `nativekit` command: argument handling and the `node` subcommand.
 *
 * Everything outside this file is injected (`CliDeps`): the engine factory, the output streams
 * and the signal source, so the command can be tested without the real engine or process.
 * The executable wrapper only has to call `runCli(process.argv.slice(2), deps)` and exit with
 * the code it resolves to.
 */
// The other commands load when they run (or their help is asked for): each brings a service
// (the runner's gRPC, the vault's and explorer's databases, the clients), which `node`, the
// command started most, would otherwise load at every start.
import { type LogFile, openLogFile } from "./log-file";
import { type Authorize, type GetHandler, type HttpNode, startHttpNode } from "../node/http-server";
import type { Dispatch, OpenSession } from "../rpc/types";
import { createWebSocketRpc } from "../node/ws-server";
import { type CreateNodeOptions, NODE_USAGE, parseNodeArgs } from "./node-flags";
import { dumpStateFile, loadStateFile } from "./state-file";
import { readPackageVersion } from "../node/package-version";

export { type CreateNodeOptions, NODE_USAGE, parseNodeArgs } from "./node-flags";

/** Exit codes of `runCli`. */
export const ExitCode = {
  Ok: 0,
  /** The node could not start (port in use, engine failure...). */
  Failure: 1,
  /** The command line was wrong; the usage was printed. */
  Usage: 2,
  /** Stopped by a second signal while shutting down. */
  Interrupted: 130,
} as const;

/** A funded development account, as listed by `nativekit node`. */
export interface CliAccount {
  address: string;
  privateKey: string;
  /** Native coin balance in wei (10^-18 coin). */
  balanceWei: bigint;
}

/** What the engine factory hands to the `node` subcommand. */
export interface CliNode {
  /** Paths to serve (e.g. `/ext/bc/C/rpc`) and their dispatch functions. */
  routes: Record<string, Dispatch>;
  accounts: readonly CliAccount[];
  chainId: number;
  /** Symbol printed after balances; default "coin". */
  coinSymbol?: string;
  /** More lines for people, printed after the accounts (e.g. the exchange chain's funded key). */
  notes?: readonly string[];
  /** Paths also answered to GET (the health reports). */
  getRoutes?: Record<string, GetHandler>;
  /** The check every request passes (`--api-auth-required`). */
  authorize?: Authorize;
  /** WebSocket paths (e.g. `/ext/bc/C/ws`) and their session openers. */
  wsRoutes?: Record<string, OpenSession>;
  /** Where the HTTP server's request lines go (the node's leveled log); default: the output. */
  requestLog?: (line: string) => void;
  /** Called once the HTTP server listens, with its URL (the node's peer network starts here); a throw stops the node. */
  listening?(url: string): Promise<void>;
  /** Releases the engine; called after the HTTP server has closed. */
  close?(): Promise<void>;
}

export type SignalName = "SIGINT" | "SIGTERM";

export interface CliDeps {
  /** Environment for commands that read settings from it (default process.env). */
  env?: Record<string, string | undefined>;
  /** Builds the node; `log` receives its log lines (undefined with --silent). */
  createNode(options: CreateNodeOptions, log?: (line: string) => void): Promise<CliNode>;
  /** Receives output text; every call ends with a newline. */
  stdout(text: string): void;
  /** Receives error text; every call ends with a newline. */
  stderr(text: string): void;
  /**
   * Subscribes to stop signals and returns the unsubscribe function.
   * Default: {@link processSignals} (SIGINT and SIGTERM of this process).
   */
  onSignal?: (handler: (signal: SignalName) => void) => () => void;
  /** Version printed by `--version`; default: read from the package's package.json. */
  version?: string;
}

/**
 * The default signal source: SIGINT and SIGTERM of the current process. Started through npm
 * (`npx nativekit node`, `npm run node`), the process's parent is npm's shell, which a SIGTERM
 * to npm ends without passing the signal on; the parent going away then counts as SIGTERM, so
 * the node never lingers as an orphan holding its port.
 */
export function processSignals(handler: (signal: SignalName) => void): () => void {
  const onInt = () => handler("SIGINT");
  const onTerm = () => handler("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  const parent = process.ppid;
  const orphanWatch = startedByNpm() ? setInterval(() => process.ppid !== parent && onTerm(), 500) : undefined;
  orphanWatch?.unref();
  return () => {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    clearInterval(orphanWatch);
  };
}

function startedByNpm(): boolean {
  return process.env.npm_command !== undefined || process.env.npm_lifecycle_event !== undefined;
}

const MAIN_PATH = "/ext/bc/C/rpc";

const MAIN_USAGE = `Usage: nativekit <command> [options]

Commands:
  node            Start a local node (both chains) serving JSON-RPC over HTTP
  x-to-c          Move an asset from the exchange chain to the contract chain
  c-to-x          Move an asset from the contract chain to the exchange chain
  vault           Start the multisig vault (/v1/multisig) beside a node
  explorer        Start the explorer: follows a node's indexes into PostgreSQL
  network-runner  Start the local network runner (gRPC and HTTP gateway) for multi-node networks
  network         start | status | uris | health | stop a network through a running runner
  help [command]  Show help for nativekit or for a command

Options:
  --help, -h      Show this help
  --version, -v   Print the version

Run "nativekit node --help" for the options of the node.
`;

/**
 * Runs the `nativekit` command with `argv` (the arguments after the executable and script)
 * and resolves to the exit code. `node` resolves only once the node has been stopped by a
 * signal.
 */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case "help":
    case "--help":
    case "-h":
      if (command === "help" && rest[0] === "node") {
        deps.stdout(NODE_USAGE);
      } else if (command === "help" && rest[0] === "vault") {
        deps.stdout((await import("./vault-command")).VAULT_USAGE);
      } else if (command === "help" && rest[0] === "explorer") {
        deps.stdout((await import("./explorer-command")).EXPLORER_USAGE);
      } else if (command === "help" && rest[0] === "network-runner") {
        deps.stdout((await import("./network-runner-command")).NETWORK_RUNNER_USAGE);
      } else if (command === "help" && rest[0] === "network") {
        deps.stdout((await import("./network-command")).NETWORK_USAGE);
      } else if (command === "help" && (rest[0] === "x-to-c" || rest[0] === "c-to-x")) {
        deps.stdout((await import("./transfer-command")).TRANSFER_USAGE);
      } else if (command === "help" && rest.length > 0) {
        return usageError(deps, `unknown command "${rest[0]}"`, MAIN_USAGE);
      } else {
        deps.stdout(MAIN_USAGE);
      }
      return ExitCode.Ok;
    case "--version":
    case "-v":
    case "version":
      deps.stdout(`nativekit ${deps.version ?? readPackageVersion()}\n`);
      return ExitCode.Ok;
    case "node":
      return runNodeCommand(rest, deps);
    case "vault":
      return (await import("./vault-command")).runVaultCommand(rest, { stdout: deps.stdout, stderr: deps.stderr, onSignal: deps.onSignal ?? processSignals, env: deps.env ?? process.env });
    case "explorer":
      return (await import("./explorer-command")).runExplorerCommand(rest, { stdout: deps.stdout, stderr: deps.stderr, onSignal: deps.onSignal ?? processSignals, env: deps.env ?? process.env });
    case "network-runner":
      return (await import("./network-runner-command")).runNetworkRunnerCommand(rest, { stdout: deps.stdout, stderr: deps.stderr, onSignal: deps.onSignal ?? processSignals });
    case "network":
      return (await import("./network-command")).runNetworkCommand(rest, { stdout: deps.stdout, stderr: deps.stderr });
    case "x-to-c":
    case "c-to-x":
      return (await import("./transfer-command")).runTransferCommand(command, rest, { stdout: deps.stdout, stderr: deps.stderr, env: deps.env ?? process.env });
    default:
      if (command.startsWith("-")) {
        return usageError(deps, `unknown option ${command}`, MAIN_USAGE);
      }
      return usageError(deps, `unknown command "${command}"`, MAIN_USAGE);
  }
}

async function runNodeCommand(args: readonly string[], deps: CliDeps): Promise<number> {
  const parsed = parseNodeArgs(args);
  if (parsed === "help") {
    deps.stdout(NODE_USAGE);
    return ExitCode.Ok;
  }
  if ("error" in parsed) return usageError(deps, parsed.error, NODE_USAGE);

  let logFile: LogFile | undefined;
  try {
    logFile = parsed.options.logDir === undefined ? undefined : openLogFile(parsed.options.logDir);
  } catch (e) {
    deps.stderr(`error: cannot write the log to ${parsed.options.logDir}: ${messageOf(e)}\n`);
    return ExitCode.Failure;
  }
  const toStdout = parsed.silent ? undefined : (line: string) => deps.stdout(`${line}\n`);
  const writeLog =
    logFile === undefined
      ? toStdout
      : (line: string) => {
          toStdout?.(line);
          logFile!.write(line);
        };
  // The services a node mounts load before it is created, so there is nothing to undo if one cannot.
  const vaultCommand = parsed.options.vault === true ? await import("./vault-command") : undefined;
  const explorerCommand = parsed.options.explorer === true ? await import("./explorer-command") : undefined;
  let node: CliNode;
  try {
    node = await deps.createNode(parsed.options, writeLog);
  } catch (e) {
    deps.stderr(`error: could not create the node: ${messageOf(e)}\n`);
    return ExitCode.Failure;
  }

  if (parsed.options.loadState !== undefined) {
    try {
      await loadStateFile(node.routes, parsed.options.loadState);
    } catch (e) {
      await node.close?.().catch(() => undefined);
      deps.stderr(`error: ${messageOf(e)}\n`);
      return ExitCode.Failure;
    }
  }

  const vault = vaultCommand?.createNodeVaultMount(parsed.options.dbDir);
  const explorer = explorerCommand?.createNodeExplorerMount(parsed.options.dbDir, writeLog);
  let server: HttpNode;
  try {
    server = await startHttpNode({
      prefixHandlers: { ...vault?.prefixHandlers, ...explorer?.prefixHandlers },
      host: parsed.host,
      port: parsed.port,
      routes: node.routes,
      maxJsonDepth: parsed.options.apiMaxJsonDepth,
      maxBatchSize: parsed.options.batchRequestLimit,
      maxBodyBytes: parsed.options.apiMaxBodyBytes,
      getRoutes: node.getRoutes,
      authorize: node.authorize,
      log: writeLog === undefined ? undefined : (node.requestLog ?? writeLog),
      upgrade:
        node.wsRoutes === undefined
          ? undefined
          : createWebSocketRpc({ routes: node.wsRoutes, maxJsonDepth: parsed.options.apiMaxJsonDepth, maxBatchSize: parsed.options.batchRequestLimit, log: writeLog === undefined ? undefined : (node.requestLog ?? writeLog) }),
    });
  } catch (e) {
    await node.close?.().catch(() => undefined);
    deps.stderr(`error: ${describeListenError(e, parsed.host, parsed.port)}\n`);
    return ExitCode.Failure;
  }

  try {
    await node.listening?.(server.url);
  } catch (e) {
    await server.close().catch(() => undefined);
    await node.close?.().catch(() => undefined);
    deps.stderr(`error: the node could not start: ${messageOf(e)}\n`);
    return ExitCode.Failure;
  }

  let serviceToken: ServiceTokens | undefined;
  try {
    serviceToken = parsed.options.apiAuthRequired === true && (vault !== undefined || explorer !== undefined) ? await serviceTokens(server.url, parsed.options.apiAuthPasswordFile!) : undefined;
  } catch (e) {
    await server.close().catch(() => undefined);
    await node.close?.().catch(() => undefined);
    deps.stderr(`error: the node's services cannot get their tokens: ${messageOf(e)}\n`);
    return ExitCode.Failure;
  }

  let vaultLine: string | undefined;
  try {
    vaultLine = await vault?.start(server.url, serviceToken?.(VAULT_NODE_PATHS));
  } catch (e) {
    await server.close().catch(() => undefined);
    await node.close?.().catch(() => undefined);
    deps.stderr(`error: the vault could not start: ${messageOf(e)}\n`);
    return ExitCode.Failure;
  }
  let explorerLine: string | undefined;
  try {
    explorerLine = await explorer?.start(server.url, serviceToken?.(explorer.nodePaths));
  } catch (e) {
    await server.close().catch(() => undefined);
    await vault?.close().catch(() => undefined);
    await node.close?.().catch(() => undefined);
    deps.stderr(`error: the explorer could not start: ${messageOf(e)}\n`);
    return ExitCode.Failure;
  }

  deps.stdout(banner(server, node));
  if (vaultLine !== undefined) deps.stdout(`${vaultLine}\n`);
  if (explorerLine !== undefined) deps.stdout(`${explorerLine}\n`);

  const onSignal = deps.onSignal ?? processSignals;
  return new Promise<number>((resolve) => {
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
      void (async () => {
        try {
          await server.close();
          await explorer?.close();
          await vault?.close();
          if (parsed.options.dumpState !== undefined) {
            await dumpStateFile(node.routes, parsed.options.dumpState);
            deps.stdout(`The contract chain's state is in ${parsed.options.dumpState}\n`);
          }
          await node.close?.();
          await logFile?.close();
          deps.stdout("nativekit node stopped\n");
          resolve(ExitCode.Ok);
        } catch (e) {
          deps.stderr(`error while stopping the node: ${messageOf(e)}\n`);
          resolve(ExitCode.Failure);
        } finally {
          unsubscribe();
        }
      })();
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

/** The text printed once the node listens: endpoints, accounts, warning and next steps. */
function banner(server: HttpNode, node: CliNode): string {
  const paths = Object.keys(node.routes);
  const mainPath = paths.find((p) => p.replace(/\/+$/, "") === MAIN_PATH) ?? paths[0] ?? "/";
  const mainUrl = `${server.url}${mainPath}`;
  const symbol = node.coinSymbol ?? "coin";
  const lines: string[] = [];

  lines.push(`nativekit node listening on ${mainUrl} (chain id ${node.chainId})`);
  if (paths.length > 1) {
    lines.push("", "Endpoints:");
    for (const p of paths) lines.push(`  ${server.url}${p}`);
    for (const p of Object.keys(node.wsRoutes ?? {})) lines.push(`  ${server.url.replace(/^http/, "ws")}${p}`);
  }
  if (server.host === "0.0.0.0" || server.host === "::") {
    lines.push("", `WARNING: listening on all interfaces (${server.host}); anyone on your network can use these accounts.`);
  }

  if (node.accounts.length > 0) {
    lines.push("", "Accounts", "========", "");
    lines.push("WARNING: These accounts and their private keys are publicly known test keys.");
    lines.push("Any funds sent to them on a real network WILL BE LOST.", "");
    node.accounts.forEach((account, i) => {
      lines.push(`Account #${i}: ${account.address} (${formatCoin(account.balanceWei)} ${symbol})`);
      lines.push(`Private Key: ${account.privateKey}`, "");
    });
    lines.push("WARNING: These accounts and their private keys are publicly known test keys.");
    lines.push("Any funds sent to them on a real network WILL BE LOST.");
  }

  if (node.notes !== undefined && node.notes.length > 0) lines.push("", ...node.notes);
  lines.push("");
  lines.push(`Connect a wallet or ethers.JsonRpcProvider to ${mainUrl} (chain id ${node.chainId}).`);
  lines.push("Stop with Ctrl+C.", "");
  return `${lines.join("\n")}\n`;
}

/** Formats a wei amount in coin units (18 decimals), without trailing zeros: 1.5, 50000000. */
export function formatCoin(wei: bigint): string {
  const negative = wei < 0n;
  const abs = negative ? -wei : wei;
  const unit = 10n ** 18n;
  const whole = abs / unit;
  const fraction = (abs % unit).toString().padStart(18, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
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

function usageError(deps: CliDeps, message: string, usage: string): number {
  deps.stderr(`error: ${message}\n\n${usage}`);
  return ExitCode.Usage;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
