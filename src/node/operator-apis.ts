import { createAdminApi } from "./admin/api";
import { Profiler, defaultProfileDir } from "./admin/profiler";
import type { Engine } from "../engine";
import { encodeCb58 } from "../encoding";
import { createIndexApi } from "./indexer/api";
import { ContainerIndex, nanosecondClock } from "./indexer/container-index";
import { planIndexStart, readIndexHistory, stageIndexHistory, type IndexStartPlan } from "./indexer/completeness";
import { DurableIndexStore } from "./indexer/durable-index-store";
import { MemoryIndexStore } from "./indexer/memory-store";
import type { IndexStore } from "./indexer/store";
import { StoredContainerIds } from "./indexer/stored-container-ids";
import type { DurableStore } from "../storage";
import { createIpcsApi } from "./ipcs/api";
import { ChainIpcs, DEFAULT_IPCS_PATH } from "./ipcs/chain-ipcs";
import { ChainDirectory } from "../network/chains";
import type { NetworkIdentifiers } from "../network/constants";
import { INDEX_PATHS, PATHS, type IndexName } from "../network/paths";
import type { Dispatch } from "../rpc/types";
import type { ExchangeChain } from "../xchain/vm";
import { engineBlocks, NodeAcceptance, type AcceptanceSources } from "./acceptance";
import { type LogLevel, NodeLogger } from "./logger";

/**
 * The operator's APIs of a node, built on what its chains accept and wired from options (the
 * node's flags): the index API (`--index-enabled`), the IPC API (`--api-ipcs-enabled`,
 * `--ipcs-path`) and the contract chain's admin API (`--chainevm-admin-api-enabled`), plus the
 * node's leveled log that `admin.setLogLevel` changes. (Auth, info and health: management.ts.)
 *
 *   const operator = await OperatorApis.create({ network, engine, exchange }, { indexEnabled: true });
 *   routes = { ...routes, ...operator.routes };
 *   ...
 *   await operator.close();   // closes the IPC sockets (removing their files) and the index stores
 */
export interface OperatorOptions {
  /** Serve `/ext/index/{X/tx, X/vtx, P/block, C/block}` and index every container accepted from now on. */
  indexEnabled?: boolean;
  /**
   * Keep the indexes in the node's data directory (`--db-dir`), under the completeness rules
   * (`indexer/completeness.ts`): a store with a staging of its own (an index entry commits at
   * once, never with a block half-staged), and whether the directory held a node's data before.
   * Absent: in memory, forgotten at exit.
   */
  indexStorage?: { store: DurableStore; hasRunBefore: boolean };
  /**
   * Where the contract chain's container IDs are kept (`--db-dir`: a store with a staging of its
   * own), so that the first block announced after a restart finds its parent's ID by one read.
   * Absent: found by reading the chain back when a parent's ID is not remembered.
   */
  containerIdStore?: DurableStore;
  /** `--index-allow-incomplete`: start even though an index is, or would become, incomplete. */
  indexAllowIncomplete?: boolean;
  /** Serve `/ext/ipcs`. */
  ipcsEnabled?: boolean;
  /** Directory of the IPC socket files (default /tmp). */
  ipcsPath?: string;
  /** Largest output an IPC reader may leave unread before it is dropped (default 16 MiB). */
  ipcsMaxBufferedBytes?: number;
  /** Serve `/ext/bc/C/admin`. */
  adminApiEnabled?: boolean;
  /** Directory of the admin API's profiles (default `<tmp>/nativekit-<pid>/profiles`). */
  profileDir?: string;
  /** Receives the node's log lines (default: discarded). */
  log?: (line: string) => void;
  /** Initial log level (default info). */
  logLevel?: LogLevel;
}

/** The parts of the node the management APIs observe. */
export interface ManagedNode {
  network: NetworkIdentifiers;
  engine: Engine;
  exchange: ExchangeChain;
  /** The platform chain's blocks, when the node has one. */
  platform?: AcceptanceSources["platform"];
}

