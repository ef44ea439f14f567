/**
 * One node's chains and APIs, in one process: the contract chain (the engine), the exchange and
 * platform chains, the shared atomic memory between them, the keystore, the management APIs
 * (auth, info, health) and the operator's (index, IPC, admin), with the paths they are served
 * on. Nothing here listens: `startNode` (./start-node.ts) serves a `NodeChains` over HTTP.
 */
import { fundedAccounts, type GenesisAccount } from "../engine/accounts";
import { createNativeProvider, type EngineOptions, type NativeProvider } from "../engine";
import { SharedMemory } from "../atomic/shared-memory";
import { Keystore } from "../keystore/keystore";
import { ExchangeChain } from "../xchain/vm";
import { localGenesis, type LocalGenesisOptions } from "../xchain/genesis";
import { ContractChainAtomics } from "../cchain";
import { PlatformChain, platformGenesis, type PlatformGenesisOptions } from "../pchain";
import { bytesToHex, decodePrivateKey, publicKeyToAddresses } from "../encoding";
import { publicKeyOf } from "../crypto/secp256k1";
import type { Dispatch, OpenSession } from "../rpc/types";
import { createManagement, type Management, type ManagementOptions } from "./management";
import { OperatorApis, type OperatorOptions } from "./operator-apis";
import { LOCAL_NETWORK, LOCAL_TEST_KEY, LOCAL_TEST_KEY_C_BALANCE, type NetworkIdentifiers } from "../network/constants";
import { PATHS } from "../network/paths";
import { openDataDirectory, type DataDirectory } from "../storage";
import type { PeerNetwork } from "./peers/peer-network";
import { followerWiring, openPeerNetwork, producerWiring, PEER_NETWORK_GENESIS_TIMESTAMP, type PeeringChains, type PeeringOptions } from "./peers/peering";
import { chainRoutes, contractChainWsRoutes } from "./chain-routes";

export interface NodeChainsOptions extends EngineOptions {
  /** Identifiers of the simulated network (default: the reference node's local network). */
  network?: NetworkIdentifiers;
  /** Fund the public local-network test key on both chains, as a real local network does (default true). */
  fundTestKey?: boolean;
  /** More funded exchange-chain addresses at genesis. */
  exchangeGenesis?: LocalGenesisOptions;
  /**
   * The node's management settings (its flags): auth, staking identity and node address for
   * auth/info/health, and the index, IPC and admin APIs with the log level (all off by default).
   */
  management?: NodeManagementOptions;
  /** The platform chain's genesis: multisig aliases (`parsePlatformGenesisJson` reads them from a genesis file), more funded addresses. */
  platformGenesis?: PlatformGenesisOptions;
  /**
   * The peer network (`--staking-port`, `--bootstrap-ips` ...): absent, the node has no peers;
   * with bootstrap peers, it follows the first it reaches (see `peers/peer-network.ts`).
   */
  peering?: PeeringOptions;
}

/** Every management setting of a node: auth, identity and address, and the operator's APIs. */
export type NodeManagementOptions = ManagementOptions & OperatorOptions;

/** The chains of one node and the memory and keystore they share, before any API is put on them. */
export interface OpenedChains {
  readonly provider: NativeProvider;
  readonly sharedMemory: SharedMemory;
  readonly keystore: Keystore;
  readonly exchange: ExchangeChain;
  readonly platform: PlatformChain;
  /** The contract chain's atomic transactions (imports and exports). */
  readonly atomics: ContractChainAtomics;
}

/** What a {@link NodeChains} is made of (see its fields). */
interface NodeChainsParts extends OpenedChains {
  readonly network: NetworkIdentifiers;
  readonly routes: Record<string, Dispatch>;
  readonly management: Management;
  readonly operator: OperatorApis;
  readonly wsRoutes: Record<string, OpenSession>;
  readonly data: DataDirectory | undefined;
  readonly peers: PeerNetwork | undefined;
}

