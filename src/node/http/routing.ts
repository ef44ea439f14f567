/**
 * The route table of the HTTP server: which path is served by JSON-RPC (POST), by a GET handler,
 * by a mounted service (a prefix and everything below it) or by the upgrade handler, all keyed
 * by their normalized path (no trailing slash).
 */
import type { Dispatch } from "../../rpc/types";
import { normalizePath } from "../http-paths";
import { loggingDispatch } from "./logging";
import type { GetHandler, HttpNodeOptions, PrefixHandler } from "./types";

export interface RouteTable {
  /** JSON-RPC paths and their dispatch (wrapped to log every call when the server logs). */
  readonly routes: ReadonlyMap<string, Dispatch>;
  readonly getRoutes: ReadonlyMap<string, GetHandler>;
  readonly upgradePaths: ReadonlySet<string>;
  /** Every exact path served, named in the 404 answer. */
  readonly servedPaths: readonly string[];
  /** The mounted service whose prefix is `path` or lies above it. */
  prefixHandlerOf(path: string): PrefixHandler | undefined;
}

/** The route table of `options`; throws a RangeError for a path or prefix not starting with "/". */
export function buildRouteTable(options: HttpNodeOptions): RouteTable {
  const log = options.log;
  const routes = new Map<string, Dispatch>();
  for (const [path, dispatch] of Object.entries(options.routes)) {
    if (!path.startsWith("/")) throw new RangeError(`route paths must start with "/", got ${JSON.stringify(path)}`);
    routes.set(normalizePath(path), log === undefined ? dispatch : loggingDispatch(dispatch, log));
  }
  const getRoutes = new Map<string, GetHandler>();
  for (const [path, handler] of Object.entries(options.getRoutes ?? {})) {
    if (!path.startsWith("/")) throw new RangeError(`route paths must start with "/", got ${JSON.stringify(path)}`);
    getRoutes.set(normalizePath(path), handler);
  }
  const upgradePaths = new Set((options.upgrade?.paths ?? []).map(normalizePath));
  const servedPaths = [...new Set([...routes.keys(), ...getRoutes.keys(), ...upgradePaths])];
  const prefixHandlers = Object.entries(options.prefixHandlers ?? {}).map(([prefix, handler]) => {
    if (!prefix.startsWith("/")) throw new RangeError(`prefixes must start with "/", got ${JSON.stringify(prefix)}`);
    return { prefix: normalizePath(prefix), handler };
  });
  return {
    routes,
    getRoutes,
    upgradePaths,
    servedPaths,
    prefixHandlerOf: (path) =>
      prefixHandlers.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))?.handler,
  };
}
