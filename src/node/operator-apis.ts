import * as path from "node:path";
import { createAdminApi } from "./admin/api";
import { Profiler, defaultProfileDir } from "./admin/profiler";
import type { Engine } from "../engine";
import type { BlockRecord } from "../engine/chain";
import { encodeCb58 } from "../encoding";
import { createIndexApi } from "./indexer/api";
import { ContainerIndex, nanosecondClock } from "./indexer/container-index";
import { MemoryIndexStore } from "./indexer/memory-store";
import type { IndexStore } from "./indexer/store";
import { createIpcsApi } from "./ipcs/api";
import { ChainIpcs, DEFAULT_IPCS_PATH } from "./ipcs/chain-ipcs";
import { ChainDirectory } from "../network/chains";
import type { NetworkIdentifiers } from "../network/constants";
import { INDEX_PATHS, PATHS, type IndexName } from "../network/paths";
import type { Dispatch } from "../rpc/types";
import type { ExchangeChain } from "../xchain/vm";
import { NodeAcceptance } from "./acceptance";
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
   * Keep the indexes in LevelDB under this directory (one database per index, `index-X-tx`, ...),
   * so they survive a restart; absent: in memory.
   */
  indexDbDir?: string;
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
}

/** Which acceptances feed each index (none for the vertex and platform indexes: nothing is accepted there). */
const INDEX_FEEDS: Readonly<Record<IndexName, { chain: "X" | "C"; stream: "consensus" | "decisions" } | undefined>> = {
  exchangeTx: { chain: "X", stream: "decisions" },
  exchangeVertex: undefined,
  platformBlock: undefined,
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
  ) {}

  static async create(node: ManagedNode, options: OperatorOptions = {}): Promise<OperatorApis> {
    const logger = new NodeLogger(options.log, options.logLevel ?? "info");
    const { engine, exchange, network } = node;
    // The chains are observed only for the APIs that need their acceptances.
    const acceptance =
      options.indexEnabled === true || options.ipcsEnabled === true
        ? new NodeAcceptance({
            contract: { onBlock: (listener) => engine.onBlock(listener), blocks: () => chainBlocks(engine) },
            exchange,
            report: logger.at("error"),
          })
        : undefined;
    acceptance?.on("C", "consensus", (c) => logger.write("debug", `C: accepted block ${encodeCb58(c.id)}`));
    acceptance?.on("X", "decisions", (c) => logger.write("debug", `X: accepted transaction ${encodeCb58(c.id)}`));
    const routes: Record<string, Dispatch> = {};
    const indexes = new Map<IndexName, ContainerIndex>();
    const chains = new ChainDirectory(network);

    if (options.indexEnabled === true && acceptance !== undefined) {
      // LevelDB (a native module) is loaded only by a node that keeps its indexes on disk.
      const clock = nanosecondClock();
      for (const name of Object.keys(INDEX_PATHS) as IndexName[]) {
        const store: IndexStore =
          options.indexDbDir === undefined
            ? new MemoryIndexStore()
            : await (await import("./indexer/level-store")).LevelIndexStore.open(path.join(options.indexDbDir, `index-${INDEX_PATHS[name].slice("/ext/index/".length).replace("/", "-")}`));
        const index = new ContainerIndex(store, clock);
        const feed = INDEX_FEEDS[name];
        if (feed !== undefined) acceptance.on(feed.chain, feed.stream, (c) => index.accept(c.id, c.bytes));
        indexes.set(name, index);
        routes[INDEX_PATHS[name]] = createIndexApi(index).dispatch;
      }
    }

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
      const vmConfig = () => ({
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
        "profile-dir": profiler?.directory,
      });
      routes[PATHS.contractAdmin] = createAdminApi({ logger, profiler, vmConfig }).dispatch;
    }

    return new OperatorApis(logger, routes, indexes, ipcs, profiler, acceptance);
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
    await this.ipcs?.close();
    this.profiler?.close();
    await Promise.all([...this.indexes.values()].map((index) => index.close()));
  }
}

function* chainBlocks(engine: Engine): Iterable<BlockRecord> {
  const head = engine.head.number;
  for (let n = 0n; n <= head; n++) yield engine.resolveBlock(n);
}
