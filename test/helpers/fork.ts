import http from "node:http";
import type { AddressInfo } from "node:net";

/** A local HTTP server for a test: its URL, the JSON-RPC methods it was asked, and how to stop it. */
export interface TestServer {
  url: string;
  /** Every JSON-RPC method received, in order. */
  methods: string[];
  close(): Promise<void>;
}

type Answer = (method: string, body: { id: unknown; method: string; params: unknown[] }) => Promise<{ status?: number; headers?: Record<string, string>; body: string } | "hang">;

/** A JSON-RPC server answering with `answer` (garbage, 429s, silence: whatever a bad remote does), on 127.0.0.1. */
export async function startScriptedRemote(answer: Answer): Promise<TestServer> {
  const methods: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      const body = JSON.parse(text) as { id: unknown; method: string; params: unknown[] };
      methods.push(body.method);
      void answer(body.method, body).then((reply) => {
        if (reply === "hang") {
          hanging.add(res);
          return;
        }
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(reply.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    methods,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON-RPC reply body. */
export function rpcResult(id: unknown, result: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", id, result });
}

/**
 * A counting proxy in front of a JSON-RPC endpoint: what a fork asks its remote, and a remote
 * that can be taken away (close) while the real one keeps running.
 */
export async function startCountingProxy(target: string, latencyMs = 0): Promise<TestServer> {
  return startScriptedRemote(async (_method, body) => {
    // A public endpoint's round trip, for figures closer to a real fork's.
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const response = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.text() };
  });
}
