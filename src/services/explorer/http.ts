/**
 * The explorer's HTTP entry: a small router under a base path (`/` for `nativekit explorer`,
 * `/explorer` inside the node). It answers `GET <base>/status` (each index's progress) and, for
 * anything else, 404 in the explorer's error shape `{code, message}`. The API and the pages are
 * mounted on it with `route(...)`: handlers receive the path relative to the base and the
 * parsed query (repeatable parameters kept). A handler that throws a MalformedUrlError (a path or
 * query whose percent-encoding it cannot read) is answered 400 with its message, anything else 500.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { IndexProgress } from "./ingest/ingester";
import { checkQueryText, MalformedUrlError } from "./url-text";

/**
 * What `/status` tells about the running explorer: the part of the service it reads (so this
 * module does not depend on the service, which serves through it).
 */
export interface ExplorerStatusSource {
  readonly node: { readonly url: string };
  readonly context: { readonly networkId: number };
  readonly database: { readonly description: string };
  readonly ingester: { progress(): IndexProgress[] };
}

export interface ExplorerRequest {
  readonly method: string;
  /** The path after the base path, starting with `/` (`/v2/transactions`). */
  readonly path: string;
  /** The query; `getAll` gives repeated parameters. */
  readonly query: URLSearchParams;
  /** The groups a RegExp route captured. */
  readonly params: readonly string[];
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

/** Answers a request, or resolves to false to let the next route try. */
export type ExplorerRouteHandler = (request: ExplorerRequest) => Promise<boolean | void> | boolean | void;

export interface ExplorerHttpHandler {
  /** Node's request listener: give it every request under the base path. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Adds a route: an exact path or a RegExp over the relative path; GET unless told. */
  route(path: string | RegExp, handler: ExplorerRouteHandler, method?: string): void;
  readonly basePath: string;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) }).end(text);
}

export function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { code: status, message });
}

interface Route {
  method: string;
  path: string | RegExp;
  handler: ExplorerRouteHandler;
}

export function createExplorerHttpHandler(service: ExplorerStatusSource, options: { basePath?: string } = {}): ExplorerHttpHandler {
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const routes: Route[] = [];
  const route: ExplorerHttpHandler["route"] = (path, handler, method = "GET") => routes.push({ method, path, handler });
  route("/status", ({ req, res }) => {
    checkQueryText(req.url);
    sendJson(res, 200, { node: service.node.url, networkID: service.context.networkId, database: service.database.description, indexes: service.ingester.progress() });
  });

  const dispatch = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://explorer.invalid");
    const full = url.pathname;
    if (basePath !== "" && full !== basePath && !full.startsWith(`${basePath}/`)) return sendError(res, 404, `nothing at ${full}: the explorer serves ${basePath}/`);
    const path = full.slice(basePath.length) || "/";
    const method = req.method ?? "GET";
    for (const r of routes) {
      if (r.method !== method && !(r.method === "GET" && method === "HEAD")) continue;
      let params: string[] = [];
      if (typeof r.path === "string") {
        if (r.path !== path) continue;
      } else {
        const match = r.path.exec(path);
        if (match === null) continue;
        params = match.slice(1);
      }
      const answered = await r.handler({ method, path, query: url.searchParams, params, req, res });
      if (answered !== false) return;
    }
    sendError(res, 404, `nothing at ${path}`);
  };

  return {
    basePath,
    route,
    handle: (req, res) => {
      dispatch(req, res).catch((error: unknown) => {
        if (res.headersSent) return res.destroy();
        if (error instanceof MalformedUrlError) return sendError(res, 400, error.message);
        sendError(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      });
    },
  };
}
