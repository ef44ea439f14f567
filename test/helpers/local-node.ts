import { createNodeClient, type NodeClient } from "../../src/clients";
import { LocalNetwork } from "../../src/node/local-network";
import { PATHS } from "../../src/network/paths";
import { startHttpNode, type HttpNode } from "../../src/node/http-server";

/** A fresh local network served over HTTP on a free port, with a client of it. */
export interface LocalNode {
  node: HttpNode;
  client: NodeClient;
  /** A JSON-RPC call on the contract chain's path; rejects with the node's error message. */
  rpc<T>(method: string, params?: unknown[]): Promise<T>;
}

export async function startLocalNode(): Promise<LocalNode> {
  const network = await LocalNetwork.create();
  const node = await startHttpNode({ port: 0, routes: network.routes });
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
