/**
 * The engine's JSON-RPC API: every namespace's methods on one `RpcApi`, each run one at a time
 * on the engine with its errors mapped to JSON-RPC errors (`serve.ts`). A request goes from
 * `dispatch` straight to the handler declared under its name in one of the namespace modules.
 */
import { RpcApi } from "../../rpc/api";
import type { OpenSession } from "../../rpc/types";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import { debugApi } from "./debug";
import { anvilApi } from "./anvil";
import { ethApi } from "./eth";
import { evmApi } from "./evm";
import { Filters, filtersApi } from "./filters";
import { hardhatApi } from "./hardhat";
import { nativekitApi } from "./nativekit";
import { netApi } from "./net";
import { personalApi } from "./personal";
import { engineApiOptions, engineHeadReadOptions } from "./serve";
import { signingApi } from "./signing";
import { notificationsNotSupported, SubscriptionHub } from "./subscriptions";
import { txpoolApi } from "./txpool";
import { web3Api } from "./web3";

/** The engine's methods, and the sessions of lasting connections (which add subscriptions). */
export interface EngineApi {
  /**
   * Every method, as a connectionless transport (HTTP) serves them: eth_subscribe and
   * eth_unsubscribe answer that notifications are not supported.
   */
  readonly api: RpcApi<LockHeld>;
  /** A lasting connection's session: every method of `api`, and its own subscriptions. */
  readonly openSession: OpenSession;
}

export function createEngineApi(engine: Engine): EngineApi {
  const options = engineApiOptions(engine);
  const filters = new Filters(engine);
  const subscriptions = new SubscriptionHub(engine, options);
  const api = RpcApi.scoped(options)
    .include(web3Api(options, engineHeadReadOptions(engine)))
    .include(netApi(engine, options))
    .include(ethApi(engine, options, filters, subscriptions))
    .include(signingApi(engine, options))
    .include(personalApi(engine, options, filters, subscriptions))
    .include(filtersApi(engine, options, filters))
    .include(txpoolApi(engine, options))
    .include(evmApi(engine, options))
    .include(hardhatApi(engine, options))
    .include(anvilApi(engine, options, filters, subscriptions))
    .include(nativekitApi(engine, options))
    .include(debugApi(engine, options))
    .positionalMethods(undefined, {
      "eth_subscribe": [[1, 2], refuseSubscriptions],
      "eth_unsubscribe": [1, refuseSubscriptions],
    });
  return { api, openSession: (push) => subscriptions.open(push, api.dispatch) };
}

/** eth_subscribe and eth_unsubscribe where no lasting connection exists (HTTP). */
function refuseSubscriptions(): Promise<never> {
  return Promise.reject(notificationsNotSupported());
}
