/**
 * The explorer's pages for people, served from `basePath` (`/` on its own, `/explorer` inside the
 * node): server-rendered HTML over the same records the JSON API answers.
 */
export { createPages, type ExplorerPages } from "./router";
export type { PagesReader } from "./reader";

/**
 * The paths the pages answer below the explorer's base path: all but the JSON API's (`/v2`,
 * `/x`, `/X`) and the service's `/status`, so a router can send the rest here.
 */
export const PAGE_PATHS = /^(?!\/(?:v2|x|X|status)(?:\/|$))/;
