/**
 * Typed clients for a node's APIs: the exchange chain (`xvm` / `avm`), the contract chain's
 * extras (`cvm` / `avax`) and EVM extras, the keystore and the info API.
 *
 * ```ts
 * // from this module (src/clients)
 * const node = createNodeClient({ url: "http://127.0.0.1:9650" });              // seed names
 * const real = createNodeClient({ url: "http://127.0.0.1:9650", naming: "reference" }); // avm/avax
 *
 * await node.keystore.createUser(credentials);
 * const address = await node.xvm.createAddress({ credentials });
 * const { txID } = await node.xvm.export({ credentials, to: "C-local1…", amount: 10n ** 9n, assetID: "AVAX" });
 * await node.xvm.waitForTxStatus(txID);
 * ```
 */
import { type ContractChainClient, createContractChainClient } from "./cvm";
import { createInfoClient, type InfoClient } from "./info";
import { createKeystoreClient, type KeystoreClient } from "./keystore";
import { type Naming, namingScheme } from "./naming";
import { createTransport, type Transport, type TransportOptions } from "./transport";
import { createExchangeChainClient, type ExchangeChainClient } from "./xvm";

export interface NodeClientOptions extends TransportOptions {
  /** `"seed"` (default): xvm/cvm; `"reference"`: avm/avax, as real nodes name them. */
  naming?: Naming;
  /** Alias or blockchain ID of the exchange chain. Default `"X"`. */
  exchangeChain?: string;
  /** Alias or blockchain ID of the contract chain. Default `"C"`. */
  contractChain?: string;
  /** Use this transport instead of creating one from `url`, `fetch`, `timeoutMs` and `headers`. */
  transport?: Transport;
}

export interface NodeClient {
  readonly naming: Naming;
  readonly xvm: ExchangeChainClient;
  readonly cvm: ContractChainClient;
  readonly keystore: KeystoreClient;
  readonly info: InfoClient;
  readonly transport: Transport;
}

/** Clients for every API of the node at `options.url`, sharing one transport. */
export function createNodeClient(options: NodeClientOptions): NodeClient {
  const naming = namingScheme(options.naming).naming;
  const transport = options.transport ?? createTransport(options);
  return {
    naming,
    xvm: createExchangeChainClient({ transport, naming, chain: options.exchangeChain }),
    cvm: createContractChainClient({ transport, naming, chain: options.contractChain }),
    keystore: createKeystoreClient({ transport }),
    info: createInfoClient({ transport }),
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
export { DEFAULT_WAIT_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS, type WaitOptions } from "./internal";
export * from "./xvm";
export * from "./cvm";
export * from "./keystore";
export * from "./info";
export * from "./index-api";
export * from "./ipcs";
export * from "./admin";
