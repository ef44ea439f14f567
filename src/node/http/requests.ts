/**
 * One HTTP request, from arrival to answer: CORS preflights first, then the authorization
 * check, then the route: a mounted service, a GET handler, or a JSON-RPC path (POST); an unknown
 * path is answered 404 and a wrong method 405, both naming what is served.
 */
import type * as http from "node:http";

import { RpcErrorCode } from "../../rpc/errors";
import { errorResponse } from "../../rpc/framing";
import type { Dispatch } from "../../rpc/types";
import { withClientAddress } from "../client-address";
import { normalizePath, requestPath } from "../http-paths";
import { closeAfterwardsIfClosing, refuse, sendJson } from "./answers";
import { refusalAnswer, refusalOf } from "./auth-check";
import { allowAnyOrigin, answerPreflight } from "./cors";
import { serveJsonRpcPost } from "./json-rpc-post";
import { errorText } from "./logging";
import type { ServerContext } from "./settings";
import type { GetHandler } from "./types";

/**
 * Serves a request, with its client's address readable by the APIs behind `Dispatch` (the auth
 * API's throttle). `expectsContinue`: it came with `Expect: 100-continue`.
 */
export function handleRequest(
  context: ServerContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  expectsContinue: boolean,
): void {
  withClientAddress(req.socket.remoteAddress, () => serveRequest(context, req, res, expectsContinue)).catch((e: unknown) => {
    // Only a bug in the server can land here; answer if possible and keep serving.
    context.log?.(`internal error while serving ${req.method} ${req.url}: ${errorText(e)}`);
    if (!res.headersSent) {
      sendJson(res, 500, errorResponse(null, RpcErrorCode.InternalError, "internal error"));
    } else {
      res.destroy();
    }
  });
}

async function serveRequest(
  context: ServerContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  expectsContinue: boolean,
): Promise<void> {
  allowAnyOrigin(res);
  const path = normalizePath(requestPath(req.url));
  const mounted = context.table.prefixHandlerOf(path);

  if (req.method === "OPTIONS") {
    // A mounted service answers its own preflights (never checked by `authorize`, as below).
    if (mounted !== undefined) mounted(req, res);
    else answerPreflight(context, req, res);
    return;
  }

  if (context.authorize !== undefined) {
    const refusal = await refusalOf(context.authorize, path, req);
    if (refusal !== undefined) {
      refuse(context, req, res, 401, refusalAnswer(refusal));
      return;
    }
  }

  if (mounted !== undefined) {
    closeAfterwardsIfClosing(context, res);
    mounted(req, res);
    return;
  }

  const getter = context.table.getRoutes.get(path);
  if (getter !== undefined && (req.method === "GET" || req.method === "HEAD")) {
    const { status, body } = await getter();
    if (res.destroyed) return;
    closeAfterwardsIfClosing(context, res);
    sendJson(res, status, body);
    return;
  }

  const dispatch = context.table.routes.get(path);
  if (req.method !== "POST" || dispatch === undefined) {
    answerRouteMiss(context, req, res, path, getter, dispatch);
    return;
  }
  await serveJsonRpcPost(context, req, res, dispatch, expectsContinue);
}

/** Answers a request no route takes: 404 for a path not served, 405 for a method it does not answer. */
function answerRouteMiss(
  context: ServerContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  getter: GetHandler | undefined,
  dispatch: Dispatch | undefined,
): void {
  if (dispatch === undefined && getter === undefined) {
    const servedPaths = context.table.servedPaths;
    const message = `no JSON-RPC endpoint at ${path}; served paths: ${servedPaths.length === 0 ? "(none)" : servedPaths.join(", ")}`;
    refuse(context, req, res, 404, errorResponse(null, RpcErrorCode.InvalidRequest, message, { path, servedPaths }));
    return;
  }
  const allowed = [...(getter === undefined ? [] : ["GET"]), ...(dispatch === undefined ? [] : ["POST"]), "OPTIONS"];
  res.setHeader("Allow", allowed.join(", "));
  const message =
    `method ${req.method ?? "(none)"} not allowed at ${path}: ` +
    (dispatch === undefined ? "this path answers GET only" : "JSON-RPC requests must use POST");
  refuse(context, req, res, 405, errorResponse(null, RpcErrorCode.InvalidRequest, message));
}
