/**
 * The explorer's JSON API over HTTP: `/v2/…` and the legacy `/x/…` (also `/X/…`), GET only,
 * every answer JSON, every error `{code, message}` (`errors.ts`). The caller (the explorer's
 * server, or the node when it hosts the explorer) strips its mount point and passes the rest.
 */
import type * as http from "node:http";
import type { ExplorerContext } from "../context";
import { JsonText } from "../json-text";
import { ReaderInputError, type ExplorerReader } from "../reader";
import { MalformedUrlError, checkQueryText, decodePathSegments } from "../url-text";
import { ExplorerApiError, notFound } from "./errors";
import { QueryParameters } from "./parameters";
import { ENDPOINTS } from "./routes";

export { ExplorerApiError } from "./errors";
export { LIST_LIMIT_MAX, CBLOCKS_LIMIT_MAX } from "./parameters";

export interface ExplorerApi {
  /**
   * Answers one request. `path` is relative to the explorer's mount and starts with `/v2`, `/x`
   * or `/X`; `query` is the request's query string.
   */
  handle(req: http.IncomingMessage, res: http.ServerResponse, path: string, query: URLSearchParams): Promise<void>;
}

export interface ExplorerApiOptions {
  reader: ExplorerReader;
  context: ExplorerContext;
  /** The clock (Unix ms) that bounds startTime/endTime; tests pin it. */
  now?: () => number;
}

const VERSION_PREFIX = /^\/(v2|x|X)(?=\/|$)/;

export function createExplorerApi(options: ExplorerApiOptions): ExplorerApi {
  const now = options.now ?? Date.now;

  async function answer(method: string, path: string, query: URLSearchParams, target: string | undefined): Promise<unknown> {
    const version = VERSION_PREFIX.exec(path);
    if (version === null) throw notFound(`no such path ${path}; the explorer answers under /v2 and the legacy /x`);
    if (method !== "GET" && method !== "HEAD") throw new ExplorerApiError(405, `method ${method} is not allowed; the explorer answers GET (and HEAD) only`);
    const segments = decodePathSegments(path.slice(version[0].length));
    checkQueryText(target);
    const key = segments.length === 2 ? `${segments[0]}/` : (segments[0] ?? "");
    const endpoint = segments.length <= 2 ? ENDPOINTS[key] : undefined;
    if (endpoint === undefined || endpoint.withId !== (segments.length === 2) || !Object.hasOwn(ENDPOINTS, key)) {
      throw notFound(`no such path ${path}; see /v2 for the network and the README for the endpoints (transactions, addresses, assets, outputs, search, aggregates, txfeeAggregates, addressChains, ctxdata, cblocks, ctransactions)`);
    }
    const request = { segments, query, legacy: version[1] !== "v2", now: now() };
    const params = new QueryParameters(query, `/${version[1]}/${segments[0] ?? ""}`.replace(/\/$/, ""), endpoint.accepts);
    return endpoint.answer({ reader: options.reader, context: options.context, request }, params, segments[1]);
  }

  return {
    handle: async (req, res, path, query) => {
      let status = 200;
      let body: unknown;
      try {
        body = await answer(req.method ?? "GET", path, query, req.url);
      } catch (error) {
        const refusal = error instanceof ExplorerApiError ? error : error instanceof ReaderInputError || error instanceof MalformedUrlError ? new ExplorerApiError(400, error.message) : undefined;
        // Anything else is a fault here or in the database: 500 with its message.
        const shown = refusal ?? new ExplorerApiError(500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
        status = shown.status;
        body = shown.toJSON();
      }
      // A list of records the database wrote as JSON is answered as that text, unparsed, part by part.
      const parts = body instanceof JsonText ? body.parts : [JSON.stringify(body)];
      let length = 0;
      for (const part of parts) length += Buffer.byteLength(part);
      const headers: http.OutgoingHttpHeaders = { "Content-Type": "application/json; charset=utf-8", "Content-Length": length, "Access-Control-Allow-Origin": "*" };
      if (status === 405) headers.Allow = "GET, HEAD";
      res.writeHead(status, headers);
      // HEAD: the headers GET would send, without the body.
      if (req.method !== "HEAD") for (const part of parts) res.write(part);
      res.end();
    },
  };
}

export { mountExplorerApi } from "./mount";
