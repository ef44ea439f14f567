/**
 * The whole explorer over HTTP under one base path: the service's `/status`, the JSON API
 * (`/v2`, legacy `/x`) and the pages for people (everything else), all answering from the same
 * reader, so a page never shows what the API would not. `nativekit explorer` serves it at `/`,
 * `nativekit node --explorer` under `/explorer`.
 */
import { createExplorerApi } from "./api";
import { mountExplorerApi } from "./api/mount";
import type { SqlDatabase } from "../sql/database";
import type { ExplorerContext } from "./context";
import { createExplorerHttpHandler, type ExplorerHttpHandler, type ExplorerStatusSource } from "./http";
import { createExplorerReader } from "./reader";
import { mountExplorerPages } from "./web";

/** The part of a running explorer the site reads (the service, without a dependency on its module). */
export interface ExplorerSiteSource extends ExplorerStatusSource {
  readonly database: SqlDatabase;
  readonly context: ExplorerContext;
}

export function createExplorerSite(service: ExplorerSiteSource, options: { basePath?: string } = {}): ExplorerHttpHandler {
  const router = createExplorerHttpHandler(service, options);
  const reader = createExplorerReader(service.database, service.context);
  mountExplorerApi(router, createExplorerApi({ reader, context: service.context }));
  mountExplorerPages(router, { reader, context: service.context });
  return router;
}
