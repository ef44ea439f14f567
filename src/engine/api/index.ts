/**
 * The engine's JSON-RPC API: every namespace's methods on one `RpcApi`, each run one at a time
 * on the engine with its errors mapped to JSON-RPC errors (`serve.ts`). A request goes from
 * `dispatch` straight to the handler declared under its name in one of the namespace modules.
 */
import { RpcApi } from "../../rpc/api";
import type { Engine } from "../engine";
import { ethApi } from "./eth";
import { evmApi } from "./evm";
import { Filters, filtersApi } from "./filters";
import { hardhatApi } from "./hardhat";
import { nativekitApi } from "./nativekit";
import { netApi } from "./net";
import { engineApiOptions } from "./serve";
import { signingApi } from "./signing";
import { txpoolApi } from "./txpool";
import { web3Api } from "./web3";

export function createEngineApi(engine: Engine): RpcApi {
  const options = engineApiOptions(engine);
  const filters = new Filters(engine);
  return new RpcApi()
    .include(web3Api(options))
    .include(netApi(engine, options))
    .include(ethApi(engine, options, filters))
    .include(signingApi(engine, options))
    .include(filtersApi(engine, options, filters))
    .include(txpoolApi(engine, options))
    .include(evmApi(engine, options))
    .include(hardhatApi(engine, options))
    .include(nativekitApi(engine, options));
}
