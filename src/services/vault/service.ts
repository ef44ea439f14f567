/**
 * One running vault: its database opened (PGlite in a directory or in memory, or a PostgreSQL
 * server), its tables migrated, the issues a crash left unfinished settled with the node, and
 * its HTTP API ready to mount — on a server of its own (`startVaultServer`, `nativekit vault`)
 * or on the node's (`nativekit node --vault`).
 */
import { listenForService } from "../http/listen";
import { createPlatformChainClient, createTransport, type FetchFunction, type NodeTokenSource, withTokenSource } from "../../clients";
import type { SqlDatabase } from "../sql/database";
import { VaultEvents } from "./events";
import { createVaultHttpApi, type HttpHandler, VAULT_PATH_PREFIX } from "./http-api";
import { openPostgresDatabase } from "../sql/pg-database";
import { openPgliteDatabase, type PgliteTemplate } from "../sql/pglite-database";
import { migrateVault } from "./schema";
import { VaultStore } from "./store";
import { type PlatformApi, Vault } from "./vault";

export interface VaultServiceOptions {
  /** Base URL of the node, e.g. `http://127.0.0.1:9650`. */
  nodeUrl: string;
  /**
   * The bearer token of a node started with `--api-auth-required`, sent with every call the
   * vault makes to it: a token, or a function asked for one (again whenever the node answers 401).
   */
  nodeToken?: NodeTokenSource;
  /** A PostgreSQL server (`postgres://…`); without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite's directory; undefined keeps it in memory. Ignored with `databaseUrl`. */
  dataDir?: string;
  /** An in-memory PGlite starts from this instead of running initdb (tests open many). Ignored with `databaseUrl` or `dataDir`. */
  pgliteTemplate?: PgliteTemplate;
  /** Replaces the platform client built from `nodeUrl` (tests). */
  platform?: PlatformApi;
  fetch?: FetchFunction;
  now?: () => number;
  timestampWindowSeconds?: number;
}

export interface VaultService {
  readonly vault: Vault;
  readonly database: SqlDatabase;
  /** Serves `/v1/multisig…`; mount it under {@link VAULT_PATH_PREFIX}. */
  readonly handle: HttpHandler;
  /** What the start-up repair did to issues a crash left unfinished. */
  readonly repaired: { issued: number; reopened: number };
  close(): Promise<void>;
}

export async function openVaultService(options: VaultServiceOptions): Promise<VaultService> {
  const database = options.databaseUrl !== undefined ? await openPostgresDatabase(options.databaseUrl) : await openPgliteDatabase(options.dataDir, { template: options.pgliteTemplate });
  try {
    await migrateVault(database);
    const platform = options.platform ?? createPlatformChainClient({ transport: withTokenSource(createTransport({ url: options.nodeUrl, fetch: options.fetch }), options.nodeToken) });
    const events = new VaultEvents();
    const vault = new Vault({ store: new VaultStore(database), platform, events, now: options.now, timestampWindowSeconds: options.timestampWindowSeconds });
    const repaired = await vault.repairInterruptedIssues();
    const api = createVaultHttpApi(vault, events);
    let closed: Promise<void> | undefined;
    return {
      vault,
      database,
      handle: api.handle,
      repaired,
      close: () => {
        api.close();
        closed ??= database.close();
        return closed;
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

export interface VaultServer {
  url: string;
  port: number;
  service: VaultService;
  close(): Promise<void>;
}

/** The vault on an HTTP server of its own (other paths: 404 in the vault's error shape). */
export async function startVaultServer(options: VaultServiceOptions & { host?: string; port?: number }): Promise<VaultServer> {
  const service = await openVaultService(options);
  const listening = await listenForService(
    (req, res) => {
      if ((req.url ?? "/").startsWith(VAULT_PATH_PREFIX)) return service.handle(req, res);
      const text = JSON.stringify({ error: "not_found", message: `nothing at ${req.url ?? "/"}: the vault serves ${VAULT_PATH_PREFIX}` });
      res.writeHead(404, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
    },
    options,
    () => service.close(),
  );
  return { ...listening, service };
}
