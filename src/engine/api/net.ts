/** The net_ namespace: a single node on its own network. */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import { engineHeadReadOptions, type EngineContext } from "./serve";

export function netApi(engine: Engine, options: RpcApiOptions<LockHeld>): RpcApi<LockHeld> {
  const context: EngineContext = { engine };
  return RpcApi.scoped(options)
    .include(
      RpcApi.scoped(engineHeadReadOptions(engine)).positionalMethods(context, {
        "net_version": [0, version],
        "net_listening": [0, listening],
      }),
    )
    .positionalMethods(context, { net_peerCount: [0, peerCount] });
}

/** The network ID, in decimal. */
function version({ engine }: EngineContext): string {
  return String(engine.options.networkId);
}

function listening(): true {
  return true;
}

function peerCount(): string {
  return "0x0";
}
