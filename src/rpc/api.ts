import { RpcError, RpcErrorCode, invalidParams } from "./errors";
import { NamedParams } from "./named-params";
import type { Dispatch } from "./types";

/**
 * A JSON-RPC API served on one path: its methods, each declared once with the way its
 * parameters are read, and the mapping of the domain's errors to JSON-RPC errors.
 *
 *   const api = new RpcApi({ namespaces: ["xvm", "avm"], mapError: exchangeChainError });
 *   api.named("getBalance", (p) => ...);        // answers xvm.getBalance and avm.getBalance
 *   node.route("/ext/bc/X", api.dispatch);
 *
 * A request reaches its handler through one Map lookup; the handler receives its parameters
 * already framed (`NamedParams`, or the positional list checked for length). Whatever a handler
 * throws that is not an `RpcError` goes through `mapError`; what that does not recognise is left
 * for the framing to report as an internal error (-32603) with its message.
 */
export type ErrorMapper = (error: unknown) => RpcError | undefined;

type Handler = (params: unknown, method: string) => unknown;

export interface RpcApiOptions {
  /**
   * Namespaces every method is served under: `["xvm", "avm"]` serves `getBalance` as
   * `xvm.getBalance` and `avm.getBalance`. Absent: methods are served under the names given
   * (the EVM's `eth_chainId` style).
   */
  namespaces?: readonly string[];
  /** Turns a domain error into the JSON-RPC error the API answers with. */
  mapError?: ErrorMapper;
  /** Runs every call, for example one at a time on a shared state. */
  around?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Added to the "does not exist" error, e.g. to tell what this path serves. */
  unknownMethodHint?: string;
}

export class RpcApi {
  private readonly handlers = new Map<string, Handler>();
  private readonly namespaces: readonly string[];

  constructor(private readonly options: RpcApiOptions = {}) {
    this.namespaces = options.namespaces ?? [];
  }

  /** A method with one object of named parameters (the node's `xvm.*`, `info.*` style). */
  named(name: string, handler: (params: NamedParams) => unknown): this {
    return this.add(name, (params, method) => handler(NamedParams.of(params, method)));
  }

  /** A method with positional parameters (the EVM's style): between `min` and `max` of them. */
  positional(name: string, arity: number | readonly [min: number, max: number], handler: (params: unknown[]) => unknown): this {
    const [min, max] = typeof arity === "number" ? [arity, arity] : arity;
    return this.add(name, (params, method) => handler(positionalParams(params, method, min, max)));
  }

  /** Serves every method of `other` here too (several namespaces on one path), as `other` serves it. */
  include(other: RpcApi): this {
    for (const [method, handler] of other.handlers) this.set(method, handler);
    return this;
  }

  has(method: string): boolean {
    return this.handlers.has(method);
  }

  /** Every method name served, sorted. */
  get methods(): string[] {
    return [...this.handlers.keys()].sort();
  }

  /** The API as the transports take it. */
  readonly dispatch: Dispatch = (method, params) => {
    const handler = typeof method === "string" ? this.handlers.get(method) : undefined;
    if (handler === undefined) return Promise.reject(this.unknownMethod(method));
    return handler(params, method) as Promise<unknown>;
  };

  private add(name: string, handler: Handler): this {
    const served = this.wrap(handler);
    for (const method of this.namespaces.length === 0 ? [name] : this.namespaces.map((ns) => `${ns}.${name}`)) this.set(method, served);
    return this;
  }

  private set(method: string, handler: Handler): void {
    if (this.handlers.has(method)) throw new Error(`method ${method} is declared twice`);
    this.handlers.set(method, handler);
  }

  /**
   * The handler with this API's `around` and error mapping (built once, at declaration). The
   * mapping also covers what `around` itself throws (a shared state that refuses to run).
   */
  private wrap(handler: Handler): Handler {
    const { around, mapError } = this.options;
    const run: Handler = around === undefined ? handler : (params, method) => around(async () => handler(params, method));
    return async (params, method) => {
      try {
        return await run(params, method);
      } catch (error) {
        if (error instanceof RpcError || mapError === undefined) throw error;
        throw mapError(error) ?? error;
      }
    };
  }

  private unknownMethod(method: unknown): RpcError {
    const hint = this.options.unknownMethodHint;
    return new RpcError(
      RpcErrorCode.MethodNotFound,
      `the method ${String(method)} does not exist/is not available${hint === undefined ? "" : ` (${hint})`}`,
    );
  }
}

/** A positional params member: an array (or nothing) of `min` to `max` values, padded to `max`. */
export function positionalParams(params: unknown, method: string, min: number, max: number): unknown[] {
  const list = params === undefined || params === null ? [] : params;
  if (!Array.isArray(list)) throw invalidParams(`${method} expects its params as an array`);
  if (list.length < min || list.length > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw invalidParams(`${method} expects ${expected} parameter${max === 1 ? "" : "s"}, got ${list.length}`);
  }
  return list;
}
