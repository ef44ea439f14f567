import type { NodeChains } from "../../src/node/node-chains";
import type { ManagementOptions } from "../../src/node/management";
import type { HttpNode } from "../../src/node/http-server";
import { startNode } from "../../src/node/start-node";

/** A node served over HTTP with its management APIs (auth, info, health), on a free port. */
export interface ManagedNode {
  node: HttpNode;
  network: NodeChains;
  url: string;
  /** One JSON-RPC call over HTTP: the status, the content type and the parsed body. */
  post(path: string, method: string, params?: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
  /** A GET request. */
  get(path: string, headers?: Record<string, string>): Promise<HttpAnswer>;
  close(): Promise<void>;
}

export interface HttpAnswer {
  status: number;
  contentType: string | null;
  body: { result?: unknown; error?: { code: number; message: string }; [key: string]: unknown };
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

export async function startManagedNode(management: ManagementOptions = {}): Promise<ManagedNode> {
  const node = await startNode({ port: 0, chains: { management } });
  const network = node.chains!;
  const answer = async (response: Response): Promise<HttpAnswer> => ({
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: (await response.json()) as HttpAnswer["body"],
  });
  return {
    node,
    network,
    url: node.url,
    post: async (path, method, params = {}, headers = {}) =>
      answer(
        await fetch(`${node.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
        }),
      ),
    get: async (path, headers = {}) => answer(await fetch(`${node.url}${path}`, { headers })),
    close: () => node.close(),
  };
}
