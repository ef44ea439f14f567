/**
 * One running explorer: its database opened (PGlite in a directory or in memory, or a
 * PostgreSQL server) and migrated, the network's context read from the node and kept, the
 * native asset's creation stored, and the ingester following the node's indexes. A node started
 * with --api-auth-required is called with `nodeToken`; one that refuses the explorer's calls
 * (no token, or one that does not open its paths) stops the start with a {@link NodeTokenRefusedError}.
 */
import { listenForService } from "../http/listen";
import { type FetchFunction, NodeHttpError, type NodeTokenSource } from "../../clients";
import type { SqlDatabase } from "../sql/database";
import { openPostgresDatabase } from "../sql/pg-database";
import { openPgliteDatabase } from "../sql/pglite-database";
import type { ExplorerContext } from "./context";
import type { ExplorerHttpHandler } from "./http";
import { storeContext } from "./ingest/chains";
import { PageDecoder } from "./ingest/decode-page";
import { checkIndexesServed, Ingester, type IngesterOptions } from "./ingest/ingester";
import { createNodeSource, EXPLORER_NODE_PATHS, type NodeSource } from "./ingest/node-source";
import { storeTransactions } from "./ingest/store";
import { migrateExplorer } from "./schema";
import { createExplorerSite } from "./site";

export interface ExplorerServiceOptions {
  /** Base URL of the node, e.g. `http://127.0.0.1:9650`. */
  nodeUrl: string;
  /** A PostgreSQL server (`postgres://…`); without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite's directory; undefined keeps it in memory. Ignored with `databaseUrl`. */
  dataDir?: string;
  /** How often each index is polled when caught up (default 500 ms). */
  pollIntervalMs?: number;
  /** Containers asked for per page (default 1000). */
  pageSize?: number;
  /** Start following the node at once (default true). */
  autoStart?: boolean;
  onError?: IngesterOptions["onError"];
  /** Containers stored between two vacuums of the tables the ingester rewrites (default 10,000). */
  vacuumEvery?: number;
  fetch?: FetchFunction;
  /**
   * The bearer token sent with every call to a node started with --api-auth-required: a token
   * (`auth.newToken` for {@link EXPLORER_NODE_PATHS}), or a function asked for one at first and
   * again whenever the node answers 401 (the token expired or was revoked).
   */
  nodeToken?: NodeTokenSource;
}

/** The node refused the explorer's first call (HTTP 401): it needs a token, or a valid one for the explorer's paths. */
export class NodeTokenRefusedError extends Error {
  override readonly name = "NodeTokenRefusedError";
  constructor(
    readonly nodeUrl: string,
    readonly tokenGiven: boolean,
    reason: string,
  ) {
    super(
      tokenGiven
        ? `the node at ${nodeUrl} refused the explorer's token (${reason}); it must be valid and open ${EXPLORER_NODE_PATHS.join(", ")}`
        : `the node at ${nodeUrl} requires an API token (${reason}); the explorer needs one from auth.newToken opening ${EXPLORER_NODE_PATHS.join(", ")}`,
    );
  }
}

export interface ExplorerService {
  readonly database: SqlDatabase;
  readonly context: ExplorerContext;
  readonly ingester: Ingester;
  readonly node: NodeSource;
  /** Stops the ingester (after its current page) and closes the database. */
  close(): Promise<void>;
}

export async function openExplorerService(options: ExplorerServiceOptions): Promise<ExplorerService> {
  const node = createNodeSource(options.nodeUrl, options.fetch, options.nodeToken);
  let context: ExplorerContext;
  try {
    context = await node.readContext();
  } catch (error) {
    if (error instanceof NodeHttpError && error.status === 401) throw new NodeTokenRefusedError(node.url, options.nodeToken !== undefined, `${error.method} answered HTTP 401: ${error.rpcError?.message ?? error.statusText}`);
    throw new Error(`cannot read the network from the node at ${node.url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  await checkIndexesServed(node);
  const database = options.databaseUrl !== undefined ? await openPostgresDatabase(options.databaseUrl) : await openPgliteDatabase(options.dataDir);
  try {
    await migrateExplorer(database);
    await storeContext(database, context);
    const known = await database.query("SELECT 1 FROM transactions WHERE id = $1", [context.nativeAssetId]);
    if (known.length === 0) {
      // The native asset is created at genesis, in no index: its creation is asked for by ID.
      const genesis = await new PageDecoder(context, node, database).genesisTx(context.nativeAssetId, 0);
      if (genesis !== undefined) await database.transaction((q) => storeTransactions(q, [genesis]));
    }
    const ingester = new Ingester({ database, node, context, pollIntervalMs: options.pollIntervalMs, pageSize: options.pageSize, onError: options.onError, vacuumEvery: options.vacuumEvery });
    if (options.autoStart !== false) await ingester.start();
    let closed: Promise<void> | undefined;
    return {
      database,
      context,
      ingester,
      node,
      close: () => {
        closed ??= (async () => {
          await ingester.stop();
          await database.close();
        })();
        return closed;
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

export interface ExplorerServer {
  url: string;
  port: number;
  service: ExplorerService;
  /** The router the API and pages are mounted on (`route(...)`). */
  http: ExplorerHttpHandler;
  close(): Promise<void>;
}

/** The explorer on an HTTP server of its own, at the root path. */
export async function startExplorerServer(options: ExplorerServiceOptions & { host?: string; port?: number }): Promise<ExplorerServer> {
  const service = await openExplorerService(options);
  const handler = createExplorerSite(service, { basePath: "" });
  const listening = await listenForService((req, res) => handler.handle(req, res), options, () => service.close());
  return { ...listening, service, http: handler };
}
