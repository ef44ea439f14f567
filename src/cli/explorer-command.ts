/**
 * `nativekit explorer`: the explorer on a port of its own, following a node (this one or a real
 * one, started with --index-enabled) through its HTTP APIs; and the mount `nativekit node
 * --explorer` uses to serve it under /explorer on the node's port, opened once the node listens.
 * A node started with --api-auth-required is followed with a token: --node-token or
 * NATIVEKIT_NODE_TOKEN here, one the node makes itself for the explorer it hosts.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { NODE_TOKEN_ENV, type NodeTokenSource } from "../clients";
import {
  createExplorerSite,
  DEFAULT_PAGE_SIZE,
  DEFAULT_POLL_INTERVAL_MS,
  type ExplorerHttpHandler,
  EXPLORER_NODE_PATHS,
  type ExplorerService,
  NodeTokenRefusedError,
  openExplorerService,
  startExplorerServer,
} from "../services/explorer";
import { withoutPassword } from "../services/sql/pg-database";
import { invalidPort, parseCommandArgs, parsePort, usageError } from "./command-args";
import { ExitCode } from "./exit-code";
import { serveUntilSignal } from "./serve-until-signal";

export const DEFAULT_EXPLORER_PORT = 9670;
export const DEFAULT_EXPLORER_DATA_DIR = path.join(".nativekit", "explorer");
/** Where `nativekit node --explorer` serves the explorer on the node's port. */
export const NODE_EXPLORER_PREFIX = "/explorer";

export const EXPLORER_USAGE = `Usage: nativekit explorer [options]

Start the explorer: it follows a node's index API (the node must run with --index-enabled),
stores the three chains' transactions, outputs, addresses, assets and contract-chain blocks in
PostgreSQL, and serves them over HTTP: pages for people at /, the JSON API at /v2 (and the
legacy /x), and GET /status (how far each index is read).

Options:
  --node <url>            the node's base URL (default http://127.0.0.1:9650)
  --port <n>              HTTP port, 0 for any free port (default ${DEFAULT_EXPLORER_PORT})
  --host <value>          interface to listen on (default 127.0.0.1)
  --database-url <url>    a PostgreSQL server (postgres://user:password@host:port/db)
                          instead of the embedded PostgreSQL (PGlite)
  --data-dir <path>       the embedded database's directory (default ${DEFAULT_EXPLORER_DATA_DIR}
                          in the working directory; ignored with --database-url)
  --poll-interval <ms>    how often each index is asked for new containers (default ${DEFAULT_POLL_INTERVAL_MS})
  --page-size <n>         containers read and stored together, 1 to 1024 (default ${DEFAULT_PAGE_SIZE})
  --node-token <token>    for a node started with --api-auth-required: a token of its auth
                          API (auth.newToken) opening the paths the explorer calls:
                            ${EXPLORER_NODE_PATHS.slice(0, 4).join(" ")}
                            ${EXPLORER_NODE_PATHS.slice(4).join(" ")}
                          (default: the environment variable ${NODE_TOKEN_ENV})
  --help, -h              show this help

Or run it inside the node: nativekit node --explorer (served under ${NODE_EXPLORER_PREFIX} on the
node's port; turns on --index-enabled; its database under --db-dir when given, in memory otherwise;
with --api-auth-required the node gets the explorer its token itself).
`;

export interface ExplorerCommandDeps {
  stdout(text: string): void;
  stderr(text: string): void;
  onSignal(handler: (signal: "SIGINT" | "SIGTERM") => void): () => void;
  cwd?: string;
  /** Where NATIVEKIT_NODE_TOKEN is read (default process.env). */
  env?: Record<string, string | undefined>;
}