export class NodeChains implements NodeChainsParts {
  readonly network: NetworkIdentifiers;
  readonly provider: NativeProvider;
  readonly exchange: ExchangeChain;
  readonly sharedMemory: SharedMemory;
  readonly keystore: Keystore;
  /** The JSON-RPC paths and their dispatch, management and operator APIs included. */
  readonly routes: Record<string, Dispatch>;
  /** Auth, info and health: also the GET routes and the token check the HTTP server needs. */
  readonly management: Management;
  /** Index, IPC and admin APIs and the node's leveled log. */
  readonly operator: OperatorApis;
  /**
   * WebSocket paths (`/ext/bc/C/ws` and `/ext/bc/<cChainId>/ws`) and their session openers:
   * the contract chain's JSON-RPC plus eth_subscribe, one session per connection.
   */
  readonly wsRoutes: Record<string, OpenSession>;
  /** The node's data directory (`--db-dir`), when it keeps its state. */
  readonly data: DataDirectory | undefined;
  /** The platform chain (/ext/bc/P); `onAccept` / `acceptedBlocks()` feed an index of its blocks. */
  readonly platform: PlatformChain;
  /** The peer network, started by `startPeers` once the HTTP API listens. */
  readonly peers: PeerNetwork | undefined;
  /** The contract chain's atomic transactions (imports and exports). */
  readonly atomics: ContractChainAtomics;

  private constructor(parts: NodeChainsParts) {
    this.network = parts.network;
    this.provider = parts.provider;
    this.exchange = parts.exchange;
    this.sharedMemory = parts.sharedMemory;
    this.keystore = parts.keystore;
    this.routes = parts.routes;
    this.management = parts.management;
    this.operator = parts.operator;
    this.wsRoutes = parts.wsRoutes;
    this.data = parts.data;
    this.platform = parts.platform;
    this.peers = parts.peers;
    this.atomics = parts.atomics;
  }

  /** Starts the peer network (when there is one): listening on the staking port, following a bootstrap peer. */
  async startPeers(httpUrl: string): Promise<void> {
    await this.peers?.start({ httpUrl, identity: await this.management.identity(), routes: this.routes });
  }

  get engine() {
    return this.provider.engine;
  }

  static async create(options: NodeChainsOptions = {}): Promise<NodeChains> {
    const { network = LOCAL_NETWORK, management, peering, ...engineOptions } = options;
    // Opened first: a directory of another network or format is refused before anything starts.
    const data = management?.dbDir === undefined ? undefined : await openDataDirectory(management.dbDir, { networkId: network.networkId, evmChainId: engineOptions.chainId ?? network.evmChainId });
    try {
      return await NodeChains.assemble({ ...options, network }, data);
    } catch (error) {
      await data?.close();
      throw error;
    }
  }

  private static async assemble(options: NodeChainsOptions & { network: NetworkIdentifiers }, data: DataDirectory | undefined): Promise<NodeChains> {
    const { network, management: managementOptions, peering } = options;
    const chains = await openChains(options, data);
    const { provider, exchange, platform, atomics } = chains;
    const routes = chainRoutes(network, chains, data !== undefined);
    const indexStorage = data === undefined ? undefined : { store: data.independentStore().namespace("index/"), hasRunBefore: !data.fresh };
    const containerIdStore = data?.independentStore().namespace("acceptance/C-ids/");
    const operator = await OperatorApis.create({ network, engine: provider.engine, exchange, platform }, { ...managementOptions, indexStorage, containerIdStore });
    const authStore = data?.independentStore().namespace("auth/");
    const peeringChains: PeeringChains = { network, engine: provider.engine, atomics, exchange, platform, data, logger: operator.logger };
    const peers = peering === undefined ? undefined : await openPeerNetwork(peering, peeringChains);
    const management = await createManagement(network, { ...routes, ...operator.routes }, { ...managementOptions, peers }, authStore);
    let served = { routes: management.routes, wsRoutes: contractChainWsRoutes(network, provider) };
    // A follower sends what would change state to its producer, and never mines on its own.
    if (peers !== undefined && !peers.producer) served = followerWiring(peers, peeringChains, served.routes, served.wsRoutes);
    else if (peers !== undefined) served = producerWiring(network, served.routes, served.wsRoutes);
    return new NodeChains({ ...chains, network, routes: served.routes, management, operator, wsRoutes: served.wsRoutes, data, peers });
  }

