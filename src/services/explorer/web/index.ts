/**
 * The explorer's pages for people, served from `basePath` (`/` on its own, `/explorer` inside the
 * node): server-rendered HTML over the same records the JSON API answers.
 */
export { createPages, type ExplorerPages } from "./router";
export type { PagesReader } from "./reader";
