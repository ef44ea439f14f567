/**
 * The HTTP adapter of the local node: serves JSON-RPC 2.0 over HTTP POST at fixed paths
 * (`/ext/bc/C/rpc`, `/ext/bc/C/cvm`, ...), each path backed by its own dispatch function.
 *
 * It knows nothing of the engine beyond `Dispatch` (and `providerDispatch`, which adapts an
 * EIP-1193 provider). Framing lives in `../rpc`; this file only does HTTP: routing, method
 * and content-type checks, body size limit, CORS, keep-alive and a clean shutdown, plus two
 * hooks: paths answered to GET (`getRoutes`, e.g. `/ext/health`) and a check every request
 * passes before routing (`authorize`, the node's `--api-auth-required`). Connection upgrades
 * (WebSocket) are checked the same way, then handed to an `upgrade` handler that owns the
 * upgraded connections (`ws-server.ts`).
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";

import { RpcErrorCode } from "../rpc/errors";
import type { Eip1193Provider, RequestArguments } from "../rpc/types";
import { type JsonRpcLimits, errorResponse, handleJsonRpcBodyInParts } from "../rpc/framing";
import type { Dispatch } from "../rpc/types";
import { withClientAddress } from "./client-address";
import { normalizePath, requestPath, urlHost } from "./http-paths";


/** Default port of a local node of the reference network. */
export const DEFAULT_PORT = 9650;
/** Default interface: loopback only, so test keys are not exposed to the network. */
export const DEFAULT_HOST = "127.0.0.1";
/** Default request body limit: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Content types accepted for requests (the second and third are legacy JSON-RPC types). */
const ACCEPTED_CONTENT_TYPES = ["application/json", "application/json-rpc", "application/jsonrequest"];
/** How long `close()` lets in-flight requests finish before cutting their connections. */
const CLOSE_GRACE_MS = 3000;
/** How long a rejected upload may keep streaming into the void before its socket is destroyed. */
const REJECTED_UPLOAD_GRACE_MS = 1000;

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

/**
 * Turns an EIP-1193 provider into a dispatch function: `params` is passed as given, and a
 * request without params is passed `[]`.
 */
export function providerDispatch(provider: Eip1193Provider): Dispatch {
  return (method, params) =>
    provider.request({
      method,
      params:
        params !== undefined && params !== null && typeof params === "object"
          ? (params as RequestArguments["params"])
          : [],
    });
}

/**
 * Starts serving `routes` over HTTP. Rejects with the listen error (e.g. `code: "EADDRINUSE"`)
 * when the port cannot be bound.
 */
