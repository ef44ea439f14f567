/**
 * The WebSocket adapter of the local node: JSON-RPC 2.0 over WebSocket at fixed paths (the
 * contract chain's `/ext/bc/C/ws`), each path backed by a session opener, so every connection
 * has its own session (its subscriptions) and receives their notifications as messages without
 * an `id`. It plugs into the HTTP server as its `upgrade` handler; framing lives in `../rpc`.
 *
 * Limits: a message larger than `maxFrameBytes` closes the connection with 1009 (message too
 * big); connections beyond `maxConnections` are refused with HTTP 503; a connection whose
 * unsent data exceeds `maxBufferedBytes` (a client that does not read) is closed with
 * {@link SLOW_CONSUMER_CLOSE_CODE} and cut if it still does not read; reading pauses while
 * {@link MAX_REQUESTS_IN_FLIGHT} requests of a connection are in progress.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";

import { type JsonRpcLimits, handleJsonRpcBody } from "../rpc/framing";
import type { OpenSession } from "../rpc/types";
import type { UpgradeHandler } from "./http-server";

/** Default largest message accepted: 10 MiB, as the HTTP body limit. */
export const DEFAULT_MAX_FRAME_BYTES = 10 * 1024 * 1024;
/** Default largest number of open WebSocket connections. */
export const DEFAULT_MAX_CONNECTIONS = 256;
/** Default largest amount of data waiting to be sent to one connection: 16 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/**
 * The close code of a connection that stopped reading while its unsent data grew past
 * `maxBufferedBytes`: 1008, policy violation (RFC 6455 section 7.4.1).
 */
export const SLOW_CONSUMER_CLOSE_CODE = 1008;
/** The close code sent to every connection when the node stops: 1001, going away. */
export const SHUTDOWN_CLOSE_CODE = 1001;
/**
 * Requests one connection may have in progress; beyond it, the connection's next messages are
 * not read until answers went out, so a client cannot queue unbounded work on the engine.
 */
export const MAX_REQUESTS_IN_FLIGHT = 64;
/** How long a closed connection may take to acknowledge the close before it is cut. */
const CLOSE_GRACE_MS = 3000;

export interface WebSocketRpcOptions {
  /** Exact paths (e.g. `/ext/bc/C/ws`) and the session opener serving each. */
  routes: Record<string, OpenSession>;
  /** Largest message accepted, in bytes. Default 10 MiB. */
  maxFrameBytes?: number;
  /** Largest number of open connections. Default 256. */
  maxConnections?: number;
  /** Largest amount of unsent data per connection before it is closed. Default 16 MiB. */
  maxBufferedBytes?: number;
  /** Largest JSON-RPC batch accepted. Default as the HTTP server's. */
  maxBatchSize?: number;
  /** Deepest nesting of arrays and objects accepted in a message, checked before parsing it. Default as the HTTP server's. */
  maxJsonDepth?: number;
  /** Receives a line per connection refused or closed by a limit. */
  log?: (line: string) => void;
}

/** What every connection of one server reads: its limits and log. */
interface ConnectionSettings {
  readonly maxBufferedBytes: number;
  readonly limits: JsonRpcLimits;
  readonly log: ((line: string) => void) | undefined;
}

