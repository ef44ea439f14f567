/**
 * The node's management APIs, wired onto one node: auth (/ext/auth, with the token check of
 * every request), info (/ext/info) and health (/ext/health, JSON-RPC and GET), and the staking
 * identity they report. `NodeChains` calls {@link createManagement} with its chain routes;
 * the HTTP server takes `routes`, `getRoutes` and `authorize` from the result.
 */
import { promises as fs } from "node:fs";
import * as path from "node:path";

import type { NetworkIdentifiers } from "../network/constants";
import { PATHS } from "../network/paths";
import type { Dispatch } from "../rpc/types";
import type { DurableStore } from "../storage";
import { AuthError } from "./auth/errors";
// Types only: the auth modules (JWT, password strength, argon2) load when a node requires auth.
import type { ApiAuthority, Clock } from "./auth/tokens";
import { HealthMonitor, createHealthApi, healthGetRoutes, type HealthCheck } from "./health-api";
import type { Authorize, GetHandler } from "./http-server";
import { createInfoApi, type PeerStatus } from "./info-api";
import { readPackageVersion } from "./package-version";
import { loadStakingIdentity, type StakingIdentity, type StakingOptions } from "./staking";

/** Default staking port, reported by `info.getNodeIP` (the peer network listens there). */
export const DEFAULT_STAKING_PORT = 9651;
/** Default public IP, reported by `info.getNodeIP`. */
export const DEFAULT_PUBLIC_IP = "127.0.0.1";

export interface ManagementOptions {
  /** `--api-auth-required`: every request but those to /ext/auth needs a bearer token. */
  apiAuthRequired?: boolean;
  /** The auth password itself (for programs); trimmed like the file's content. */
  apiAuthPassword?: string;
  /** `--api-auth-password-file`: the file holding the auth password (trimmed). */
  apiAuthPasswordFile?: string;
  /** The current time of the token check (tests make tokens expire with it). */
  clock?: Clock;
  /**
   * Where the staking certificate, its key and the BLS key are kept. Default: `<dbDir>/staking`
   * when `dbDir` is given, else a fresh identity per process.
   */
  stakingDir?: string;
  /** `--db-dir`: the node's data directory. */
  dbDir?: string;
  /** `--staking-tls-cert-file` / `--staking-tls-key-file`: a certificate and key to use (PEM). */
  stakingTlsCertFile?: string;
  stakingTlsKeyFile?: string;
  /** `--public-ip` and `--staking-port`: the address `info.getNodeIP` reports. */
  publicIp?: string;
  stakingPort?: number;
  /** Reported by `info.getNodeVersion`; default the package's version and "". */
  version?: string;
  gitCommit?: string;
  /** The node's peer network (info.peers, info.isBootstrapped, the health check "network"). */
  peers?: PeerStatus;
  /** Reads or makes the staking identity; default {@link loadStakingIdentity} (tests count its calls). */
  loadIdentity?: (options: StakingOptions) => Promise<StakingIdentity>;
}

export interface Management {
  /** JSON-RPC routes: the chain routes given, plus /ext/info, /ext/health and (with auth) /ext/auth. */
  routes: Record<string, Dispatch>;
  /** GET routes (the health reports). */
  getRoutes: Record<string, GetHandler>;
  /** The token check of every request, when auth is required. */
  authorize?: Authorize;
  /**
   * The node's staking identity. One kept on disk (a staking dir, a db dir, or given files) is
   * read (or made and stored) before the node starts; one made for this process only is made on
   * the first call (an RSA-4096 key takes a second or more of a core), and that call's promise is
   * kept (a failed one is not, so the next call tries again).
   */
  identity(): Promise<StakingIdentity>;
  /** Lines for people (printed by `nativekit node`). */
  notes: string[];
}

