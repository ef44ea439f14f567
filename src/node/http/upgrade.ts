/**
 * Connection upgrades (WebSocket): refused while the server closes, then checked like any
 * request, then handed to the upgrade handler when it serves the path (404 otherwise).
 */
import type * as http from "node:http";
import type { Duplex } from "node:stream";

import { RpcErrorCode } from "../../rpc/errors";
import { errorResponse } from "../../rpc/framing";
import { normalizePath, requestPath } from "../http-paths";
import { refuseUpgrade } from "./answers";
import { refusalAnswer, refusalOf } from "./auth-check";
import { errorText } from "./logging";
import type { ServerContext } from "./settings";

/** Node's `upgrade` event: serves the upgrade, and destroys the socket should that throw. */
export function handleUpgrade(context: ServerContext, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  serveUpgrade(context, req, socket, head).catch((e: unknown) => {
    context.log?.(`internal error while upgrading ${req.url}: ${errorText(e)}`);
    socket.destroy();
  });
}

async function serveUpgrade(context: ServerContext, req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  socket.on("error", () => socket.destroy());
  const path = normalizePath(requestPath(req.url));
  if (context.closing) {
    return refuseUpgrade(context, req, socket, 503, errorResponse(null, RpcErrorCode.ServerError, "the node is shutting down"));
  }
  if (context.authorize !== undefined) {
    const refusal = await refusalOf(context.authorize, path, req);
    if (refusal !== undefined) return refuseUpgrade(context, req, socket, 401, refusalAnswer(refusal));
  }
  const upgrade = context.upgrade;
  const upgradePaths = context.table.upgradePaths;
  if (upgrade === undefined || !upgradePaths.has(path)) {
    const message = `no WebSocket endpoint at ${path}; served paths: ${[...upgradePaths].join(", ") || "(none)"}`;
    return refuseUpgrade(context, req, socket, 404, errorResponse(null, RpcErrorCode.InvalidRequest, message));
  }
  upgrade.upgrade(req, socket, head);
}
