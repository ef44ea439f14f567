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
 * One JSON-RPC API as the node serves it: a method name and its params in, the result out,
 * errors thrown as RpcError. Every chain API (contract chain, exchange chain, keystore, info)
 * is one; the HTTP node maps paths to them.
 */
export type Dispatch = (method: string, params: unknown) => Promise<unknown>;
