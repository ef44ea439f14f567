/** The explorer service: an index of the node's three chains in PostgreSQL (PGlite or a server), and its HTTP entry. */
export { openExplorerService, startExplorerServer, NodeTokenRefusedError, type ExplorerService, type ExplorerServiceOptions, type ExplorerServer } from "./service";
export { createExplorerSite } from "./site";
export { createExplorerHttpHandler, sendError, sendJson, type ExplorerHttpHandler, type ExplorerRequest, type ExplorerRouteHandler } from "./http";
export { Ingester, IndexDisabledError, DEFAULT_POLL_INTERVAL_MS, DEFAULT_PAGE_SIZE, type IndexProgress, type IndexState } from "./ingest/ingester";
export { EXPLORER_INDEXES, EXPLORER_NODE_PATHS, type ExplorerIndexName } from "./ingest/node-source";
export { checkExplorerAgainstNode, type CorrectnessReport } from "./ingest/correctness";
export { aliasOfChain, type ChainAlias, type ExplorerContext } from "./context";
export { migrateExplorer } from "./schema";
export { MalformedUrlError } from "./url-text";
export type { SqlDatabase } from "../sql/database";