export async function startHttpNode(options: HttpNodeOptions): Promise<HttpNode> {
  const host = options.host ?? DEFAULT_HOST;
  const requestedPort = options.port ?? DEFAULT_PORT;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const limits: JsonRpcLimits = { maxBatchSize: options.maxBatchSize, maxJsonDepth: options.maxJsonDepth };
  const log = options.log;

  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${String(requestedPort)}`);
  }
  if (host === "") throw new RangeError("host must not be empty");
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new RangeError(`maxBodyBytes must be a positive integer, got ${String(maxBodyBytes)}`);
  }
  if (options.maxBatchSize !== undefined && (!Number.isInteger(options.maxBatchSize) || options.maxBatchSize <= 0)) {
    throw new RangeError(`maxBatchSize must be a positive integer, got ${String(options.maxBatchSize)}`);
  }
  if (options.maxJsonDepth !== undefined && (!Number.isInteger(options.maxJsonDepth) || options.maxJsonDepth <= 0)) {
    throw new RangeError(`maxJsonDepth must be a positive integer, got ${String(options.maxJsonDepth)}`);
  }

  const routes = new Map<string, Dispatch>();
  for (const [path, dispatch] of Object.entries(options.routes)) {
    if (!path.startsWith("/")) throw new RangeError(`route paths must start with "/", got ${JSON.stringify(path)}`);
    routes.set(normalizePath(path), log === undefined ? dispatch : loggingDispatch(dispatch, log));
  }
  const getRoutes = new Map<string, GetHandler>();
  for (const [path, handler] of Object.entries(options.getRoutes ?? {})) {
    if (!path.startsWith("/")) throw new RangeError(`route paths must start with "/", got ${JSON.stringify(path)}`);
    getRoutes.set(normalizePath(path), handler);
  }
  const upgrade = options.upgrade;
  const upgradePaths = new Set((upgrade?.paths ?? []).map(normalizePath));
  const servedPaths = [...new Set([...routes.keys(), ...getRoutes.keys(), ...upgradePaths])];
  const authorize = options.authorize;
  const prefixHandlers = Object.entries(options.prefixHandlers ?? {}).map(([prefix, handler]) => {
    if (!prefix.startsWith("/")) throw new RangeError(`prefixes must start with "/", got ${JSON.stringify(prefix)}`);
    return { prefix: normalizePath(prefix), handler };
  });
  const prefixHandlerOf = (path: string) => prefixHandlers.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))?.handler;

  let closing = false;

  const server = http.createServer((req, res) => handle(req, res, false));
  // `Expect: 100-continue` (curl sends it for bodies over 1 MiB): only invite the body once the
  // request passed the checks, so an oversize upload is refused before it is sent.
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => handle(req, res, true));

  function handle(req: http.IncomingMessage, res: http.ServerResponse, expectsContinue: boolean): void {
    // The APIs behind `Dispatch` read the client's address from here (the auth API's throttle).
    withClientAddress(req.socket.remoteAddress, () => serve(req, res, expectsContinue)).catch((e: unknown) => {
      // Only a bug in this file can land here; answer if possible and keep serving.
      log?.(`internal error while serving ${req.method} ${req.url}: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) {
        sendJson(res, 500, errorResponse(null, RpcErrorCode.InternalError, "internal error"));
      } else {
        res.destroy();
      }
    });
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse, expectsContinue: boolean): Promise<void> {
    res.setHeader("Access-Control-Allow-Origin", "*");
    const path = normalizePath(requestPath(req.url));
    const mounted = prefixHandlerOf(path);

    if (req.method === "OPTIONS" && mounted !== undefined) {
      // A mounted service answers its own preflights (never checked by `authorize`, as above).
      mounted(req, res);
      return;
    }
    if (req.method === "OPTIONS") {
      // CORS preflight: answered for every path so the browser reports the real error (if any)
      // on the actual request.
      res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      const requested = req.headers["access-control-request-headers"];
      res.setHeader("Access-Control-Allow-Headers", requested ?? "Content-Type, Authorization");
      res.setHeader("Vary", "Access-Control-Request-Headers");
      res.setHeader("Access-Control-Max-Age", "86400");
      if (req.headers["access-control-request-private-network"] === "true") {
        res.setHeader("Access-Control-Allow-Private-Network", "true");
      }
      reject(req, res, 204, undefined);
      return;
    }

    if (authorize !== undefined) {
      const refusal = await authorize(path, req.headers);
      if (refusal !== undefined) {
        // The reference node's answer to a refused request: 401 with a JSON-RPC error, id 1.
        reject(req, res, 401, { jsonrpc: "2.0", error: { code: RpcErrorCode.InvalidRequest, message: refusal }, id: 1 });
        return;
      }
    }

    if (mounted !== undefined) {
      if (closing) res.setHeader("Connection", "close");
      mounted(req, res);
      return;
    }

    const getter = getRoutes.get(path);
    if (getter !== undefined && (req.method === "GET" || req.method === "HEAD")) {
      const { status, body } = await getter();
      if (res.destroyed) return;
      if (closing) res.setHeader("Connection", "close");
      sendJson(res, status, body);
      return;
    }

    const dispatch = routes.get(path);
    if (dispatch === undefined && getter === undefined) {
      reject(
        req,
        res,
        404,
        errorResponse(
          null,
          RpcErrorCode.InvalidRequest,
          `no JSON-RPC endpoint at ${path}; served paths: ${servedPaths.length === 0 ? "(none)" : servedPaths.join(", ")}`,
          { path, servedPaths },
        ),
      );
      return;
    }

    if (req.method !== "POST" || dispatch === undefined) {
      const allowed = [...(getter === undefined ? [] : ["GET"]), ...(dispatch === undefined ? [] : ["POST"]), "OPTIONS"];
      res.setHeader("Allow", allowed.join(", "));
      reject(
        req,
        res,
        405,
        errorResponse(
          null,
          RpcErrorCode.InvalidRequest,
          `method ${req.method ?? "(none)"} not allowed at ${path}: ` +
            (dispatch === undefined ? "this path answers GET only" : "JSON-RPC requests must use POST"),
        ),
      );
      return;
    }

    const contentType = req.headers["content-type"];
    const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
    if (!ACCEPTED_CONTENT_TYPES.includes(mediaType)) {
      reject(
        req,
        res,
        415,
        errorResponse(
          null,
          RpcErrorCode.InvalidRequest,
          `unsupported content type ${contentType === undefined ? "(none)" : JSON.stringify(contentType)}: ` +
            `send the request with "Content-Type: application/json"`,
        ),
      );
      return;
    }

    const tooLarge = () =>
      errorResponse(
        null,
        RpcErrorCode.LimitExceeded,
        `request body too large: the limit is ${maxBodyBytes} bytes`,
        { limit: maxBodyBytes },
      );

    const declaredLength = req.headers["content-length"];
    if (declaredLength !== undefined && Number(declaredLength) > maxBodyBytes) {
      reject(req, res, 413, tooLarge());
      return;
    }

    if (expectsContinue) res.writeContinue();
    const body = await readBody(req, maxBodyBytes);
    if (body === "too-large") {
      reject(req, res, 413, tooLarge());
      return;
    }
    if (body === "aborted") return;

    const responseParts = await handleJsonRpcBodyInParts(body, dispatch, limits);
    if (res.destroyed) return;
    if (closing) res.setHeader("Connection", "close");
    if (responseParts === undefined) {
      res.writeHead(204);
      res.end();
      return;
    }
    let length = 0;
    for (const part of responseParts) length += Buffer.byteLength(part);
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": length });
    // Part by part: a large answer is never copied into one megabyte-sized string or buffer.
    for (const part of responseParts) res.write(part);
    res.end();
  }

  /**
   * Answers without (fully) reading the request body. Node discards an unread body so the
   * connection can be reused; when the body is large or of unknown length we close the
   * connection instead, so a client cannot make the server swallow unbounded data.
   */
  function reject(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    status: number,
    payload: unknown,
  ): void {
    if (status !== 204) {
      log?.(`${status} ${req.method ?? ""} ${req.url ?? ""}`);
    }
    const declared = req.headers["content-length"];
    const bodyIsBounded =
      req.complete ||
      // A client waiting for "100 Continue" will not send the body it announced.
      (req.headers.expect === undefined &&
        ((declared !== undefined && Number(declared) <= maxBodyBytes) ||
          (declared === undefined && req.headers["transfer-encoding"] === undefined)));
    if (closing || !bodyIsBounded) {
      res.setHeader("Connection", "close");
      // Let the client finish reading the answer, then cut the upload if it is still going.
      res.once("finish", () => {
        const timer = setTimeout(() => req.socket.destroy(), REJECTED_UPLOAD_GRACE_MS);
        timer.unref();
        req.socket.once("close", () => clearTimeout(timer));
      });
    }
    if (payload === undefined) {
      res.writeHead(status);
      res.end();
      return;
    }
    sendJson(res, status, payload);
  }

  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    serveUpgrade(req, socket, head).catch((e: unknown) => {
      log?.(`internal error while upgrading ${req.url}: ${e instanceof Error ? e.message : String(e)}`);
      socket.destroy();
    });
  });

  async function serveUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on("error", () => socket.destroy());
    const path = normalizePath(requestPath(req.url));
    if (closing) return refuseUpgrade(req, socket, 503, errorResponse(null, RpcErrorCode.ServerError, "the node is shutting down"));
    if (authorize !== undefined) {
      const refusal = await authorize(path, req.headers);
      if (refusal !== undefined) {
        return refuseUpgrade(req, socket, 401, { jsonrpc: "2.0", error: { code: RpcErrorCode.InvalidRequest, message: refusal }, id: 1 });
      }
    }
    if (upgrade === undefined || !upgradePaths.has(path)) {
      return refuseUpgrade(
        req,
        socket,
        404,
        errorResponse(null, RpcErrorCode.InvalidRequest, `no WebSocket endpoint at ${path}; served paths: ${[...upgradePaths].join(", ") || "(none)"}`),
      );
    }
    upgrade.upgrade(req, socket, head);
  }

  /** Answers an upgrade request with an HTTP error and closes its connection. */
  function refuseUpgrade(req: http.IncomingMessage, socket: Duplex, status: number, payload: unknown): void {
    log?.(`${status} upgrade ${req.url ?? ""}`);
    const text = JSON.stringify(payload);
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }

  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const text = JSON.stringify(errorResponse(null, RpcErrorCode.InvalidRequest, "malformed HTTP request"));
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `Connection: close\r\n\r\n${text}`,
    );
  });

  await new Promise<void>((resolve, rejectListen) => {
    const onError = (err: Error) => {
      server.off("listening", onListening);
      rejectListen(err);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(requestedPort, host);
  });
  server.on("error", (err) => log?.(`server error: ${err.message}`));

  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;

  return {
    url: `http://${urlHost(host)}:${port}`,
    host,
    port,
    close(): Promise<void> {
      if (closed !== undefined) return closed;
      closing = true;
      // Upgraded connections are not the HTTP server's to end: their handler closes them.
      const upgradesClosed = upgrade?.close() ?? Promise.resolve();
      const httpClosed = new Promise<void>((resolve, rejectClose) => {
        const timer = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        timer.unref();
        server.close((err) => {
          clearTimeout(timer);
          if (err) rejectClose(err);
          else resolve();
        });
        // Keep-alive connections waiting for their next request would hold the server open.
        server.closeIdleConnections();
      });
      closed = Promise.all([upgradesClosed, httpClosed]).then(() => undefined);
      return closed;
    },
  };
}

/** Reads the whole body as UTF-8, stopping (and keeping nothing) once it exceeds `limit`. */
function readBody(req: http.IncomingMessage, limit: number): Promise<string | "too-large" | "aborted"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: string | "too-large" | "aborted") => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    req.on("data", (chunk: Buffer) => {
      if (settled) return; // discarding the rest of a rejected upload
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle("too-large");
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => settle(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => settle("aborted"));
    req.on("close", () => settle("aborted"));
  });
}

function sendJson(res: http.ServerResponse, status: number, payload: unknown): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

function loggingDispatch(dispatch: Dispatch, log: (line: string) => void): Dispatch {
  return async (method, params) => {
    try {
      const result = await dispatch(method, params);
      log(method);
      return result;
    } catch (e) {
      const err = e as { code?: unknown; message?: unknown };
      log(`${method} -> error ${String(err?.code ?? "")}: ${String(err?.message ?? e)}`);
      throw e;
    }
  };
}
