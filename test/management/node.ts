/**
 * A local network with its management APIs (index, IPC, admin) served over HTTP on a free port,
 * and the calls the management tests make: raw JSON-RPC on any path, an exchange-chain transfer
 * and a contract-chain transaction (each accepted when the call returns).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NodeChains, type NodeChainsOptions } from "../../src/node/node-chains";
import { startHttpNode, type HttpNode } from "../../src/node/http-server";
import type { NodeManagementOptions as ManagementOptions } from "../../src/node/node-chains";
import { LOCAL_TEST_KEY } from "../../src/network/constants";

export interface RpcFailure {
  code: number;
  message: string;
}

export interface ManagedTestNode {
  network: NodeChains;
  http: HttpNode;
  url: string;
  /** The result of `method` at `path`; rejects with the node's error object. */
  call<T = Record<string, unknown>>(path: string, method: string, params?: unknown): Promise<T>;
  /** The node's error object for a call that must fail. */
  failure(path: string, method: string, params?: unknown): Promise<RpcFailure>;
  /** Sends `amount` nAVAX on the exchange chain; resolves to the tx ID once accepted. */
  sendX(amount?: number): Promise<string>;
  /** Sends a contract-chain transaction (mined into its own block); resolves to the block hash. */
  sendC(options?: { data?: string }): Promise<string>;
  close(): Promise<void>;
}

const USER = { username: "indexer", password: "Corr3ct-Horse-Battery-Staple" };

export async function startManagedNode(management: ManagementOptions, options: Omit<NodeChainsOptions, "management"> = {}): Promise<ManagedTestNode> {
  const network = await NodeChains.create({ ...options, management });
  const http = await startHttpNode({ port: 0, routes: network.routes, log: network.operator.logger.at("info") });
  let nextId = 1;
  const post = async (p: string, method: string, params: unknown) => {
    const response = await fetch(`${http.url}${p}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: params ?? {} }),
    });
    return (await response.json()) as { result?: unknown; error?: RpcFailure };
  };
  const call = async <T>(p: string, method: string, params?: unknown): Promise<T> => {
    const body = await post(p, method, params);
    if (body.error !== undefined) throw Object.assign(new Error(`${method}: ${body.error.message}`), body.error);
    return body.result as T;
  };
  const failure = async (p: string, method: string, params?: unknown): Promise<RpcFailure> => {
    const body = await post(p, method, params);
    if (body.error === undefined) throw new Error(`${method} succeeded with ${JSON.stringify(body.result)}; expected an error`);
    return { code: body.error.code, message: body.error.message };
  };

  let xAddress: string | undefined;
  const sendX = async (amount = 1000) => {
    if (xAddress === undefined) {
      // A node restarted on its data directory still has the user.
      const { users } = await call<{ users: string[] }>("/ext/keystore", "keystore.listUsers", {});
      if (!users.includes(USER.username)) await call("/ext/keystore", "keystore.createUser", USER);
      xAddress = (await call<{ address: string }>("/ext/bc/X", "avm.importKey", { ...USER, privateKey: LOCAL_TEST_KEY })).address;
    }
    const { txID } = await call<{ txID: string }>("/ext/bc/X", "avm.send", { ...USER, assetID: "AVAX", amount, to: xAddress });
    return txID;
  };
  const sendC = async (opts: { data?: string } = {}) => {
    const [from] = await call<string[]>("/ext/bc/C/rpc", "eth_accounts", []);
    const hash = await call<string>("/ext/bc/C/rpc", "eth_sendTransaction", [
      { from, to: "0x000000000000000000000000000000000000dEaD", value: "0x1", ...(opts.data === undefined ? {} : { data: opts.data, gas: "0xe4e1c0" }) },
    ]);
    const receipt = await call<{ blockHash: string }>("/ext/bc/C/rpc", "eth_getTransactionReceipt", [hash]);
    return receipt.blockHash;
  };
  return {
    network,
    http,
    url: http.url,
    call,
    failure,
    sendX,
    sendC,
    async close() {
      await http.close();
      await network.close();
    },
  };
}

/** A fresh directory under the system's temporary directory, for sockets, profiles or databases. */
export function temporaryDirectory(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `nk-${prefix}-`));
}