/** Which acceptances feed each index (none for the vertex index: this simulator accepts no vertices). */
const INDEX_FEEDS: Readonly<Record<IndexName, { chain: "X" | "C" | "P"; stream: "consensus" | "decisions" } | undefined>> = {
  exchangeTx: { chain: "X", stream: "decisions" },
  exchangeVertex: undefined,
  platformBlock: { chain: "P", stream: "consensus" },
  contractBlock: { chain: "C", stream: "consensus" },
};

export class OperatorApis {
  private constructor(
    readonly logger: NodeLogger,
    /** The APIs to serve, by path (only the enabled ones). */
    readonly routes: Record<string, Dispatch>,
    readonly indexes: ReadonlyMap<IndexName, ContainerIndex>,
    readonly ipcs: ChainIpcs | undefined,
    readonly profiler: Profiler | undefined,
    private readonly acceptance: NodeAcceptance | undefined,
    private readonly keptContainerIds: StoredContainerIds | undefined,
  ) {}

  static async create(node: ManagedNode, options: OperatorOptions = {}): Promise<OperatorApis> {
    const logger = new NodeLogger(options.log, options.logLevel ?? "info");
    const { engine, exchange, network } = node;
    // The chains are observed only for the APIs that need their acceptances.
    const observing = options.indexEnabled === true || options.ipcsEnabled === true;
    const keptContainerIds = observing && options.containerIdStore !== undefined ? new StoredContainerIds(options.containerIdStore, logger.at("error")) : undefined;
    const acceptance = observing
      ? new NodeAcceptance({ contract: engineBlocks(engine), exchange, platform: node.platform, report: logger.at("error") }, { keptContainerIds })
      : undefined;
    acceptance?.on("C", "consensus", (c) => logger.write("debug", `C: accepted block ${encodeCb58(c.id)}`));
    acceptance?.on("X", "decisions", (c) => logger.write("debug", `X: accepted transaction ${encodeCb58(c.id)}`));
    const routes: Record<string, Dispatch> = {};
    const chains = new ChainDirectory(network);

    const plans = await planIndexes(options);
    const indexes = options.indexEnabled === true && acceptance !== undefined ? await openIndexes(acceptance, options, plans) : new Map<IndexName, ContainerIndex>();
    for (const [name, index] of indexes) routes[INDEX_PATHS[name]] = createIndexApi(index).dispatch;

    let ipcs: ChainIpcs | undefined;
    if (options.ipcsEnabled === true && acceptance !== undefined) {
      ipcs = new ChainIpcs({
        directory: options.ipcsPath ?? DEFAULT_IPCS_PATH,
        networkId: network.networkId,
        acceptance,
        maxBufferedBytes: options.ipcsMaxBufferedBytes,
        onDrop: logger.at("warn"),
      });
      routes[PATHS.ipcs] = createIpcsApi(ipcs, chains).dispatch;
    }

    let profiler: Profiler | undefined;
    if (options.adminApiEnabled === true) {
      profiler = new Profiler(options.profileDir ?? defaultProfileDir());
      logger.write("info", `admin API at ${PATHS.contractAdmin}: profiles are written to ${profiler.directory}`);
      const adminProfiler = profiler;
      const vmConfig = () => adminVmConfig(engine, logger, options, adminProfiler);
      routes[PATHS.contractAdmin] = createAdminApi({ logger, profiler, vmConfig }).dispatch;
    }

    return new OperatorApis(logger, routes, indexes, ipcs, profiler, acceptance, keptContainerIds);
  }

  /** Lines telling a person where the enabled APIs are (for the node's banner). */
  describe(): string[] {
    const lines: string[] = [];
    if (this.indexes.size > 0) lines.push(`Index API: ${Object.values(INDEX_PATHS).join(", ")}`);
    if (this.ipcs !== undefined) lines.push(`IPC API: ${PATHS.ipcs}`);
    if (this.profiler !== undefined) lines.push(`Admin API: ${PATHS.contractAdmin} (profiles in ${this.profiler.directory})`);
    return lines;
  }

