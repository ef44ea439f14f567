/**
 * The authorization check every request and upgrade passes before its path is looked up (the
 * node's `--api-auth-required`); a refusal is answered as the reference node answers it.
 */
import type * as http from "node:http";

import { RpcErrorCode } from "../../rpc/errors";
import type { Authorize } from "./types";

/** The reference node's answer to a refused request (sent with HTTP 401): a JSON-RPC error, id 1. */
export function refusalAnswer(reason: string): unknown {
  return { jsonrpc: "2.0", error: { code: RpcErrorCode.InvalidRequest, message: reason }, id: 1 };
}

/** Runs `authorize` on a request; resolves to the reason it is refused, undefined when granted. */
export function refusalOf(authorize: Authorize, path: string, req: http.IncomingMessage): Promise<string | undefined> {
  return authorize(path, req.headers);
}
