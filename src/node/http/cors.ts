/** CORS: every answer allows any origin, and preflights are answered for every path. */
import type * as http from "node:http";

import { refuse } from "./answers";
import type { ServerContext } from "./settings";

/** Lets a page of any origin read the answer. */
export function allowAnyOrigin(res: http.ServerResponse): void {
  res.setHeader("Access-Control-Allow-Origin", "*");
}

/**
 * Answers a CORS preflight (204, no body): for every path, so the browser reports the real
 * error (if any) on the actual request. Never passes the authorization check.
 */
export function answerPreflight(context: ServerContext, req: http.IncomingMessage, res: http.ServerResponse): void {
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  const requested = req.headers["access-control-request-headers"];
  res.setHeader("Access-Control-Allow-Headers", requested ?? "Content-Type, Authorization");
  res.setHeader("Vary", "Access-Control-Request-Headers");
  res.setHeader("Access-Control-Max-Age", "86400");
  if (req.headers["access-control-request-private-network"] === "true") {
    res.setHeader("Access-Control-Allow-Private-Network", "true");
  }
  refuse(context, req, res, 204, undefined);
}
