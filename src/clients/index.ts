// src/clients: typed clients of a node's JSON-RPC APIs, on one call core (call.ts) and one UTXO paging core (utxos.ts).
/**
 * Typed clients for a node's APIs: the exchange chain (`xvm` / `avm`), the contract chain's
 * extras (`cvm` / `avax`) and EVM extras, the keystore, info, health and auth APIs.
 *
 * ```ts
 * // from this module (src/clients)
 * const node = createNodeClient({ url: "http://127.0.0.1:9650" });              // xvm/cvm
 * const real = createNodeClient({ url: "http://127.0.0.1:9650", naming: "reference" }); // avm/avax
 *
 * await node.keystore.createUser(credentials);
 * const address = await node.xvm.createAddress({ credentials });
 * const { txID } = await node.xvm.export({ credentials, to: "C-local1…", amount: 10n ** 9n, assetID: "AVAX" });
 * await node.xvm.waitForTxStatus(txID);
 * ```
 */
import { type AuthClient, createAuthClient } from "./auth";
import { withBearerToken } from "./bearer";
import { type ContractChainClient, createContractChainClient } from "./cvm";
import { createHealthClient, type HealthClient } from "./health";
import { createInfoClient, type InfoClient } from "./info";
import { createKeystoreClient, type KeystoreClient } from "./keystore";
import { type Naming, namingScheme } from "./naming";
import { createTransport, type Transport, type TransportOptions } from "./transport";
import { createExchangeChainClient, type ExchangeChainClient } from "./xvm";

export interface NodeClientOptions extends TransportOptions {
  /** `"nativekit"` (default): xvm/cvm; `"reference"`: avm/avax, as real nodes name them (`"seed"`: deprecated, as `"nativekit"`). */
  naming?: Naming;
  /** Alias or blockchain ID of the exchange chain. Default `"X"`. */
  exchangeChain?: string;
  /** Alias or blockchain ID of the contract chain. Default `"C"`. */
  contractChain?: string;
  /** Use this transport instead of creating one from `url`, `fetch`, `timeoutMs` and `headers`. */
  transport?: Transport;
  /** A token of the node's auth API, sent as `Authorization: Bearer <token>` with every call. */
  authToken?: string;
}

export interface NodeClient {
  readonly naming: Naming;
  readonly xvm: ExchangeChainClient;
  readonly cvm: ContractChainClient;
  readonly keystore: KeystoreClient;
  readonly info: InfoClient;
  readonly health: HealthClient;
  readonly auth: AuthClient;
  /** Sends `Authorization: Bearer <token>` with every later call of these clients (undefined: none). */
  setAuthToken(token: string | undefined): void;
  readonly transport: Transport;
}

/** Clients for every API of the node at `options.url`, sharing one transport. */
export function createNodeClient(options: NodeClientOptions): NodeClient {
  const naming = namingScheme(options.naming).naming;
  const bearer = withBearerToken(options.transport ?? createTransport(options), options.authToken);
  const transport = bearer.transport;
  return {
    naming,
    xvm: createExchangeChainClient({ transport, naming, chain: options.exchangeChain }),
    cvm: createContractChainClient({ transport, naming, chain: options.contractChain }),
    keystore: createKeystoreClient({ transport }),
    info: createInfoClient({ transport }),
    health: createHealthClient({ transport }),
    auth: createAuthClient({ transport }),
    setAuthToken: (token) => bearer.setAuthToken(token),
    transport,
  };
}

export {
  type CallOptions,
  createTransport,
  DEFAULT_TIMEOUT_MS,
  type FetchFunction,
  type Transport,
  type TransportOptions,
} from "./transport";
export {
  checkChain,
  DEFAULT_CONTRACT_CHAIN,
  DEFAULT_EXCHANGE_CHAIN,
  DEFAULT_NAMING,
  INFO_PATH,
  KEYSTORE_PATH,
  type Naming,
  NAMINGS,
  type NamingScheme,
  namingScheme,
} from "./naming";
export {
  type CallContext,
  NodeApiError,
  NodeClientError,
  NodeConnectionError,
  NodeHttpError,
  NodeResponseError,
  NodeTimeoutError,
  TxRejectedError,
  TxStatusError,
  TxWaitTimeoutError,
} from "./errors";
export { BYTE_ENCODINGS, type ByteEncoding, decodeNodeBytes, encodeNodeBytes } from "./bytes";
export { type JsonObject, type JsonRpcParams, type JsonValue, parseJsonLossless } from "./json";
export {
  type Credentials,
  type EncodedBytes,
  MAX_UTXOS_PER_PAGE,
  type RequestOptions,
  type SpendOptions,
  type TxIDChangeAddr,
  type UTXOIndex,
  type UTXOPage,
} from "./types";
export { DEFAULT_WAIT_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS, type WaitOptions } from "./call";
export * from "./xvm";
export * from "./cvm";
export * from "./keystore";
export * from "./info";
export * from "./auth";
export * from "./health";
export { type BearerTransport, withBearerToken } from "./bearer";
export { NODE_TOKEN_ENV, type NodeTokenSource, withTokenSource } from "./token-source";
export * from "./index-api";
export * from "./ipcs";
export * from "./admin";
export * from "./platform";
export * from "./vault";
export * from "./runner";
