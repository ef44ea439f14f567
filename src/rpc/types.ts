/** The request shape of EIP-1193 (`provider.request({ method, params })`). */
export interface RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | Record<string, unknown>;
}

/** A minimal EIP-1193 provider: the engine implements it; adapters consume it. */
export interface Eip1193Provider {
  request(args: RequestArguments): Promise<unknown>;
}

/**
 * One JSON-RPC API as the node serves it on a path: a method name and its params in (an array,
 * an object, or undefined when the request has none), the result out, errors thrown as
 * `RpcError`. Every API is one (`RpcApi.dispatch`); the HTTP node maps paths to them.
 */
export type Dispatch = (method: string, params: unknown) => Promise<unknown>;

/** A message the server sends unasked (no `id`), such as an `eth_subscription` notification. */
export interface JsonRpcNotification {
  readonly jsonrpc: "2.0";
  readonly method: string;
  readonly params: unknown;
}

/**
 * One lasting connection's view of an API that can push messages (a WebSocket, the in-process
 * provider's events): its own dispatch (where `eth_subscribe` belongs to this connection) and
 * `close()`, called when the connection ends, which drops what the connection subscribed.
 */
export interface RpcSession {
  readonly dispatch: Dispatch;
  close(): void;
}

/** Opens a session whose notifications go to `push`. */
export type OpenSession = (push: (notification: JsonRpcNotification) => void) => RpcSession;