/** Serves `routes` over WebSocket, as the HTTP server's upgrade handler. */
export function createWebSocketRpc(options: WebSocketRpcOptions): UpgradeHandler {
  const maxFrameBytes = positive(options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES, "maxFrameBytes");
  const maxConnections = positive(options.maxConnections ?? DEFAULT_MAX_CONNECTIONS, "maxConnections");
  const maxBufferedBytes = positive(options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES, "maxBufferedBytes");
  const limits: JsonRpcLimits = { maxBatchSize: options.maxBatchSize, maxJsonDepth: options.maxJsonDepth };
  const log = options.log;
  const settings: ConnectionSettings = { maxBufferedBytes, limits, log };
  const routes = new Map(Object.entries(options.routes).map(([path, open]) => [path.replace(/\/+$/, "") || "/", open]));
  const server = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes, perMessageDeflate: false });
  let pendingUpgrades = 0;

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? "/").split("?")[0]!.replace(/\/+$/, "") || "/";
    const open = routes.get(path);
    if (open === undefined) {
      socket.destroy();
      return;
    }
    if (server.clients.size + pendingUpgrades >= maxConnections) {
      log?.(`503 upgrade ${path}: ${maxConnections} WebSocket connections already open`);
      const text = `too many WebSocket connections: the limit is ${maxConnections}`;
      socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
      return;
    }
    // Counted from now, so a burst of handshakes cannot pass the limit together.
    pendingUpgrades++;
    let counted = true;
    const uncount = () => {
      if (counted) pendingUpgrades--;
      counted = false;
    };
    // A failed handshake never calls back: its socket closing ends the count.
    socket.once("close", uncount);
    server.handleUpgrade(req, socket, head, (client) => {
      uncount();
      serveConnection(client, open, settings);
    });
  }

  return {
    paths: [...routes.keys()],
    upgrade,
    close: () => closeAllConnections(server),
  };
}

/**
 * Serves one connection: its own session, whose notifications it sends; at most
 * {@link MAX_REQUESTS_IN_FLIGHT} requests in progress; closed when it stops reading.
 */
function serveConnection(client: WebSocket, open: OpenSession, settings: ConnectionSettings): void {
  const { maxBufferedBytes, limits, log } = settings;
  let closing = false;
  const send = (text: string) => {
    if (closing || client.readyState !== WebSocket.OPEN) return;
    client.send(text);
    if (client.bufferedAmount > maxBufferedBytes) {
      log?.(`closing a WebSocket connection that does not read: ${client.bufferedAmount} bytes unsent, the limit is ${maxBufferedBytes}`);
      end(SLOW_CONSUMER_CLOSE_CODE, "slow consumer: too much unsent data");
    }
  };
  const session = open((notification) => send(JSON.stringify(notification)));
  const end = (code: number, reason: string) => {
    if (closing) return;
    closing = true;
    session.close();
    client.close(code, reason);
    const timer = setTimeout(() => client.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    client.once("close", () => clearTimeout(timer));
  };
  let inFlight = 0;
  client.on("message", (data) => {
    if (closing) return;
    if (++inFlight === MAX_REQUESTS_IN_FLIGHT) client.pause();
    void handleJsonRpcBody(text(data), session.dispatch, limits).then((response) => {
      if (inFlight-- === MAX_REQUESTS_IN_FLIGHT && !closing) client.resume();
      if (response !== undefined) send(response);
    });
  });
  client.on("close", () => {
    closing = true;
    session.close();
  });
  // A protocol error (e.g. a message over maxFrameBytes): ws closes with its code (1009).
  client.on("error", () => {
    closing = true;
    session.close();
  });
}

/** Closes every connection with {@link SHUTDOWN_CLOSE_CODE} (cut after a grace), then the server. */
function closeAllConnections(server: WebSocketServer): Promise<void> {
  const clients = [...server.clients];
  for (const client of clients) {
    client.close(SHUTDOWN_CLOSE_CODE, "the node is shutting down");
    const timer = setTimeout(() => client.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    client.once("close", () => clearTimeout(timer));
  }
  return new Promise<void>((resolve) => {
    let open = clients.filter((c) => c.readyState !== WebSocket.CLOSED).length;
    if (open === 0) return server.close(() => resolve());
    for (const client of clients) {
      if (client.readyState === WebSocket.CLOSED) continue;
      client.once("close", () => {
        if (--open === 0) server.close(() => resolve());
      });
    }
  });
}

/** A message's text: text and binary frames alike are read as UTF-8 JSON. */
function text(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.from(data).toString("utf8");
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}
