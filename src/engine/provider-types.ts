/** The request shape of EIP-1193 (`provider.request({ method, params })`). */
export interface RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | Record<string, unknown>;
}

/** A minimal EIP-1193 provider: the engine implements it; adapters consume it. */
export interface Eip1193Provider {
  request(args: RequestArguments): Promise<unknown>;
}
