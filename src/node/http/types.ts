/**
 * The shapes the HTTP server is configured with: its options, the handlers it calls (GET
 * routes, mounted services, the upgrade handler, the authorization check) and the running node
 * it hands back. Re-exported from `../http-server`, where callers import them.
 */
import type * as http from "node:http";
import type { Duplex } from "node:stream";

import type { Dispatch } from "../../rpc/types";

export interface HttpNodeOptions {
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port to bind. Default 9650; 0 picks a free port. */
  port?: number;
  /** Exact request paths (e.g. `/ext/bc/C/rpc`) and the dispatch function serving each. */
  routes: Record<string, Dispatch>;
  /** Largest request body accepted, in bytes. Default 10 MiB. */
  maxBodyBytes?: number;
  /** Largest JSON-RPC batch accepted. Default 1000 (the public API node uses 40). */
  maxBatchSize?: number;
  /** Deepest nesting of arrays and objects accepted in a body, checked before parsing it. Default 64. */
  maxJsonDepth?: number;
  /** Receives one line per JSON-RPC call and per rejected HTTP request. */
  log?: (line: string) => void;
  /**
   * Paths also answered to GET (e.g. `/ext/health`): the handler gives the status and the JSON
   * body. A path may be both here and in `routes` (POST for JSON-RPC, GET for this).
   */
  getRoutes?: Record<string, GetHandler>;
  /**
   * Decides whether a request may go on, before its path is even looked up (so every route,
   * present and future, and unknown paths too, are covered; CORS preflights are not checked).
   * Resolves to `undefined` to grant it, or to the reason for refusing it: the request is then
   * answered with HTTP 401 and a JSON-RPC error (-32600) carrying that reason.
   */
  authorize?: Authorize;
  /**
   * Serves connection upgrades (WebSocket) at its paths, once `authorize` granted them; an
   * upgrade request for another path is answered 404. Closed with the server.
   */
  upgrade?: UpgradeHandler;
  /**
   * Other HTTP services mounted beside the node's APIs (e.g. the vault at `/v1/multisig`): a
   * request whose path is the prefix or lies below it goes to that handler, once `authorize`
   * granted it, whatever its method; the handler answers it completely (CORS too).
   */
  prefixHandlers?: Record<string, PrefixHandler>;
}

/** Answers every request under its prefix (see {@link HttpNodeOptions.prefixHandlers}). */
export type PrefixHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Takes over the connections upgraded at `paths` (exact, like `routes`), and closes them all on `close()`. */
export interface UpgradeHandler {
  readonly paths: readonly string[];
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

/** Answers a GET request: the HTTP status and the body, sent as JSON. */
export type GetHandler = () => Promise<{ status: number; body: unknown }>;

/** See {@link HttpNodeOptions.authorize}: the request's path (no query) and its headers. */
export type Authorize = (path: string, headers: http.IncomingHttpHeaders) => Promise<string | undefined>;

export interface HttpNode {
  /** Base URL to connect to, without a trailing slash, e.g. `http://127.0.0.1:9650`. */
  url: string;
  /** The interface bound, as given in the options. */
  host: string;
  /** The port bound (the actual one when 0 was asked for). */
  port: number;
  /** Stops accepting connections, ends idle keep-alive connections, resolves once closed. */
  close(): Promise<void>;
}
