/** The platform chain's JSON-RPC service (/ext/bc/P): the query methods, the fee methods and the keystore users' methods, each as platform.<m>. */
import type { Keystore } from "../../keystore/keystore";
import { RpcApi } from "../../rpc";
import type { PlatformChain } from "../vm/chain";
import { createPlatformFeeApi } from "./fees";
import { createPlatformQueryApi } from "./queries";
import { createPlatformWalletApi } from "./wallet";

export function createPlatformChainApi(chain: PlatformChain, keystore: Keystore): RpcApi {
  return new RpcApi().include(createPlatformQueryApi(chain)).include(createPlatformFeeApi(chain)).include(createPlatformWalletApi(chain, keystore));
}

export { createPlatformQueryApi, PLATFORM_NAMESPACES } from "./queries";
export { createPlatformWalletApi } from "./wallet";
export { createPlatformFeeApi, getFeeConfig, getFeeState, type FeeConfigReply, type FeeStateReply } from "./fees";
export { platformQueryErrors, platformWalletErrors, pTxRejected } from "./errors";