  /** Stops observing the chains, closes the IPC sockets (removing their files), the profiler and the index stores. */
  async close(): Promise<void> {
    this.acceptance?.close();
    await this.keptContainerIds?.written();
    await this.ipcs?.close();
    this.profiler?.close();
    await Promise.all([...this.indexes.values()].map((index) => index.close()));
  }
}

/**
 * One index per index path, fed with what its chain accepts from now on (and, when the
 * completeness plan says so, with what it accepted before).
 */
async function openIndexes(
  acceptance: NodeAcceptance,
  options: OperatorOptions,
  plans: ReadonlyMap<"X" | "P" | "C", IndexStartPlan>,
): Promise<Map<IndexName, ContainerIndex>> {
  const indexes = new Map<IndexName, ContainerIndex>();
  const clock = nanosecondClock();
  for (const name of Object.keys(INDEX_PATHS) as IndexName[]) {
    const store: IndexStore =
      options.indexStorage === undefined ? new MemoryIndexStore() : await DurableIndexStore.open(options.indexStorage.store.namespace(`${indexFolder(name)}/`));
    const index = new ContainerIndex(store, clock);
    const feed = INDEX_FEEDS[name];
    if (feed !== undefined) {
      // What the chains accepted while the index did not see it, before what they accept from now
      // on: read from the chain after the containers the index already holds.
      if (plans.get(feed.chain)?.catchUp === true) {
        const last = await index.last();
        const held = last === undefined ? undefined : { count: last.index + 1n, last };
        for (const c of acceptance.acceptedSoFar(feed.chain, held)) index.accept(c.id, c.bytes);
      }
      acceptance.on(feed.chain, feed.stream, (c) => index.accept(c.id, c.bytes));
    }
    indexes.set(name, index);
  }
  return indexes;
}

/** The contract chain's configuration as `admin.getVMConfig` reports it. */
function adminVmConfig(engine: Engine, logger: NodeLogger, options: OperatorOptions, profiler: Profiler): Record<string, unknown> {
  return {
    "admin-api-enabled": true,
    "log-level": logger.level,
    "chain-id": engine.options.chainId,
    "network-id": engine.options.networkId,
    hardfork: engine.options.hardfork,
    "gas-limit": String(engine.options.blockGasLimit),
    "min-base-fee": String(engine.options.minBaseFeePerGas),
    automine: engine.options.automine,
    coinbase: engine.options.coinbase,
    "allow-unlimited-contract-size": engine.options.allowUnlimitedContractSize,
    "index-enabled": options.indexEnabled === true,
    "api-ipcs-enabled": options.ipcsEnabled === true,
    "profile-dir": profiler.directory,
  };
}

/** An index's folder in the data directory: `X-tx`, `C-block`, ... */
function indexFolder(name: IndexName): string {
  return INDEX_PATHS[name].slice("/ext/index/".length).replace("/", "-");
}

/**
 * Applies the completeness rules to each chain's index of a node with a data directory (throws
 * to refuse the start), and records this start's history before anything is indexed.
 */
async function planIndexes(options: OperatorOptions): Promise<Map<"X" | "P" | "C", IndexStartPlan>> {
  const plans = new Map<"X" | "P" | "C", IndexStartPlan>();
  const storage = options.indexStorage;
  if (storage === undefined) return plans;
  const settings = { enabled: options.indexEnabled === true, allowIncomplete: options.indexAllowIncomplete === true, hasRunBefore: storage.hasRunBefore };
  for (const alias of ["X", "P", "C"] as const) plans.set(alias, planIndexStart(alias, await readIndexHistory(storage.store, alias), settings));
  for (const [alias, plan] of plans) stageIndexHistory(storage.store, alias, plan.record);
  await storage.store.commit();
  return plans;
}
