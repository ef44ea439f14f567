/**
 * The whole explorer over HTTP under one base path: the service's `/status`, the JSON API
 * (`/v2`, legacy `/x`) and the pages for people (everything else), all answering from the same
 * reader, so a page never shows what the API would not. `nativekit explorer` serves it at `/`,
 * `nativekit node --explorer` under `/explorer`.
 */
import { createExplorerApi } from "./api";
import { mountExplorerApi } from "./api/mount";
import { createExplorerHttpHandler, type ExplorerHttpHandler } from "./http";
import { createExplorerReader } from "./reader";
import type { ExplorerService } from "./service";
import { mountExplorerPages } from "./web";

export function createExplorerSite(service: ExplorerService, options: { basePath?: string } = {}): ExplorerHttpHandler {
  const router = createExplorerHttpHandler(service, options);
  const reader = createExplorerReader(service.database, service.context);
  mountExplorerApi(router, createExplorerApi({ reader, context: service.context }));
  mountExplorerPages(router, { reader, context: service.context });
  return router;
}
