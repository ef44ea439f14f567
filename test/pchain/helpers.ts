import { decodeCb58, decodePrivateKey, formatChainAddress } from "../../src/encoding";
import { LOCAL_NETWORK, LOCAL_TEST_KEY } from "../../src/network/constants";
import { NodeChains, type NodeChainsOptions } from "../../src/node/node-chains";
import { startHttpNode, type HttpNode } from "../../src/node/http-server";
import { shortIdFromPrivateKey } from "../../src/utxo/codec";

export const EWOQ_KEY = decodePrivateKey(LOCAL_TEST_KEY);
export const EWOQ = shortIdFromPrivateKey(EWOQ_KEY);
export const AVAX = decodeCb58(LOCAL_NETWORK.nativeAsset.id);
export const FEE = LOCAL_NETWORK.txFee;
export const P_CHAIN = new Uint8Array(32);
export const PASSWORD = "Corr3ct-Horse-Battery";
export const USER = { username: "alice", password: PASSWORD };

// The exchange chain's test keys and their short IDs serve the platform chain's tests too.
export { addressOf, testKey } from "../xchain/vm/helpers";
export const pAddress = (shortId: Uint8Array): string => formatChainAddress(shortId, "local", "P");
export const xAddress = (shortId: Uint8Array): string => formatChainAddress(shortId, "local", "X");
export const cAddress = (shortId: Uint8Array): string => formatChainAddress(shortId, "local", "C");

export interface RpcFailure {
  code: number;
  message: string;
  data?: { rule?: string; nodeMessage?: string; problem?: string };
}

/** A local network served over HTTP, with plain JSON-RPC calls on its paths. */
export interface PNode {
  network: NodeChains;
  http: HttpNode;
  /** Calls `method` at `path` (default /ext/bc/P); rejects with the JSON-RPC error object. */
  call<T = Record<string, unknown>>(method: string, params?: unknown, path?: string): Promise<T>;
  /** Expects the call to fail; returns its error. */
  fail(method: string, params?: unknown, path?: string): Promise<RpcFailure>;
  close(): Promise<void>;
}

export async function startPNode(options: NodeChainsOptions = {}): Promise<PNode> {
  const network = await NodeChains.create(options);
  const http = await startHttpNode({ port: 0, routes: network.routes });
  const call = async <T>(method: string, params: unknown = {}, path = "/ext/bc/P"): Promise<T> => {
    const response = await fetch(`${http.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    const body = (await response.json()) as { result?: T; error?: RpcFailure };
    if (body.error !== undefined) throw body.error;
    return body.result as T;
  };
  const fail = async (method: string, params: unknown = {}, path?: string): Promise<RpcFailure> => {
    try {
      await call(method, params, path);
    } catch (error) {
      return error as RpcFailure;
    }
    throw new Error(`expected ${method} to fail, but it succeeded`);
  };
  return {
    network,
    http,
    call,
    fail,
    close: async () => {
      await http.close();
      await network.close();
    },
  };
}

/** A node with user alice holding the ewoq key on P, X and C. */
export async function startWithUser(options: NodeChainsOptions = {}): Promise<PNode> {
  const node = await startPNode(options);
  await node.call("keystore.createUser", USER, "/ext/keystore");
  await node.call("platform.importKey", { ...USER, privateKey: LOCAL_TEST_KEY });
  await node.call("xvm.importKey", { ...USER, privateKey: LOCAL_TEST_KEY }, "/ext/bc/X");
  await node.call("avax.importKey", { ...USER, privateKey: LOCAL_TEST_KEY }, "/ext/bc/C/avax");
  return node;
}
