/**
 * Everything the explorer asks of the node, over its HTTP APIs only (so it works against a real
 * node): the network's identity (info API, the exchange chain's native asset), the three indexes,
 * the contract chain's blocks and receipts (`/ext/bc/C/rpc`), and the transactions an index does
 * not carry (genesis transactions of the exchange chain, the contract chain's atomic ones).
 * A node started with --api-auth-required gets the explorer's token with every call; the paths
 * it calls are {@link EXPLORER_NODE_PATHS}, the endpoints a token for the explorer must open.
 */
import {
  createExchangeChainClient,
  createIndexClient,
  createInfoClient,
  createContractChainClient,
  createPlatformChainClient,
  createTransport,
  decodeNodeBytes,
  type FetchFunction,
  type IndexClient,
  type JsonValue,
  NodeApiError,
  NodeConnectionError,
  type NodeTokenSource,
  PLATFORM_PATH,
  type Transport,
  withTokenSource,
} from "../../../clients";
import { INDEX_PATHS, PATHS } from "../../../network/paths";
import type { ExplorerContext } from "../context";

/** The indexes the explorer follows, by their name in `explorer_containers`. */
export const EXPLORER_INDEXES = { "X-tx": "X/tx", "P-block": "P/block", "C-block": "C/block" } as const;
export type ExplorerIndexName = keyof typeof EXPLORER_INDEXES;

export type JsonObject = { [key: string]: JsonValue };

export interface NodeSource {
  readonly url: string;
  readonly transport: Transport;
  index(name: ExplorerIndexName): IndexClient;
  readContext(): Promise<ExplorerContext>;
  /** `eth_getBlockByNumber(number, true)`; null when the node has no such block. */
  contractBlock(number: bigint): Promise<JsonObject | null>;
  contractReceipt(hash: string): Promise<JsonObject | null>;
  /** Signed bytes of an exchange-chain transaction, or undefined when the node does not know it. */
  exchangeTx(id: string): Promise<Uint8Array | undefined>;
  /** The platform chain's UTXOs of an address (bech32 with the `P-` prefix), as bytes. */
  platformUtxos(address: string): Promise<Uint8Array[]>;
  /** A contract-chain atomic transaction and its block height, or undefined. */
  atomicTx(id: string): Promise<{ bytes: Uint8Array; blockHeight: bigint | undefined } | undefined>;
}

const CONTRACT_RPC = PATHS.contractRpc;

/**
 * Every path the explorer calls on the node: the info API, the three chains' APIs (the contract
 * chain's JSON-RPC and its extras under the seed's naming) and the three indexes it follows. A
 * token made for these (`auth.newToken(password, EXPLORER_NODE_PATHS)`) opens all the explorer
 * needs and nothing else; a call elsewhere is refused here before it is sent (see `limitedTo`).
 */
export const EXPLORER_NODE_PATHS: readonly string[] = [
  PATHS.info,
  PATHS.exchange,
  PLATFORM_PATH,
  PATHS.contractRpc,
  PATHS.contractCvm,
  INDEX_PATHS.exchangeTx,
  INDEX_PATHS.platformBlock,
  INDEX_PATHS.contractBlock,
];

/** The bech32 prefix of a network's addresses, as the reference node names them. */
export function hrpOfNetwork(networkId: number): string {
  const known: Record<number, string> = { 1: "avax", 2: "cascade", 3: "denali", 4: "everest", 5: "fuji", 12345: "local" };
  return known[networkId] ?? "custom";
}

/**
 * Every call the explorer makes is a read, so one that meets a closed connection (a kept-alive
 * socket the node dropped while the explorer was busy) is sent once more before it fails.
 */
function retryingOnce(transport: Transport): Transport {
  return {
    url: transport.url,
    call: (path, method, params, options) =>
      transport.call(path, method, params, options).catch((error: unknown) => {
        if (error instanceof NodeConnectionError) return transport.call(path, method, params, options);
        throw error;
      }),
  };
}

/**
 * Keeps {@link EXPLORER_NODE_PATHS} true: a call to a path it does not list is a fault of the
 * explorer (a token made from the list would not open it), thrown at once in every test.
 */
function limitedTo(paths: readonly string[], transport: Transport): Transport {
  return {
    url: transport.url,
    call: (path, method, params, options) => {
      if (!paths.includes(path)) return Promise.reject(new Error(`the explorer called ${method} at ${path}, a path EXPLORER_NODE_PATHS does not list: a token made for the explorer would not open it`));
      return transport.call(path, method, params, options);
    },
  };
}

/**
 * The node at `nodeUrl` as the explorer reads it; `nodeToken` (a token, or a function asked for
 * one at first and again after a 401) is sent with every call to a node requiring auth.
 */
export function createNodeSource(nodeUrl: string, fetch?: FetchFunction, nodeToken?: NodeTokenSource): NodeSource {
  const transport = limitedTo(EXPLORER_NODE_PATHS, retryingOnce(withTokenSource(createTransport({ url: nodeUrl, fetch }), nodeToken)));
  const info = createInfoClient({ transport });
  const xvm = createExchangeChainClient({ transport });
  const cvm = createContractChainClient({ transport });
  const platform = createPlatformChainClient({ transport });
  const indexes = new Map<ExplorerIndexName, IndexClient>();
  const unknownId = (error: unknown) => error instanceof NodeApiError;
  return {
    url: transport.url,
    transport,
    index: (name) => {
      let client = indexes.get(name);
      if (client === undefined) indexes.set(name, (client = createIndexClient({ transport, index: EXPLORER_INDEXES[name], encoding: "hex" })));
      return client;
    },
    readContext: async () => {
      const networkId = await info.getNetworkID();
      const [X, P, C, native] = await Promise.all([
        info.getBlockchainID("X"),
        info.getBlockchainID("P"),
        info.getBlockchainID("C"),
        xvm.getAssetDescription({ assetID: "AVAX" }),
      ]);
      return { networkId, hrp: hrpOfNetwork(networkId), nativeAssetId: native.assetID, chains: { X, P, C } };
    },
    contractBlock: async (number) => (await transport.call(CONTRACT_RPC, "eth_getBlockByNumber", [`0x${number.toString(16)}`, true])) as JsonObject | null,
    contractReceipt: async (hash) => (await transport.call(CONTRACT_RPC, "eth_getTransactionReceipt", [hash])) as JsonObject | null,
    exchangeTx: async (id) => {
      try {
        const answer = await xvm.getTx({ txID: id, encoding: "hex" });
        return decodeNodeBytes(answer.tx as string, "hex");
      } catch (error) {
        if (unknownId(error)) return undefined;
        throw error;
      }
    },
    platformUtxos: async (address) => {
      const utxos: Uint8Array[] = [];
      for await (const utxo of platform.iterateUTXOs({ addresses: [address], encoding: "hex" })) utxos.push(decodeNodeBytes(utxo, "hex"));
      return utxos;
    },
    atomicTx: async (id) => {
      try {
        const answer = await cvm.getAtomicTx({ txID: id, encoding: "hex" });
        return { bytes: decodeNodeBytes(answer.tx, "hex"), blockHeight: answer.blockHeight };
      } catch (error) {
        if (unknownId(error)) return undefined;
        throw error;
      }
    },
  };
}
