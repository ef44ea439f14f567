/**
 * How the HTTP server answers: a JSON body, a refusal that does not read the request's body
 * (and closes the connection when that body may be large), and the raw answers written to a
 * socket that never became an HTTP exchange (a malformed request, a refused upgrade).
 */
import * as http from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";

import { RpcErrorCode } from "../../rpc/errors";
import { errorResponse } from "../../rpc/framing";
import { bodyIsBounded } from "./body";
import type { ServerContext } from "./settings";

/** How long a rejected upload may keep streaming into the void before its socket is destroyed. */
const REJECTED_UPLOAD_GRACE_MS = 1000;

export function sendJson(res: http.ServerResponse, status: number, payload: unknown): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** Sends a JSON-RPC answer held in parts, part by part: it is never copied into one large string. */
export function sendJsonParts(res: http.ServerResponse, parts: readonly string[]): void {
  let length = 0;
  for (const part of parts) length += Buffer.byteLength(part);
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": length });
  for (const part of parts) res.write(part);
  res.end();
}

/** Asks the client to close its connection after this answer once the server is closing. */
export function closeAfterwardsIfClosing(context: ServerContext, res: http.ServerResponse): void {
  if (context.closing) res.setHeader("Connection", "close");
}

/**
 * Answers without (fully) reading the request body (`payload` undefined: no body). Node discards
 * an unread body so the connection can be reused; when the body is large or of unknown length
 * the connection is closed instead, so a client cannot make the server swallow unbounded data.
 */
export function refuse(
  context: ServerContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  payload: unknown,
): void {
  if (status !== 204) {
    context.log?.(`${status} ${req.method ?? ""} ${req.url ?? ""}`);
  }
  if (context.closing || !bodyIsBounded(req, context.maxBodyBytes)) {
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

/** Answers an upgrade request with an HTTP error and closes its connection. */
export function refuseUpgrade(
  context: ServerContext,
  req: http.IncomingMessage,
  socket: Duplex,
  status: number,
  payload: unknown,
): void {
  context.log?.(`${status} upgrade ${req.url ?? ""}`);
  const text = JSON.stringify(payload);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** Node's `clientError`: a request it could not parse is answered 400 (a reset one is just dropped). */
export function answerMalformedRequest(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const text = JSON.stringify(errorResponse(null, RpcErrorCode.InvalidRequest, "malformed HTTP request"));
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
      `Connection: close\r\n\r\n${text}`,
  );
}
