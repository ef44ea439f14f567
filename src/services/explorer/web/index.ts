/**
 * The explorer's pages for people, served from `basePath` (`/` on its own, `/explorer` inside the
 * node): server-rendered HTML over the same records the JSON API answers, read through the
 * explorer's reader.
 */
import type { ExplorerContext } from "../context";
import type { ExplorerHttpHandler } from "../http";
import type { ExplorerReader } from "../reader";
import { pagesReaderOf } from "./explorer-reader";
import { createPages, type ExplorerPages, type PagesOptions } from "./router";

export { createPages, type ExplorerPages, type PagesOptions } from "./router";
export type { PagesReader } from "./reader";
export { pagesReaderOf } from "./explorer-reader";

export function createExplorerPages(options: Omit<PagesOptions, "reader"> & { reader: ExplorerReader }): ExplorerPages {
  return createPages({ ...options, reader: pagesReaderOf(options.reader) });
}

/**
 * The paths the pages answer below the explorer's base path: all but the JSON API's (`/v2`,
 * `/x`, `/X`) and the service's `/status`, so a router can send the rest here.
 */
export const PAGE_PATHS = /^(?!\/(?:v2|x|X|status)(?:\/|$))/;

/**
 * Mounts the pages on the explorer's router under its base path (`nativekit explorer` at `/`,
 * `nativekit node --explorer` at `/explorer`): every path but the API's and `/status`.
 */
export function mountExplorerPages(router: ExplorerHttpHandler, options: { reader: ExplorerReader; context: ExplorerContext; pageSize?: number }): ExplorerPages {
  const pages = createExplorerPages({ ...options, basePath: router.basePath === "" ? "/" : router.basePath });
  router.route(PAGE_PATHS, ({ req, res, path, query }) => pages.handle(req, res, path, query));
  return pages;
}
