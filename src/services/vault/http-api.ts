/**
 * The vault's HTTP surface under `/v1/multisig` (the reference's routes), JSON in and out, every
 * error as `{"error","message"}` with its status (`errors.ts`), plus the notification stream:
 * `GET /v1/multisig/<alias>/events?signature=&timestamp=` (authenticated like the list) sends
 * Server-Sent Events `created`, `signed`, `issued`, `cancelled`, each with the record as data.
 */
import type * as http from "node:http";
import { readBoundedBody } from "../http/body";
import { VaultError, VaultErrorCode, badRequest } from "./errors";
import type { VaultEvents } from "./events";
import type { Vault } from "./vault";

export const VAULT_PATH_PREFIX = "/v1/multisig";
/** Largest JSON body accepted: an unsigned tx with many inputs fits in far less. */
const MAX_BODY_BYTES = 1024 * 1024;
/** A comment line every so often keeps proxies and idle timeouts from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

export type HttpHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface VaultHttpApi {
  handle: HttpHandler;
  /** Ends the open event streams (so a server can close). */
  close(): void;
}

export function createVaultHttpApi(vault: Vault, events: VaultEvents): VaultHttpApi {
  const streams = new Set<http.ServerResponse>();

  async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const { url, parts } = parseTarget(req.url ?? "/");
    const method = req.method ?? "GET";
    const query = (name: string) => url.searchParams.get(name) ?? undefined;

    if (parts.length === 0 && method === "POST") return send(res, 201, await vault.create(await readJson(req)));
    if (parts.length === 1 && parts[0] === "issue" && method === "POST") {
      const body = await readJson(req);
      return send(res, 200, await vault.issue(body.signedTx, body.signature));
    }
    if (parts.length === 1 && parts[0] === "cancel" && method === "POST") {
      const body = await readJson(req);
      await vault.cancel(body.id, body.timestamp, body.signature);
      res.writeHead(204).end();
      return;
    }
    if (parts.length === 1 && method === "GET") return send(res, 200, await vault.listPending(parts[0], query("signature"), query("timestamp")));
    if (parts.length === 1 && method === "PUT") return send(res, 200, await vault.sign(parts[0]!, (await readJson(req)).signature));
    if (parts.length === 2 && parts[1] === "events" && method === "GET") {
      const alias = await vault.authenticateOwner(parts[0], query("signature"), query("timestamp"));
      return stream(req, res, alias);
    }
    throw new VaultError(VaultErrorCode.NotFound, `no route ${method} ${url.pathname}; the vault serves POST ${VAULT_PATH_PREFIX}, GET|PUT ${VAULT_PATH_PREFIX}/<alias|id>, POST ${VAULT_PATH_PREFIX}/issue, POST ${VAULT_PATH_PREFIX}/cancel, GET ${VAULT_PATH_PREFIX}/<alias>/events`);
  }

  function stream(req: http.IncomingMessage, res: http.ServerResponse, alias: string): void {
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    res.write(`: following ${alias}\n\n`);
    streams.add(res);
    const stop = events.follow(alias, (event) => res.write(`event: ${event.type}\ndata: ${JSON.stringify(event.transaction)}\n\n`));
    const keepalive = setInterval(() => res.write(": keepalive\n\n"), KEEPALIVE_MS);
    keepalive.unref();
    const end = () => {
      stop();
      clearInterval(keepalive);
      streams.delete(res);
    };
    req.on("close", end);
    res.on("close", end);
  }

  return {
    handle: (req, res) => {
      res.setHeader("Access-Control-Allow-Origin", "*");
      if (req.method === "OPTIONS") {
        res.writeHead(204, { "Access-Control-Allow-Methods": "GET, POST, PUT, OPTIONS", "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "Content-Type" }).end();
        return;
      }
      route(req, res).catch((error: unknown) => {
        const refusal = error instanceof VaultError ? error : undefined;
        if (res.headersSent) return void res.destroy();
        // Anything not a VaultError is a fault here or in the database: 500 with its message.
        send(res, refusal?.status ?? 500, refusal?.toJSON() ?? { error: "internal", message: `internal error: ${(error as Error).message}` });
      });
    },
    close: () => {
      for (const res of streams) res.end();
      streams.clear();
    },
  };
}

/**
 * The request's URL and its path segments below the prefix, decoded. Malformed
 * percent-encoding, in the path or in the query, is refused (400) rather than guessed at.
 */
function parseTarget(target: string): { url: URL; parts: string[] } {
  let url: URL;
  try {
    url = new URL(target, "http://vault");
  } catch {
    throw badRequest(`the request target is not a URL: ${JSON.stringify(target)}`);
  }
  const rest = url.pathname.replace(/\/+$/, "").slice(VAULT_PATH_PREFIX.length);
  const parts = rest.split("/").filter((p) => p !== "").map((segment) => strictlyDecoded(segment, "path", url.pathname));
  for (const pair of url.search.slice(1).split("&")) strictlyDecoded(pair.replace(/\+/g, " "), "query", url.search);
  return { url, parts };
}

function strictlyDecoded(text: string, where: "path" | "query", whole: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw badRequest(`the request ${where} is not valid percent-encoding: ${JSON.stringify(whole)} (a % must start a %XX escape of UTF-8 bytes)`);
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBoundedBody(req, MAX_BODY_BYTES, badRequest);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest("the request body is not JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest("the request body must be a JSON object");
  return body as Record<string, unknown>;
}
