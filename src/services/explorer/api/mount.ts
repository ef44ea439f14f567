/**
 * Mounting the JSON API on the explorer's router (`http.ts`): every method, so that a method
 * other than GET gets the API's 405 rather than the router's 404.
 */
import type { ExplorerHttpHandler } from "../http";
import type { ExplorerApi } from "./index";

const API_PATHS = /^\/(v2|x|X)(\/|$)/;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export function mountExplorerApi(router: ExplorerHttpHandler, api: ExplorerApi): void {
  for (const method of METHODS) router.route(API_PATHS, ({ req, res, path, query }) => api.handle(req, res, path, query), method);
}
