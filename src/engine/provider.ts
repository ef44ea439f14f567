/**
 * The engine as an EIP-1193 provider: what ethers' BrowserProvider, Hardhat and the HTTP node
 * talk to. A request goes through the engine's JSON-RPC API (`api/`); errors are RpcError
 * instances carrying the JSON-RPC code, message and data. The provider is one lasting
 * connection: `eth_subscribe` works, and its notifications are emitted as EIP-1193 `message`
 * events, `{ type: "eth_subscription", data: { subscription, result } }`.
 */
import { EventEmitter } from "node:events";

import type { RpcApi } from "../rpc/api";
import { RpcError, RpcErrorCode } from "../rpc/errors";
import type { Dispatch, Eip1193Provider, JsonRpcNotification, OpenSession, RequestArguments, RpcSession } from "../rpc/types";
import { JsonText } from "../rpc/json-text";
import { createEngineApi } from "./api";
import { Engine } from "./engine";
import type { LockHeld } from "./engine-lock";
import type { EngineOptions } from "./options";

/** The EIP-1193 `message` event of a subscription's notification. */
export interface SubscriptionMessage {
  type: "eth_subscription";
  data: { subscription: string; result: unknown };
}

export class NativeProvider extends EventEmitter implements Eip1193Provider {
  readonly engine: Engine;
  /** Every method a connectionless transport answers, by name (eth_subscribe refuses there). */
  readonly api: RpcApi<LockHeld>;
  /** Opens a lasting connection's session (a WebSocket's): the methods of `api` plus its own subscriptions. */
  readonly openSession: OpenSession;
  /** This provider's own session, opened by its first request. */
  private session: RpcSession | undefined;

  constructor(engine: Engine) {
    super();
    this.engine = engine;
    const { api, openSession } = createEngineApi(engine);
    this.api = api;
    this.openSession = openSession;
  }

  /** The API as a connectionless transport (HTTP) serves it: no subscriptions. */
  get dispatch(): Dispatch {
    return this.api.dispatch;
  }

  request(args: RequestArguments): Promise<unknown> {
    if (typeof args !== "object" || args === null || typeof args.method !== "string") {
      return Promise.reject(new RpcError(RpcErrorCode.InvalidRequest, "request() expects { method: string, params?: unknown[] }"));
    }
    this.session ??= this.openSession((notification) => this.emit("message", toMessage(notification)));
    const answer = this.session.dispatch(args.method, args.params);
    // A node's large answers are JSON text for its transports (see JsonText); a caller in the
    // same process gets values, as from every other method.
    return this.engine.options.unqueuedReads ? answer.then((result) => (result instanceof JsonText ? result.toJSON() : result)) : answer;
  }
}

function toMessage(notification: JsonRpcNotification): SubscriptionMessage {
  return { type: "eth_subscription", data: notification.params as SubscriptionMessage["data"] };
}

/** Starts a fresh in-process chain and returns its provider. */
export async function createNativeProvider(options: EngineOptions = {}): Promise<NativeProvider> {
  return new NativeProvider(await Engine.create(options));
}
