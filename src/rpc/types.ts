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