  /** Releases what the node holds outside memory: its peer connections, IPC sockets (and their files), index stores, the data directory. */
  async close(): Promise<void> {
    await this.peers?.close();
    await this.operator.close();
    await this.data?.close();
  }

  /** Lines telling a person about the exchange chain's funded key. */
  describeTestKey(): string[] {
    // libsecp256k1 (the engine's curve): the pure-JS curve's first use would build its tables at start.
    const addresses = publicKeyToAddresses(publicKeyOf(decodePrivateKey(LOCAL_TEST_KEY), true), this.network.hrp);
    return [
      "Local test key (funded on both chains, public, for local networks only):",
      `  ${LOCAL_TEST_KEY}`,
      `  exchange chain ${addresses.exchange}   contract chain ${addresses.contract}`,
      `  import it with xvm.importKey / cvm.importKey after keystore.createUser at ${PATHS.keystore}`,
    ];
  }
}

/**
 * Opens the chains on `data`'s store, or in memory without one. With a data directory the
 * chains keep their state under their own namespaces, all committed through one staging: a
 * contract-chain block and what it did to the atomic memory land together. The keystore, whose
 * changes stand alone, commits on a staging of its own.
 */
async function openChains(options: NodeChainsOptions & { network: NetworkIdentifiers }, data: DataDirectory | undefined): Promise<OpenedChains> {
  const { network, fundTestKey = true, exchangeGenesis, platformGenesis: pGenesis, peering, management: _management, ...given } = options;
  // Nodes of one network must start from the same genesis block: its time is fixed, not the start's.
  const genesis = peering === undefined || given.genesisTimestamp !== undefined ? {} : { genesisTimestamp: PEER_NETWORK_GENESIS_TIMESTAMP };
  const engineOptions: EngineOptions = { ...given, ...genesis };
  const accounts = contractChainAccounts(engineOptions.accounts, fundTestKey);
  const store = data?.store;
  // A fork takes the remote's chain ID unless one is given.
  const chainId = engineOptions.forking === undefined ? { chainId: network.evmChainId } : {};
  // A node answers many clients: cheap reads do not wait behind one client's long call.
  const provider = await createNativeProvider({ ...chainId, unqueuedReads: true, ...engineOptions, accounts, store: store?.namespace("c/") });
  const sharedMemory = store === undefined ? new SharedMemory() : await SharedMemory.open(store.namespace("atomic/"));
  const keystore = data === undefined ? new Keystore() : await Keystore.open(data.independentStore().namespace("keystore/"));
  // Its transactions are read from the store when asked for, through a cache of the same size as the blocks'.
  const exchangeStore = { store: store?.namespace("x/"), txCacheSize: given.storeCaches?.blocks };
  const exchange = await ExchangeChain.open({ network, sharedMemory, genesis: localGenesis(network, exchangeGenesis), ...exchangeStore });
  // evm_snapshot / evm_revert / hardhat_reset move the whole network, not only the contract chain.
  // Restored from a data directory, they cannot go back to genesis: hardhat_reset then refuses.
  const atStart = data === undefined || data.fresh;
  provider.engine.addSnapshotCompanion(exchange, { name: "exchange chain", atStart });
  provider.engine.addSnapshotCompanion(sharedMemory, { name: "atomic memory", atStart });
  const platformStore = { store: store?.namespace("p/"), acceptedCacheSize: given.storeCaches?.blocks };
  const platform = await PlatformChain.open({ network, sharedMemory, genesis: platformGenesis(network, { fundTestKey, ...pGenesis }), ...platformStore });
  provider.engine.addSnapshotCompanion(platform, { name: "platform chain", atStart });
  const atomics = await ContractChainAtomics.open({ host: provider.engine, sharedMemory, network, store: store?.namespace("cvm/") });
  return { provider, sharedMemory, keystore, exchange, platform, atomics };
}

/** The mnemonic accounts (or the given ones), plus the local test key with its contract-chain funds. */
function contractChainAccounts(accounts: EngineOptions["accounts"], fundTestKey: boolean): GenesisAccount[] {
  const testKey = { privateKey: bytesToHex(decodePrivateKey(LOCAL_TEST_KEY)), balance: LOCAL_TEST_KEY_C_BALANCE };
  return fundedAccounts(accounts, fundTestKey ? [testKey] : []);
}
