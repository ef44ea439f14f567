/**
 * How the engine serves every JSON-RPC method: one call at a time on the engine (its
 * `serialize`), with the engine's errors mapped to JSON-RPC errors. Each namespace module
 * declares its methods on an `RpcApi` with these options.
 */
import type { RpcApiOptions } from "../../rpc/api";
import type { Engine } from "../engine";
import { engineErrorToRpc } from "./errors";

export function engineApiOptions(engine: Engine): RpcApiOptions {
  return {
    // `serialize` refuses to start work once the simulator has stopped; `mapError` maps that too.
    around: (work) => engine.serialize(work),
    mapError: engineErrorToRpc,
  };
}

/**
 * For the methods that read only what no operation leaves half-changed (the head's number, the
 * chain ID, constants): with the engine's `unqueuedReads` (the HTTP node's), they answer at once,
 * beside a long call still running; otherwise in turn, like every method (Hardhat's order).
 */
export function engineHeadReadOptions(engine: Engine): RpcApiOptions {
  if (!engine.options.unqueuedReads) return engineApiOptions(engine);
  return { around: (work) => engine.atOnce(work), mapError: engineErrorToRpc };
}
