/**
 * `nativekit vault`: the multisig vault on a port of its own, talking to a node (this one or a
 * real one) through its HTTP APIs; and the mount `nativekit node --vault` uses to serve it on
 * the node's own port, opened once the node listens (the vault reads the alias owners from it).
 */
import path from "node:path";
import { NODE_TOKEN_ENV, type NodeTokenSource } from "../clients";
import { openVaultService, startVaultServer, VAULT_PATH_PREFIX, type VaultService } from "../services/vault";
import { withoutPassword } from "../services/sql/pg-database";
import { invalidPort, parseCommandArgs, parsePort, usageError } from "./command-args";
import { ExitCode } from "./exit-code";
import { serveUntilSignal } from "./serve-until-signal";

export const DEFAULT_VAULT_PORT = 9660;
export const DEFAULT_VAULT_DATA_DIR = path.join(".nativekit", "vault");

export const VAULT_USAGE = `Usage: nativekit vault [options]

Start the multisig vault (${VAULT_PATH_PREFIX}): owners of a multisig alias store a pending
platform transaction, add their signatures, and issue it through the node once enough signed.

Options:
  --node <url>            the node's base URL (default http://127.0.0.1:9650)
  --node-token <token>    a token of the node's auth API (auth.newToken), sent as
                          Authorization: Bearer with every call to a node started with
                          --api-auth-required (default: the ${NODE_TOKEN_ENV}
                          environment variable; the flag wins)
  --port <n>              HTTP port, 0 for any free port (default ${DEFAULT_VAULT_PORT})
  --host <value>          interface to listen on (default 127.0.0.1)
  --database-url <url>    a PostgreSQL server (postgres://user:password@host:port/db)
                          instead of the embedded PostgreSQL (PGlite)
  --data-dir <path>       the embedded database's directory (default ${DEFAULT_VAULT_DATA_DIR}
                          in the working directory; ignored with --database-url)
  --help, -h              show this help

Or run it inside the node: nativekit node --vault (same port as the node; its database under
--db-dir when given, in memory otherwise).

The vault stores only a whole unsigned platform-chain transaction (400 otherwise), matches an
issue to its record by the exact unsigned bytes of the signed transaction, and sends one
record to the node once even when several issue requests arrive together.
`;

export interface VaultCommandDeps {
  stdout(text: string): void;
  stderr(text: string): void;
  onSignal(handler: (signal: "SIGINT" | "SIGTERM") => void): () => void;
  cwd?: string;
  /** Where NATIVEKIT_NODE_TOKEN is read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Runs `nativekit vault`; resolves to the exit code once stopped by a signal (2 on a usage error). */
export async function runVaultCommand(args: readonly string[], deps: VaultCommandDeps): Promise<ExitCode> {
  const parsed = parseCommandArgs(args, { node: { type: "string" }, "node-token": { type: "string" }, port: { type: "string" }, host: { type: "string" }, "database-url": { type: "string" }, "data-dir": { type: "string" } }, VAULT_USAGE, deps);
  if ("exit" in parsed) return parsed.exit;
  const { values } = parsed;
  const port = parsePort(values.port, DEFAULT_VAULT_PORT);
  if (port === undefined) return usageError(deps, invalidPort("--port", values.port), VAULT_USAGE);
  const databaseUrl = values["database-url"] as string | undefined;
  const dataDir = path.resolve(deps.cwd ?? process.cwd(), (values["data-dir"] as string | undefined) ?? DEFAULT_VAULT_DATA_DIR);
  const nodeUrl = ((values.node as string | undefined) ?? "http://127.0.0.1:9650").replace(/\/+$/, "");
  const envToken = (deps.env ?? process.env)[NODE_TOKEN_ENV];
  const nodeToken = (values["node-token"] as string | undefined) ?? (envToken === "" ? undefined : envToken);
  deps.stdout(databaseUrl === undefined ? `vault data directory: ${dataDir}\n` : `vault database: ${withoutPassword(databaseUrl)}\n`);
  let server;
  try {
    server = await startVaultServer({ nodeUrl, nodeToken, databaseUrl, dataDir: databaseUrl === undefined ? dataDir : undefined, host: values.host as string | undefined, port });
  } catch (error) {
    deps.stderr(`error: the vault could not start: ${(error as Error).message}\n`);
    return ExitCode.Failure;
  }
  deps.stdout(`${describeStart(server.service, `${server.url}${VAULT_PATH_PREFIX}`, nodeUrl, nodeToken !== undefined)}\nStop with Ctrl+C.\n`);
  return serveUntilSignal(server, "the vault", deps);
}

function describeStart(service: VaultService, url: string, nodeUrl: string, withToken: boolean): string {
  const { issued, reopened } = service.repaired;
  const repaired = issued + reopened === 0 ? "" : `\nrepaired ${issued + reopened} interrupted issue(s): ${issued} accepted by the node, ${reopened} pending again`;
  return `nativekit vault listening on ${url} (node ${nodeUrl}${withToken ? " with a token" : ""}; ${service.database.description})${repaired}`;
}

/** The vault inside the node's process: mounted at once, opened when the node listens. */
export interface NodeVaultMount {
  readonly prefixHandlers: Record<string, (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void>;
  /**
   * Opens the vault against the node now listening at `nodeUrl`, calling it with `nodeToken`
   * when given (a node started with --api-auth-required); answers a line for people.
   */
  start(nodeUrl: string, nodeToken?: NodeTokenSource): Promise<string>;
  close(): Promise<void>;
}

export function createNodeVaultMount(dbDir: string | undefined): NodeVaultMount {
  let service: VaultService | undefined;
  return {
    prefixHandlers: {
      [VAULT_PATH_PREFIX]: (req, res) => {
        if (service !== undefined) return service.handle(req, res);
        const text = JSON.stringify({ error: "node_unavailable", message: "the vault is starting" });
        res.writeHead(503, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
      },
    },
    start: async (nodeUrl, nodeToken) => {
      service = await openVaultService({ nodeUrl, nodeToken, dataDir: dbDir === undefined ? undefined : path.join(dbDir, "vault") });
      return describeStart(service, `${nodeUrl}${VAULT_PATH_PREFIX}`, nodeUrl, nodeToken !== undefined);
    },
    close: async () => service?.close(),
  };
}