/** Runs `nativekit explorer`; resolves to the exit code once stopped by a signal (2 on a usage error). */
export async function runExplorerCommand(args: readonly string[], deps: ExplorerCommandDeps): Promise<ExitCode> {
  const parsed = parseCommandArgs(
    args,
    { node: { type: "string" }, port: { type: "string" }, host: { type: "string" }, "database-url": { type: "string" }, "data-dir": { type: "string" }, "poll-interval": { type: "string" }, "page-size": { type: "string" }, "node-token": { type: "string" } },
    EXPLORER_USAGE,
    deps,
  );
  if ("exit" in parsed) return parsed.exit;
  const { values } = parsed;
  const port = parsePort(values.port, DEFAULT_EXPLORER_PORT);
  if (port === undefined) return usageError(deps, invalidPort("--port", values.port), EXPLORER_USAGE);
  const pollText = (values["poll-interval"] as string | undefined) ?? String(DEFAULT_POLL_INTERVAL_MS);
  const pageText = (values["page-size"] as string | undefined) ?? String(DEFAULT_PAGE_SIZE);
  if (!/^\d+$/.test(pollText) || Number(pollText) < 10) return usageError(deps, `invalid --poll-interval ${JSON.stringify(pollText)}: expected milliseconds, at least 10`, EXPLORER_USAGE);
  if (!/^\d+$/.test(pageText) || Number(pageText) < 1 || Number(pageText) > 1024) return usageError(deps, `invalid --page-size ${JSON.stringify(pageText)}: expected an integer from 1 to 1024`, EXPLORER_USAGE);
  // An empty environment variable is as good as none; an empty flag is a mistake.
  const envToken = (deps.env ?? process.env)[NODE_TOKEN_ENV];
  const nodeToken = (values["node-token"] as string | undefined) ?? (envToken === "" ? undefined : envToken);
  if (nodeToken !== undefined && (nodeToken === "" || /\s/.test(nodeToken))) {
    const from = values["node-token"] === undefined ? NODE_TOKEN_ENV : "--node-token";
    return usageError(deps, `invalid ${from}: expected a token as auth.newToken returns it (no spaces), got ${JSON.stringify(nodeToken)}`, EXPLORER_USAGE);
  }
  const databaseUrl = values["database-url"] as string | undefined;
  const dataDir = path.resolve(deps.cwd ?? process.cwd(), (values["data-dir"] as string | undefined) ?? DEFAULT_EXPLORER_DATA_DIR);
  const nodeUrl = ((values.node as string | undefined) ?? "http://127.0.0.1:9650").replace(/\/+$/, "");
  deps.stdout(databaseUrl === undefined ? `explorer data directory: ${dataDir}\n` : `explorer database: ${withoutPassword(databaseUrl)}\n`);
  let server;
  try {
    server = await startExplorerServer({
      nodeUrl,
      databaseUrl,
      dataDir: databaseUrl === undefined ? dataDir : undefined,
      host: values.host as string | undefined,
      port,
      pollIntervalMs: Number(pollText),
      pageSize: Number(pageText),
      onError: reportOnce(deps),
      nodeToken,
    });
    // A node without indexing is told at once, rather than retried forever.
    await firstRound(server.service);
  } catch (error) {
    await server?.close().catch(() => undefined);
    const hint = error instanceof NodeTokenRefusedError ? `: ${error.tokenGiven ? "give a valid one with" : "give one with"} --node-token <token> or ${NODE_TOKEN_ENV}` : "";
    deps.stderr(`error: the explorer could not start: ${(error as Error).message}${hint}\n`);
    return ExitCode.Failure;
  }
  deps.stdout(`${describeStart(server.service, server.url, nodeUrl)}\nStop with Ctrl+C.\n`);
  return serveUntilSignal(server, "the explorer", deps);
}

/** Fails when the node serves no index (the one error retrying cannot mend). */
async function firstRound(service: ExplorerService): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const progress = service.ingester.progress();
    const failed = progress.find((p) => p.state === "failed");
    if (failed !== undefined) throw new Error(failed.lastError ?? "the index cannot be read");
    if (progress.every((p) => p.state !== "starting")) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Prints each distinct error of an index once (a stopped node would otherwise repeat it every poll). */
function reportOnce(deps: { stderr(text: string): void }): (index: string, error: Error) => void {
  const last = new Map<string, string>();
  return (index, error) => {
    if (last.get(index) === error.message) return;
    last.set(index, error.message);
    deps.stderr(`explorer: ${index}: ${error.message}\n`);
  };
}

function describeStart(service: ExplorerService, url: string, nodeUrl: string): string {
  return `nativekit explorer listening on ${url} (node ${nodeUrl}, network ${service.context.networkId}; ${service.database.description}); status at ${url}/status`;
}

/** The explorer inside the node's process: mounted at once, opened when the node listens. */
export interface NodeExplorerMount {
  readonly prefixHandlers: Record<string, (req: IncomingMessage, res: ServerResponse) => void>;
  /**
   * Opens the explorer against the node now listening at `nodeUrl`, calling it with `nodeToken`
   * when the node requires auth; answers a line for people.
   */
  start(nodeUrl: string, nodeToken?: NodeTokenSource): Promise<string>;
  /** The paths the explorer calls on the node: what a token for it must open. */
  readonly nodePaths: readonly string[];
  /** The router, once started (the API and pages mount on it). */
  readonly http: ExplorerHttpHandler | undefined;
  close(): Promise<void>;
}

export function createNodeExplorerMount(dbDir: string | undefined, log?: (line: string) => void): NodeExplorerMount {
  let service: ExplorerService | undefined;
  let handler: ExplorerHttpHandler | undefined;
  return {
    prefixHandlers: {
      [NODE_EXPLORER_PREFIX]: (req, res) => {
        if (handler !== undefined) return handler.handle(req, res);
        const text = JSON.stringify({ code: 503, message: "the explorer is starting" });
        res.writeHead(503, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
      },
    },
    get http() {
      return handler;
    },
    nodePaths: EXPLORER_NODE_PATHS,
    start: async (nodeUrl, nodeToken) => {
      const errors = log === undefined ? undefined : reportOnce({ stderr: (text) => log(text.trimEnd()) });
      service = await openExplorerService({ nodeUrl, dataDir: dbDir === undefined ? undefined : path.join(dbDir, "explorer"), onError: errors, nodeToken });
      handler = createExplorerSite(service, { basePath: NODE_EXPLORER_PREFIX });
      return describeStart(service, `${nodeUrl}${NODE_EXPLORER_PREFIX}`, nodeUrl);
    },
    close: async () => service?.close(),
  };
}
