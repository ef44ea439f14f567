import { Engine } from "./engine";
import { RpcError, RpcErrorCode } from "../rpc/errors";
import type { EngineOptions } from "./options";
import type { Eip1193Provider, RequestArguments } from "../rpc/types";
import { RpcMethods } from "./rpc";

/**
 * The engine as an EIP-1193 provider: what ethers' BrowserProvider, Hardhat and the HTTP node
 * talk to. Errors are RpcError instances carrying the JSON-RPC code, message and data.
 */
export class NativeProvider implements Eip1193Provider {
  readonly engine: Engine;
  readonly rpc: RpcMethods;

  constructor(engine: Engine) {
    this.engine = engine;
    this.rpc = new RpcMethods(engine);
  }

  async request(args: RequestArguments): Promise<unknown> {
    if (typeof args !== "object" || args === null || typeof args.method !== "string") {
      throw new RpcError(RpcErrorCode.InvalidRequest, "request() expects { method: string, params?: unknown[] }");
    }
    return this.rpc.handle(args.method, args.params);
  }
}

/** Starts a fresh in-process chain and returns its provider. */
export async function createNativeProvider(options: EngineOptions = {}): Promise<NativeProvider> {
  return new NativeProvider(await Engine.create(options));
}
