import { deriveMnemonicKeys, DEFAULT_ACCOUNT_BALANCE, DEFAULT_ACCOUNT_COUNT, DEFAULT_HD_PATH, DEFAULT_MNEMONIC } from "../engine/accounts";
import { createNativeProvider, type EngineOptions, type NativeProvider } from "../engine";
import { SharedMemory } from "../atomic/shared-memory";
import { Keystore } from "../keystore/keystore";
import { createKeystoreApi } from "../keystore/api";
import { ExchangeChain } from "../xchain/vm";
import { createExchangeChainDispatch, createStaticXvmDispatch } from "../xchain/api";
import { localGenesis, type LocalGenesisOptions } from "../xchain/genesis";
import { createContractChainAtomicService } from "../cchain/api";
import { bytesToHex, decodePrivateKey, privateKeyToAddresses } from "../encoding";
import { providerDispatch } from "./http-server";
import type { Dispatch } from "../rpc/types";
import { createInfoApi } from "./info-api";
import { LOCAL_NETWORK, LOCAL_TEST_KEY, LOCAL_TEST_KEY_C_BALANCE, type NetworkIdentifiers } from "../network/constants";
import { PATHS } from "../network/paths";
import { type ManagementOptions, NodeManagement } from "./management";

export interface LocalNetworkOptions extends EngineOptions {
  /** Identifiers of the simulated network (default: the reference node's local network). */
  network?: NetworkIdentifiers;
  /** Fund the public local-network test key on both chains, as a real local network does (default true). */
  fundTestKey?: boolean;
  /** More funded exchange-chain addresses at genesis. */
  exchangeGenesis?: LocalGenesisOptions;
  /** The index, IPC and admin APIs and the node's log level (the node's flags; all off by default). */
  management?: ManagementOptions;
}

/**
 * A whole local network in one process: the contract chain (the engine), the exchange chain,
 * the shared atomic memory between them, the keystore and the info API, wired as one node.
 */
export class LocalNetwork {
  private constructor(
    readonly network: NetworkIdentifiers,
    readonly provider: NativeProvider,
    readonly exchange: ExchangeChain,
    readonly sharedMemory: SharedMemory,
    readonly keystore: Keystore,
    readonly routes: Record<string, Dispatch>,
    readonly management: NodeManagement,
  ) {}

  get engine() {
    return this.provider.engine;
  }

  static async create(options: LocalNetworkOptions = {}): Promise<LocalNetwork> {
    const { network = LOCAL_NETWORK, fundTestKey = true, exchangeGenesis, management: managementOptions, ...engineOptions } = options;
    const accounts = contractChainAccounts(engineOptions.accounts, fundTestKey);
    const provider = await createNativeProvider({ chainId: network.evmChainId, ...engineOptions, accounts });
    const sharedMemory = new SharedMemory();
    const keystore = new Keystore();
    const exchange = new ExchangeChain({ network, sharedMemory, genesis: localGenesis(network, exchangeGenesis) });
    // evm_snapshot / evm_revert / hardhat_reset move the whole network, not only the contract chain.
    provider.engine.addSnapshotCompanion(exchange);
    provider.engine.addSnapshotCompanion(sharedMemory);
    const atomic = createContractChainAtomicService({ engine: provider.engine, sharedMemory, keystore, network });
    const exchangeDispatch = createExchangeChainDispatch(exchange, keystore);
    const staticDispatch = createStaticXvmDispatch();
    const rpc = providerDispatch(provider);
    const routes: Record<string, Dispatch> = {
      [PATHS.contractRpc]: rpc,
      [PATHS.contractCvm]: atomic.dispatch,
      [PATHS.contractAvax]: atomic.dispatch,
      [`/ext/bc/${network.cChainId}/rpc`]: rpc,
      [`/ext/bc/${network.cChainId}/cvm`]: atomic.dispatch,
      [`/ext/bc/${network.cChainId}/avax`]: atomic.dispatch,
      [PATHS.exchange]: exchangeDispatch,
      [`/ext/bc/${network.xChainId}`]: exchangeDispatch,
      [PATHS.exchangeStaticSeed]: staticDispatch,
      [PATHS.exchangeStaticReference]: staticDispatch,
      [PATHS.keystore]: createKeystoreApi(keystore).dispatch,
      [PATHS.info]: createInfoApi(network, "0.1.0").dispatch,
    };
    const management = await NodeManagement.create({ network, engine: provider.engine, exchange }, managementOptions);
    Object.assign(routes, management.routes);
    return new LocalNetwork(network, provider, exchange, sharedMemory, keystore, routes, management);
  }

  /** Releases what the network holds outside memory: IPC sockets (and their files), index stores. */
  close(): Promise<void> {
    return this.management.close();
  }

  /** Lines telling a person about the exchange chain's funded key. */
  describeTestKey(): string[] {
    const key = decodePrivateKey(LOCAL_TEST_KEY);
    const addresses = privateKeyToAddresses(key, this.network.hrp);
    return [
      "Local test key (funded on both chains, public, for local networks only):",
      `  ${LOCAL_TEST_KEY}`,
      `  exchange chain ${addresses.exchange}   contract chain ${addresses.contract}`,
      `  import it with xvm.importKey / cvm.importKey after keystore.createUser at ${PATHS.keystore}`,
    ];
  }
}

/** The mnemonic accounts (or the given ones), plus the local test key with its contract-chain funds. */
function contractChainAccounts(accounts: EngineOptions["accounts"], fundTestKey: boolean): { privateKey: string; balance: bigint }[] {
  const base = Array.isArray(accounts)
    ? accounts.map((a) => ({ privateKey: a.privateKey, balance: a.balance }))
    : deriveMnemonicKeys(accounts?.mnemonic ?? DEFAULT_MNEMONIC, accounts?.count ?? DEFAULT_ACCOUNT_COUNT, accounts?.path ?? DEFAULT_HD_PATH).map((privateKey) => ({
        privateKey,
        balance: accounts?.balance ?? DEFAULT_ACCOUNT_BALANCE,
      }));
  if (!fundTestKey) return base;
  const testKey = bytesToHex(decodePrivateKey(LOCAL_TEST_KEY));
  if (base.some((a) => a.privateKey.toLowerCase() === testKey)) return base;
  return [...base, { privateKey: testKey, balance: LOCAL_TEST_KEY_C_BALANCE }];
}
