/**
 * A tiny fake node for the client tests: node:http on 127.0.0.1, a free port. It records every
 * request and answers with canned replies registered per (path, method). Unknown paths get the
 * reference node's plain-text 404; a known path with an unknown method gets a JSON-RPC -32601.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  path: string;
  method: string;
  params: unknown;
  id: unknown;
  headers: http.IncomingHttpHeaders;
  /** The parsed body. */
  body: Record<string, unknown>;
}

/** What the fake answers to one call. */
export type Reply =
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } }
  /** A raw HTTP answer. */
  | { status: number; body: string; contentType?: string }
  /** Never answers (for timeouts). */
  | { hang: true }
  /** The result computed from the request. */
  | ((request: RecordedRequest) => Reply);

export interface FakeNode {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /**
   * Registers replies for `method` at `path`. With several replies, each call takes the next one
   * and the last one repeats.
   */
  on(path: string, method: string, ...replies: Reply[]): void;
  /** Forgets the replies and the recorded requests. */
  reset(): void;
  /** The requests made to `method` (in order). */
  calls(method: string): RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeNode(): Promise<FakeNode> {
  const routes = new Map<string, Reply[]>();
  const paths = new Set<string>();
  const requests: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      if (!paths.has(path)) {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
        res.end("404 page not found\n");
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      const recorded: RecordedRequest = {
        path,
        method: String(body.method),
        params: body.params,
        id: body.id,
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const queue = routes.get(`${path} ${recorded.method}`);
      let reply: Reply =
        queue === undefined
          ? { error: { code: -32601, message: `the method ${recorded.method} does not exist/is not available` } }
          : queue.length > 1
            ? queue.shift()!
            : queue[0]!;
      while (typeof reply === "function") reply = reply(recorded);
      if ("hang" in reply) return;
      if ("status" in reply) {
        res.writeHead(reply.status, { "content-type": reply.contentType ?? "text/plain" });
        res.end(reply.body);
        return;
      }
      const payload = "result" in reply
        ? { jsonrpc: "2.0", id: body.id, result: reply.result }
        : { jsonrpc: "2.0", id: body.id, error: reply.error };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    on(path, method, ...replies) {
      paths.add(path);
      routes.set(`${path} ${method}`, [...replies]);
    },
    reset() {
      routes.clear();
      paths.clear();
      requests.length = 0;
    },
    calls(method) {
      return requests.filter((r) => r.method === method);
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof Error) return e;
    throw new Error(`rejected with a non-Error: ${String(e)}`);
  }
  throw new Error("expected the promise to reject, but it resolved");
}

export const CREDENTIALS = { username: "alice", password: "correct horse battery staple" } as const;