/** Builds the management APIs of a node serving `chainRoutes` on `network`. */
export async function createManagement(
  network: NetworkIdentifiers,
  chainRoutes: Record<string, Dispatch>,
  options: ManagementOptions = {},
  /** Where a node with a data directory keeps its auth state (a store committing on its own). */
  authStore?: DurableStore,
): Promise<Management> {
  const auth = options.apiAuthRequired === true ? await loadAuth() : undefined;
  let authority: ApiAuthority | undefined;
  if (auth !== undefined) {
    const password = await authPassword(options);
    authority = authStore === undefined ? await auth.ApiAuthority.create(password, options.clock) : await auth.keptAuthority(password, authStore, options.clock);
  }
  const staking = stakingOptions(options);
  const kept = staking.dir !== undefined || staking.certFile !== undefined || staking.keyFile !== undefined;
  // A kept identity is read (or made and stored) now, so a bad file stops the start. One made for
  // this run is made when first asked for (info.getNodeID, the peer network): its RSA-4096 key
  // takes a core for about a second, which a node serving contract tests would otherwise pay, beside
  // its first transactions, at every start. A failure is reported by the calls that need it.
  const load = options.loadIdentity ?? loadStakingIdentity;
  const identity = kept ? await load(staking) : undefined;
  let loading: Promise<StakingIdentity> | undefined = identity === undefined ? undefined : Promise.resolve(identity);
  const loadIdentity = (): Promise<StakingIdentity> =>
    (loading ??= load(staking).catch((error: unknown) => {
      loading = undefined; // the next call tries again
      throw error;
    }));
  const info = createInfoApi({
    network,
    version: options.version ?? readPackageVersion(),
    gitCommit: options.gitCommit,
    identity: loadIdentity,
    nodeIP: `${options.publicIp ?? DEFAULT_PUBLIC_IP}:${options.stakingPort ?? DEFAULT_STAKING_PORT}`,
    peers: options.peers,
  });
  const monitor = new HealthMonitor(healthChecks(chainRoutes, options.peers));
  const routes: Record<string, Dispatch> = {
    ...chainRoutes,
    [PATHS.info]: info.dispatch,
    [PATHS.health]: createHealthApi(monitor).dispatch,
  };
  const notes: string[] = [
    identity === undefined
      ? "Node ID: made for this run when first asked for (info.getNodeID); --staking-dir or --db-dir keeps one across starts"
      : `Node ID ${identity.nodeID}`,
  ];
  if (auth !== undefined && authority !== undefined) {
    routes[PATHS.auth] = auth.createAuthApi(authority).dispatch;
    notes.push(`API authorization required: get a token with auth.newToken at ${PATHS.auth}, send it as "Authorization: Bearer <token>"`);
  }
  return {
    routes,
    getRoutes: healthGetRoutes(monitor),
    authorize: authority === undefined ? undefined : bearerCheck(authority),
    identity: loadIdentity,
    notes,
  };
}

/** The auth API and its token authority, loaded only by a node that requires auth. */
async function loadAuth(): Promise<{
  ApiAuthority: typeof ApiAuthority;
  createAuthApi: typeof import("./auth/api").createAuthApi;
  keptAuthority: typeof import("./auth/kept-auth").keptAuthority;
}> {
  const [{ ApiAuthority }, { createAuthApi }, { keptAuthority }] = await Promise.all([import("./auth/tokens"), import("./auth/api"), import("./auth/kept-auth")]);
  return { ApiAuthority, createAuthApi, keptAuthority };
}

/** The password of `--api-auth-required`: given, or read from its file; trimmed. */
async function authPassword(options: ManagementOptions): Promise<string> {
  if (options.apiAuthPassword !== undefined) return options.apiAuthPassword.trim();
  const file = options.apiAuthPasswordFile;
  if (file === undefined || file === "") throw new AuthError("--api-auth-required needs --api-auth-password-file");
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch (error) {
    throw new AuthError(`cannot read the API auth password file ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function stakingOptions(options: ManagementOptions): StakingOptions {
  const dir = options.stakingDir ?? (options.dbDir === undefined ? undefined : path.join(options.dbDir, "staking"));
  return { dir, certFile: options.stakingTlsCertFile, keyFile: options.stakingTlsKeyFile };
}

/** The HTTP server's `authorize`: the request's bearer token checked by `authority`. */
function bearerCheck(authority: ApiAuthority): Authorize {
  return async (requestPath, headers) => {
    try {
      await authority.authorize(requestPath, headers.authorization);
      return undefined;
    } catch (error) {
      if (error instanceof AuthError) return error.message;
      throw error;
    }
  };
}

/**
 * A check per chain served, healthy once the chain answers a call over its own API (its
 * message tells the call and the answer), part of the health and readiness reports; and the
 * liveness check of the node itself.
 */
function healthChecks(chainRoutes: Record<string, Dispatch>, peers: PeerStatus | undefined): HealthCheck[] {
  const started = new Date();
  const probe = (name: string, routePath: string, method: string, params: unknown): HealthCheck[] => {
    const dispatch = chainRoutes[routePath];
    if (dispatch === undefined) return [];
    return [{ name, kinds: ["health", "readiness"], run: async () => ({ path: routePath, method, result: await dispatch(method, params) }) }];
  };
  return [
    ...probe("C", PATHS.contractRpc, "eth_blockNumber", []),
    ...probe("X", PATHS.exchange, "avm.getTxFee", {}),
    { name: "node", kinds: ["health", "liveness"], run: () => Promise.resolve({ startedAt: started.toISOString() }) },
    // Fails while a follower bootstraps, when its link to its producer is lost, or once it refused a container.
    ...(peers === undefined ? [] : [{ name: "network", kinds: ["health", "readiness"] as const, run: () => Promise.resolve().then(() => peers.health()) }]),
  ];
}
