/** The net_ namespace: a single node on its own network. */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import type { Engine } from "../engine";
import { engineHeadReadOptions } from "./serve";

export function netApi(engine: Engine, options: RpcApiOptions): RpcApi {
  return new RpcApi(options)
    .include(
      new RpcApi(engineHeadReadOptions(engine))
        .positional("net_version", 0, () => String(engine.options.networkId))
        .positional("net_listening", 0, () => true),
    )
    .positional("net_peerCount", 0, () => "0x0");
}
