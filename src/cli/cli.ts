/**
 * The `nativekit` command: which subcommand runs, and the help and version answers. The `node`
 * subcommand is in ./node-command.ts; the others load from their own files when they run.
 *
 * Everything outside this file is injected (`CliDeps`): the engine factory, the output streams
 * and the signal source, so the command can be tested without the real engine or process.
 * The executable wrapper only has to call `runCli(process.argv.slice(2), deps)` and exit with
 * the code it resolves to.
 */
// The other commands load when they run (or their help is asked for): each brings a service
// (the runner's gRPC, the vault's and explorer's databases, the clients), which `node`, the
// command started most, would otherwise load at every start.
import type { ServedNode } from "../node/start-node";
import { type CreateNodeOptions, NODE_USAGE } from "./node-flags";
import { readPackageVersion } from "../node/package-version";
import { usageError } from "./command-args";
import { ExitCode } from "./exit-code";
import { runNodeCommand } from "./node-command";
import { processSignals, type SignalName } from "./signals";

export { type CreateNodeOptions, NODE_USAGE, parseNodeArgs } from "./node-flags";
export { ExitCode } from "./exit-code";
export { formatCoin } from "./node-banner";
export { describeListenError } from "./node-command";
export { processSignals, type SignalName } from "./signals";

/** A funded development account, as listed by `nativekit node`. */
export interface CliAccount {
  address: string;
  privateKey: string;
  /** Native coin balance in wei (10^-18 coin). */
  balanceWei: bigint;
}

/** What the node factory hands to the `node` subcommand: the node to serve, and what the banner lists. */
export interface CliNode extends ServedNode {
  accounts: readonly CliAccount[];
  chainId: number;
  /** Symbol printed after balances; default "coin". */
  coinSymbol?: string;
  /** More lines for people, printed after the accounts (e.g. the exchange chain's funded key). */
  notes?: readonly string[];
}

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

/** The usage of each command, loaded with its module only when asked for. */
const COMMAND_USAGE = new Map<string, () => Promise<string>>([
  ["node", async () => NODE_USAGE],
  ["vault", async () => (await import("./vault-command")).VAULT_USAGE],
  ["explorer", async () => (await import("./explorer-command")).EXPLORER_USAGE],
  ["network-runner", async () => (await import("./network-runner-command")).NETWORK_RUNNER_USAGE],
  ["network", async () => (await import("./network-command")).NETWORK_USAGE],
  ["x-to-c", async () => (await import("./transfer-command")).TRANSFER_USAGE],
  ["c-to-x", async () => (await import("./transfer-command")).TRANSFER_USAGE],
]);

/**
 * Runs the `nativekit` command with `argv` (the arguments after the executable and script)
 * and resolves to the exit code. `node` resolves only once the node has been stopped by a
 * signal.
 */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<ExitCode> {
  const [command, ...rest] = argv;
  const onSignal = deps.onSignal ?? processSignals;
  const env = deps.env ?? process.env;
  const output = { stdout: deps.stdout, stderr: deps.stderr };
  switch (command) {
    case undefined:
    case "--help":
    case "-h":
      deps.stdout(MAIN_USAGE);
      return ExitCode.Ok;
    case "help":
      return printHelp(rest[0], deps);
    case "--version":
    case "-v":
    case "version":
      deps.stdout(`nativekit ${deps.version ?? readPackageVersion()}\n`);
      return ExitCode.Ok;
    case "node":
      return runNodeCommand(rest, deps);
    case "vault":
      return (await import("./vault-command")).runVaultCommand(rest, { ...output, onSignal, env });
    case "explorer":
      return (await import("./explorer-command")).runExplorerCommand(rest, { ...output, onSignal, env });
    case "network-runner":
      return (await import("./network-runner-command")).runNetworkRunnerCommand(rest, { ...output, onSignal });
    case "network":
      return (await import("./network-command")).runNetworkCommand(rest, output);
    case "x-to-c":
    case "c-to-x":
      return (await import("./transfer-command")).runTransferCommand(command, rest, { ...output, env });
    default:
      return usageError(deps, command.startsWith("-") ? `unknown option ${command}` : `unknown command "${command}"`, MAIN_USAGE);
  }
}

/** `nativekit help [command]`: the command's usage, or the main one. */
async function printHelp(command: string | undefined, deps: CliDeps): Promise<ExitCode> {
  if (command === undefined) {
    deps.stdout(MAIN_USAGE);
    return ExitCode.Ok;
  }
  const usage = COMMAND_USAGE.get(command);
  if (usage === undefined) return usageError(deps, `unknown command "${command}"`, MAIN_USAGE);
  deps.stdout(await usage());
  return ExitCode.Ok;
}
