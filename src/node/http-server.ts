/**
 * The HTTP adapter of the local node: serves JSON-RPC 2.0 over HTTP POST at fixed paths
 * (`/ext/bc/C/rpc`, `/ext/bc/C/cvm`, ...), each path backed by its own dispatch function.
 *
 * It knows nothing of the engine beyond `Dispatch` (and `providerDispatch`, which adapts an
 * EIP-1193 provider). Framing lives in `../rpc`; this file only wires the HTTP concerns of
 * `./http/` together: the settings and their checks (`settings`), the route table (`routing`),
 * one request from CORS through the authorization check to its route (`requests`, `cors`,
 * `auth-check`), a JSON-RPC POST within the body limit (`json-rpc-post`, `body`), connection
 * upgrades handed to their handler (`upgrade`, e.g. `ws-server.ts`), the answers (`answers`),
 * the log (`logging`), listening and a clean shutdown (`lifecycle`).
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";

import type { Dispatch, Eip1193Provider, RequestArguments } from "../rpc/types";
import { answerMalformedRequest } from "./http/answers";
import { closeServer, listen } from "./http/lifecycle";
import { handleRequest } from "./http/requests";
import { resolveSettings } from "./http/settings";
import type { HttpNode, HttpNodeOptions } from "./http/types";
import { handleUpgrade } from "./http/upgrade";
import { urlHost } from "./http-paths";

export { DEFAULT_HOST, DEFAULT_MAX_BODY_BYTES, DEFAULT_PORT } from "./http/settings";
export type { Authorize, GetHandler, HttpNode, HttpNodeOptions, PrefixHandler, UpgradeHandler } from "./http/types";

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
  const { host, port: requestedPort, context } = resolveSettings(options);

  const server = http.createServer((req, res) => handleRequest(context, req, res, false));
  // `Expect: 100-continue` (curl sends it for bodies over 1 MiB): only invite the body once the
  // request passed the checks, so an oversize upload is refused before it is sent.
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => handleRequest(context, req, res, true));
  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => handleUpgrade(context, req, socket, head));
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => answerMalformedRequest(err, socket));

  await listen(server, requestedPort, host);
  server.on("error", (err) => context.log?.(`server error: ${err.message}`));

  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${port}`,
    host,
    port,
    close(): Promise<void> {
      closed ??= closeServer(context, server);
      return closed;
    },
  };
}
