/**
 * The engine as an EIP-1193 provider: what ethers' BrowserProvider, Hardhat and the HTTP node
 * talk to. A request goes through the engine's JSON-RPC API (`api/`); errors are RpcError
 * instances carrying the JSON-RPC code, message and data.
 */
import type { RpcApi } from "../rpc/api";
import { RpcError, RpcErrorCode } from "../rpc/errors";
import type { Eip1193Provider, RequestArguments } from "../rpc/types";
import { createEngineApi } from "./api";
import { Engine } from "./engine";
import type { EngineOptions } from "./options";

export class NativeProvider implements Eip1193Provider {
  readonly engine: Engine;
  /** Every method the provider answers, by name. */
  readonly api: RpcApi;

  constructor(engine: Engine) {
    this.engine = engine;
    this.api = createEngineApi(engine);
  }

  request(args: RequestArguments): Promise<unknown> {
    if (typeof args !== "object" || args === null || typeof args.method !== "string") {
      return Promise.reject(new RpcError(RpcErrorCode.InvalidRequest, "request() expects { method: string, params?: unknown[] }"));
    }
    return this.api.dispatch(args.method, args.params);
  }
}

/** Starts a fresh in-process chain and returns its provider. */
export async function createNativeProvider(options: EngineOptions = {}): Promise<NativeProvider> {
  return new NativeProvider(await Engine.create(options));
}
