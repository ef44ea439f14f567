/**
 * The HTTP gateway: the gRPC methods as JSON over HTTP, as grpc-gateway serves the reference's —
 * `POST /v1/ping` and `POST /v1/control/<method in lower case>`, the body the request message
 * and the answer the response message in the protobuf JSON mapping (lowerCamelCase names, the
 * proto's snake_case names accepted too, unknown names ignored, unpopulated fields emitted).
 * Refusals are `{"code": <gRPC code>, "message", "details": []}` with grpc-gateway's HTTP
 * status for the code. `POST /v1/control/streamstatus` streams one `{"result": …}` line per push.
 */
import type * as grpc from "@grpc/grpc-js";
import { status as GrpcStatus } from "@grpc/grpc-js";
import http from "node:http";
import { readBoundedBody } from "../http/body";
import type { RunnerControl } from "./control";
import { asRunnerError, invalidArgument, RunnerError } from "./errors";
import type { RunnerHandlers, UnaryHandler } from "./handlers";
import type { StreamStatusRequest } from "./messages";
import { normalizeMessage, runnerProtocol } from "./protocol";

const MAX_BODY_BYTES = 1024 * 1024;

export interface RunnerGateway {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

interface Route {
  readonly method: grpc.MethodDefinition<unknown, unknown>;
  readonly handler?: UnaryHandler;
}

/** The gateway's routes: path → the method's definition and handler. */
function routes(handlers: RunnerHandlers): Map<string, Route> {
  const protocol = runnerProtocol();
  const table = new Map<string, Route>();
  table.set("/v1/ping", { method: protocol.ping.Ping!, handler: handlers.PingService.Ping });
  for (const [name, method] of Object.entries(protocol.control)) {
    table.set(`/v1/control/${name.toLowerCase()}`, { method, handler: handlers.ControlService[name] });
  }
  return table;
}

export async function startGateway(control: RunnerControl, handlers: RunnerHandlers, host: string, port: number): Promise<RunnerGateway> {
  const table = routes(handlers);
  const streams = new Set<AbortController>();

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://runner").pathname.replace(/\/+$/, "");
    const route = table.get(path);
    if (route === undefined) throw new RunnerError(GrpcStatus.NOT_FOUND, `no method at ${path}; the runner serves POST ${[...table.keys()].join(", ")}`);
    if (req.method !== "POST") throw new RunnerError(GrpcStatus.UNIMPLEMENTED, `${path} answers POST only`);
    const request = decodeRequest(route.method, await readBoundedBody(req, MAX_BODY_BYTES, invalidArgument));
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    if (route.handler === undefined) return streamStatus(request as unknown as StreamStatusRequest, route.method, res, abort);
    const response = await route.handler(request, abort.signal);
    send(res, 200, normalizeMessage(route.method, "response", response));
  }

  async function streamStatus(request: StreamStatusRequest, method: Route["method"], res: http.ServerResponse, abort: AbortController): Promise<void> {
    streams.add(abort);
    res.writeHead(200, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" });
    try {
      await control.streamStatus(request, (response) => res.write(`${JSON.stringify({ result: normalizeMessage(method, "response", response) })}\n`), abort.signal);
    } finally {
      streams.delete(abort);
      res.end();
    }
  }

  const server = http.createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      const refusal = asRunnerError(error);
      if (res.headersSent) return void res.end();
      send(res, refusal.httpStatus, { code: refusal.code, message: refusal.message, details: [] });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as import("node:net").AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${actual}`,
    port: actual,
    close: async () => {
      for (const abort of streams) abort.abort();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}

/** The body as the method's request message: JSON object, snake_case names renamed, defaults filled in. */
function decodeRequest(method: Route["method"], body: string): Record<string, unknown> {
  let parsed: unknown = {};
  if (body.trim() !== "") {
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      throw invalidArgument(`the request body is not JSON: ${(error as Error).message}`);
    }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw invalidArgument("the request body must be a JSON object");
  const renamed = Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), value]));
  try {
    return normalizeMessage(method, "request", renamed);
  } catch (error) {
    throw invalidArgument(`invalid request: ${(error as Error).message}`);
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
}
