/**
 * How the engine serves every JSON-RPC method: one call at a time on the engine (its
 * `serialize`), with the engine's errors mapped to JSON-RPC errors. Each namespace module
 * declares its methods on `RpcApi.scoped` with these options; a method gets the proof that it
 * runs inside the engine's lock as its scope.
 */
import type { RpcApiOptions } from "../../rpc/api";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import { engineErrorToRpc } from "./errors";

export function engineApiOptions(engine: Engine): RpcApiOptions<LockHeld> {
  return {
    // `serialize` refuses to start work once the simulator has stopped; `mapError` maps that too.
    around: (work) => engine.serialize(work),
    mapError: engineErrorToRpc,
  };
}

/**
 * For the methods that read only what no operation leaves half-changed (the head's number, the
 * chain ID, constants): with the engine's `unqueuedReads` (the HTTP node's), they answer at once,
 * beside a long call still running, holding nothing; otherwise in turn, like every method
 * (Hardhat's order).
 */
export function engineHeadReadOptions(engine: Engine): RpcApiOptions<LockHeld | undefined> {
  if (!engine.options.unqueuedReads) return engineApiOptions(engine);
  return { around: (work) => engine.atOnce(work), mapError: engineErrorToRpc };
}

/** The context of the methods that need only the engine (each namespace's own extends it). */
export interface EngineContext {
  readonly engine: Engine;
}
