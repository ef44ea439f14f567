/**
 * Starting and stopping the HTTP server: listening (rejecting with the bind error) and a clean
 * shutdown that lets requests in flight finish for a while, then cuts what is left.
 */
import type * as http from "node:http";

import type { ServerContext } from "./settings";

/** How long `close()` lets in-flight requests finish before cutting their connections. */
const CLOSE_GRACE_MS = 3000;

/** Binds `server`; rejects with the listen error (e.g. `code: "EADDRINUSE"`). */
export async function listen(server: http.Server, port: number, host: string): Promise<void> {
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
    server.listen(port, host);
  });
}

/**
 * Marks the server closing, closes the upgraded connections (their handler's job, not the HTTP
 * server's) and the server itself; resolves once both are closed.
 */
export function closeServer(context: ServerContext, server: http.Server): Promise<void> {
  context.closing = true;
  const upgradesClosed = context.upgrade?.close() ?? Promise.resolve();
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
  return Promise.all([upgradesClosed, httpClosed]).then(() => undefined);
}
