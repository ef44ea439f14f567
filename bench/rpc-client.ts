/**
 * A minimal JSON-RPC 2.0 client over HTTP, used identically against every benchmarked peer.
 *
 * One `node:http` Agent with keep-alive and a single socket: requests go one at a time over
 * one reused TCP connection, so the transport cost is the same for both peers and small
 * next to the work measured. No retries, no batching, no client-side caching.
 */
import * as http from "node:http";

/** A JSON-RPC error answer (the peer ran the request and refused it). */
export class RpcCallError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data: unknown,
  ) {
    super(`${method} failed with JSON-RPC error ${code}: ${rpcMessage}`);
    this.name = "RpcCallError";
  }
}

/** The request never got a JSON-RPC answer (connection refused, timeout, bad HTTP...). */
export class TransportError extends Error {
  constructor(
    readonly method: string,
    message: string,
    readonly errorCode?: string,
  ) {
    super(`${method}: ${message}`);
    this.name = "TransportError";
  }
}

export interface RpcClientOptions {
  /** Abort a request (and fail it with a TransportError) after this many ms. Default 30 000. */
  timeoutMs?: number;
}

export class JsonRpcHttpClient {
  readonly url: URL;
  private readonly agent: http.Agent;
  private readonly timeoutMs: number;
  private nextId = 1;
  /** Number of requests answered (with a result or an error). */
  requests = 0;

  constructor(url: string, options: RpcClientOptions = {}) {
    this.url = new URL(url);
    if (this.url.protocol !== "http:") throw new Error(`only http: URLs are supported, got ${url}`);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Calls `method` and resolves to its result; rejects with RpcCallError or TransportError. */
  call<T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> {
    const body = JSON.stringify({ jsonrpc: "2.0", id: this.nextId++, method, params });
    return new Promise<T>((resolve, reject) => {
      const req = http.request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          path: this.url.pathname,
          method: "POST",
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", (e) => reject(new TransportError(method, e.message)));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed: { result?: unknown; error?: { code: number; message: string; data?: unknown } };
            try {
              parsed = JSON.parse(text) as typeof parsed;
            } catch {
              reject(new TransportError(method, `HTTP ${res.statusCode}: not JSON: ${text.slice(0, 200)}`));
              return;
            }
            this.requests++;
            if (parsed.error !== undefined) {
              reject(new RpcCallError(method, parsed.error.code, parsed.error.message, parsed.error.data));
            } else if (!("result" in parsed)) {
              reject(new TransportError(method, `HTTP ${res.statusCode}: answer without result: ${text.slice(0, 200)}`));
            } else {
              resolve(parsed.result as T);
            }
          });
        },
      );
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on("error", (e: NodeJS.ErrnoException) => reject(new TransportError(method, e.message, e.code)));
      req.end(body);
    });
  }

  /** Closes the kept-alive connection. */
  close(): void {
    this.agent.destroy();
  }
}
