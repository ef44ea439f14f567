import { RpcError, RpcErrorCode, invalidParams } from "./errors";
import { NamedParams } from "./named-params";
import type { Dispatch } from "./types";

/**
 * A JSON-RPC API served on one path: its methods, each declared once under its full name with
 * the way its parameters are read, and the mapping of the domain's errors to JSON-RPC errors.
 *
 *   const api = new RpcApi({ mapError: exchangeChainError }).namedMethods(chain, {
 *     "xvm.getBalance": getBalance,
 *     "avm.getBalance": getBalance,
 *   });
 *   node.route("/ext/bc/X", api.dispatch);
 *
 * A request reaches its handler through one Map lookup; the handler receives its parameters
 * already framed (`NamedParams`, or the positional list checked for length). Whatever a handler
 * throws that is not an `RpcError` goes through `mapError`; what that does not recognise is left
 * for the framing to report as an internal error (-32603) with its message.
 */
export type ErrorMapper = (error: unknown) => RpcError | undefined;

/** How many positional parameters a method takes: exactly so many, or from `min` to `max`. */
export type Arity = number | readonly [min: number, max: number];

/**
 * A method of a table over positional parameters (the EVM's style): how many it takes, and the
 * function that serves it, given the table's context, the parameters (padded to the most it
 * takes) and what the API's `around` holds while it runs.
 */
export type PositionalMethod<Context, Scope = void> = readonly [arity: Arity, serve: (context: Context, params: unknown[], scope: Scope) => unknown];

/** A method of a table over one object of named parameters (the node's `xvm.*`, `info.*` style). */
export type NamedMethod<Context, Scope = void> = (context: Context, params: NamedParams, scope: Scope) => unknown;

/** A method as the API declares it: the request's params member as sent, and the method's name. */
type Handler<Scope> = (params: unknown, method: string, scope: Scope) => unknown;

/** A method as the API serves it: with `around` and the error mapping applied. */
type Served = (params: unknown, method: string) => Promise<unknown>;

export interface RpcApiOptions<Scope = void> {
  /**
   * Namespaces every method declared with `named` or `positional` is served under: `["xvm",
   * "avm"]` serves `getBalance` as `xvm.getBalance` and `avm.getBalance`. Absent: methods are
   * served under the names given. (The tables, `namedMethods` and `positionalMethods`, always
   * serve the full names written in them.)
   */
  namespaces?: readonly string[];
  /** Turns a domain error into the JSON-RPC error the API answers with. */
  mapError?: ErrorMapper;
  /**
   * Runs every call, for example one at a time on a shared state; what it hands to `work` (a
   * lock's proof that it is held) reaches the method as its `scope`.
   */
  around?: <T>(work: (scope: Scope) => Promise<T>) => Promise<T>;
  /** Added to the "does not exist" error, e.g. to tell what this path serves. */
  unknownMethodHint?: string;
}

/** The options of an API whose methods take no scope; `never` for one whose methods do (see `RpcApi.scoped`). */
type UnscopedOptions<Scope> = [Scope] extends [void] ? RpcApiOptions : never;

export class RpcApi<Scope = void> {
  private readonly handlers = new Map<string, Served>();
  private readonly namespaces: readonly string[];
  private readonly options: RpcApiOptions<Scope>;

  /** An API whose methods take no scope (its `around`, if any, holds nothing for them). */
  constructor(options?: UnscopedOptions<Scope>) {
    this.options = (options ?? {}) as RpcApiOptions<unknown> as RpcApiOptions<Scope>;
    this.namespaces = this.options.namespaces ?? [];
  }

  /** An API whose `around` hands each method a scope, such as a lock's proof that it is held. */
  static scoped<Scope>(options: RpcApiOptions<Scope>): RpcApi<Scope> {
    // The constructor takes only unscoped options, so that an API cannot claim a scope its `around` does not give.
    return new RpcApi<Scope>(options as unknown as UnscopedOptions<Scope>);
  }

  /**
   * Methods over one object of named parameters, each under the full name written in `table`
   * (`{ "info.getNodeID": getNodeID }`), served with `context` as their first argument.
   */
  namedMethods<Context>(context: Context, table: Readonly<Record<string, NamedMethod<Context, Scope>>>): this {
    for (const [name, serve] of Object.entries(table)) {
      this.serve(name, (params, method, scope) => serve(context, NamedParams.of(params, method), scope));
    }
    return this;
  }

  /**
   * Methods over positional parameters, each under the full name written in `table`
   * (`{ "eth_getBalance": [[1, 2], getBalance] }`), served with `context` as their first argument.
   */
  positionalMethods<Context>(context: Context, table: Readonly<Record<string, PositionalMethod<Context, Scope>>>): this {
    for (const [name, [arity, serve]] of Object.entries(table)) {
      const [min, max] = typeof arity === "number" ? [arity, arity] : arity;
      this.serve(name, (params, method, scope) => serve(context, positionalParams(params, method, min, max), scope));
    }
    return this;
  }

  /** A method with one object of named parameters, under each of the API's namespaces. */
  named(name: string, handler: (params: NamedParams, scope: Scope) => unknown): this {
    return this.add(name, (params, method, scope) => handler(NamedParams.of(params, method), scope));
  }

  /** A method with positional parameters (the EVM's style): between `min` and `max` of them. */
  positional(name: string, arity: Arity, handler: (params: unknown[], scope: Scope) => unknown): this {
    const [min, max] = typeof arity === "number" ? [arity, arity] : arity;
    return this.add(name, (params, method, scope) => handler(positionalParams(params, method, min, max), scope));
  }

  /** Serves every method of `other` here too (several namespaces on one path), as `other` serves it. */
  include<OtherScope>(other: RpcApi<OtherScope>): this {
    for (const [method, served] of other.handlers) this.set(method, served);
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
    return handler(params, method);
  };

  private add(name: string, handler: Handler<Scope>): this {
    const served = this.wrap(handler);
    for (const method of this.namespaces.length === 0 ? [name] : this.namespaces.map((ns) => `${ns}.${name}`)) this.set(method, served);
    return this;
  }

  /** A method under exactly the name given. */
  private serve(method: string, handler: Handler<Scope>): void {
    this.set(method, this.wrap(handler));
  }

  private set(method: string, served: Served): void {
    if (this.handlers.has(method)) throw new Error(`method ${method} is declared twice`);
    this.handlers.set(method, served);
  }

  /**
   * The handler with this API's `around` and error mapping (built once, at declaration). The
   * mapping also covers what `around` itself throws (a shared state that refuses to run).
   */
  private wrap(handler: Handler<Scope>): Served {
    const { around, mapError } = this.options;
    // Without `around` nothing is held: the methods of such an API take a `void` scope.
    const run = around === undefined ? (handler as Handler<void>) : (params: unknown, method: string) => around(async (scope) => handler(params, method, scope));
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
