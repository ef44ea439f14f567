/**
 * The request body limit: a body announced larger than the limit is refused before it is read,
 * one that turns out larger is dropped as soon as it passes the limit (nothing of it is kept),
 * and an unread body is only left for Node to discard when it is known to be small.
 */
import type * as http from "node:http";

import { RpcErrorCode } from "../../rpc/errors";
import { errorResponse } from "../../rpc/framing";

/** The body as UTF-8 text, or why there is none. */
export type BodyReading = string | "too-large" | "aborted";

/** The JSON-RPC error answered (with HTTP 413) to a body over `maxBodyBytes`. */
export function bodyTooLarge(maxBodyBytes: number): unknown {
  return errorResponse(
    null,
    RpcErrorCode.LimitExceeded,
    `request body too large: the limit is ${maxBodyBytes} bytes`,
    { limit: maxBodyBytes },
  );
}

/** Whether the request's `Content-Length` already says its body is over the limit. */
export function declaresTooLarge(req: http.IncomingMessage, maxBodyBytes: number): boolean {
  const declared = req.headers["content-length"];
  return declared !== undefined && Number(declared) > maxBodyBytes;
}

/**
 * Whether the rest of the body is known to be small enough for Node to read and discard, so
 * the connection can be kept: a body already read, or one announced within the limit, or none.
 */
export function bodyIsBounded(req: http.IncomingMessage, maxBodyBytes: number): boolean {
  const declared = req.headers["content-length"];
  return (
    req.complete ||
    // A client waiting for "100 Continue" will not send the body it announced.
    (req.headers.expect === undefined &&
      ((declared !== undefined && Number(declared) <= maxBodyBytes) ||
        (declared === undefined && req.headers["transfer-encoding"] === undefined)))
  );
}

/** Reads the whole body as UTF-8, stopping (and keeping nothing) once it exceeds `limit`. */
export function readBody(req: http.IncomingMessage, limit: number): Promise<BodyReading> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: BodyReading) => {
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
