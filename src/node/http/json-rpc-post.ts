/**
 * A JSON-RPC request over HTTP POST: its content type is checked, its body read within the
 * limit (inviting it with "100 Continue" only once the checks passed), handed to the framing of
 * `../../rpc` and the answer sent back (204 for notifications only).
 */
import type * as http from "node:http";

import { RpcErrorCode } from "../../rpc/errors";
import { errorResponse, handleJsonRpcBodyInParts } from "../../rpc/framing";
import type { Dispatch } from "../../rpc/types";
import { closeAfterwardsIfClosing, refuse, sendJsonParts } from "./answers";
import { bodyTooLarge, declaresTooLarge, readBody } from "./body";
import type { ServerContext } from "./settings";

/** Content types accepted for requests (the second and third are legacy JSON-RPC types). */
const ACCEPTED_CONTENT_TYPES = ["application/json", "application/json-rpc", "application/jsonrequest"];

/** Serves one POST to a JSON-RPC path; `expectsContinue`: the client waits for "100 Continue". */
export async function serveJsonRpcPost(
  context: ServerContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  dispatch: Dispatch,
  expectsContinue: boolean,
): Promise<void> {
  const contentType = req.headers["content-type"];
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (!ACCEPTED_CONTENT_TYPES.includes(mediaType)) {
    refuse(context, req, res, 415, unsupportedContentType(contentType));
    return;
  }
  if (declaresTooLarge(req, context.maxBodyBytes)) {
    refuse(context, req, res, 413, bodyTooLarge(context.maxBodyBytes));
    return;
  }

  if (expectsContinue) res.writeContinue();
  const body = await readBody(req, context.maxBodyBytes);
  if (body === "too-large") {
    refuse(context, req, res, 413, bodyTooLarge(context.maxBodyBytes));
    return;
  }
  if (body === "aborted") return;

  const responseParts = await handleJsonRpcBodyInParts(body, dispatch, context.limits);
  if (res.destroyed) return;
  closeAfterwardsIfClosing(context, res);
  if (responseParts === undefined) {
    res.writeHead(204);
    res.end();
    return;
  }
  sendJsonParts(res, responseParts);
}

function unsupportedContentType(contentType: string | undefined): unknown {
  return errorResponse(
    null,
    RpcErrorCode.InvalidRequest,
    `unsupported content type ${contentType === undefined ? "(none)" : JSON.stringify(contentType)}: ` +
      `send the request with "Content-Type: application/json"`,
  );
}
