import { createNodeClient, type NodeClient } from "../../src/clients";
import { PATHS } from "../../src/network/paths";
import { startNode, type StartedNode } from "../../src/node/start-node";

/** A fresh node served over HTTP on a free port, with a client of it. */
export interface LocalNode {
  node: StartedNode;
  client: NodeClient;
  /** A JSON-RPC call on the contract chain's path; rejects with the node's error message. */
  rpc<T>(method: string, params?: unknown[]): Promise<T>;
}

export async function startLocalNode(): Promise<LocalNode> {
  const node = await startNode({ port: 0 });
  const client = createNodeClient({ url: node.url });
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(`${node.url}${PATHS.contractRpc}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { message: string } };
    if (body.error !== undefined) throw new Error(body.error.message);
    return body.result as T;
  };
  return { node, client, rpc };
}
