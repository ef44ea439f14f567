/**
 * Shared fixtures of the Hardhat 3 hook tests: a hook context over a resolved nativekit config,
 * connections to the in-process network, and a sender of requests through `onRequest`.
 */
import { resolveNativekitConfig } from "../../src/hardhat/config";
import type { Hardhat3HookManager, HookContext, JsonRpcRequest, JsonRpcResponse, NetworkConnection, NetworkHooks } from "../../src/hardhat/hardhat3/types";

/** A hook context whose chains run on Hardhat's thread or in the engine thread, with the given hook manager. */
export function hookContext(workerThread: boolean, hooks: Hardhat3HookManager, artifacts?: string): HookContext {
  return {
    config: {
      paths: { root: "/project", cache: "/project/cache", ...(artifacts === undefined ? {} : { artifacts }) },
      nativekit: { ...resolveNativekitConfig({ loggingEnabled: false, workerThread }), inProcessNetworks: ["nativekit"] },
    },
    hooks,
  };
}

let nextConnectionId = 1;

/** A connection to the in-process `nativekit` network, whose own provider must never be asked. */
export function inProcessConnection(): NetworkConnection {
  return { id: nextConnectionId++, networkName: "nativekit", provider: { request: async () => Promise.reject(new Error("unused")) }, close: async () => {} };
}

/** `next` for requests the hooks should have answered themselves. */
export async function unexpectedNext(): Promise<JsonRpcResponse> {
  throw new Error("the request went to next");
}

/** Sends requests through `onRequest`: `send` gives the response, `result` its result (an error response throws). */
export function hookSender(hooks: () => NetworkHooks, context: () => HookContext, connection: () => NetworkConnection) {
  let id = 1;
  const send = (method: string, params: JsonRpcRequest["params"]) => hooks().onRequest(context(), connection(), { jsonrpc: "2.0", id: id++, method, params }, unexpectedNext);
  const result = async (method: string, params: JsonRpcRequest["params"]) => {
    const response = await send(method, params);
    if ("error" in response) throw new Error(JSON.stringify(response.error));
    return response.result;
  };
  return { send, result };
}
