/**
 * Mounting the JSON API on the explorer's router (`http.ts`): every method, so that a method
 * other than GET gets the API's 405 rather than the router's 404.
 */
import type * as http from "node:http";
import type { ExplorerHttpHandler } from "../http";

/** What is mounted: the API's request handler (`ExplorerApi` of ./index, which re-exports this module). */
interface MountedApi {
  handle(req: http.IncomingMessage, res: http.ServerResponse, path: string, query: URLSearchParams): Promise<void>;
}

const API_PATHS = /^\/(v2|x|X)(\/|$)/;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export function mountExplorerApi(router: ExplorerHttpHandler, api: MountedApi): void {
  for (const method of METHODS) router.route(API_PATHS, ({ req, res, path, query }) => api.handle(req, res, path, query), method);
}
