import { getAddress } from "ethers";
import { runCli, processSignals, type CliNode } from "./cli";
import type { LocalNetworkOptions, NodeManagementOptions } from "../node/local-network";
import { type CreateNodeOptions, DEFAULT_API_MAX_BLOCKS_PER_REQUEST, DEFAULT_API_MAX_LOGS_PER_REQUEST } from "./node-flags";
import { createLocalNode } from "../node/local-node";
import { LOCAL_NETWORK } from "../network/constants";
import { readGenesisFile } from "../node/genesis-file";
import { DEFAULT_PUBLIC_IP } from "../node/management";

/** Entry point of the `nativekit` command. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runCli(argv, {
    createNode: async (options, log) =>
      startCliNode({
        ...(options.chainId === undefined ? {} : { chainId: options.chainId }),
        ...(options.rpcGasCap === undefined ? {} : { rpcGasCap: BigInt(options.rpcGasCap) }),
        ...(options.rpcEvmTimeoutMs === undefined ? {} : { rpcEvmTimeoutMs: options.rpcEvmTimeoutMs }),
        maxBlocksPerLogsRequest: options.apiMaxBlocksPerRequest ?? DEFAULT_API_MAX_BLOCKS_PER_REQUEST,
        maxLogsPerRequest: options.apiMaxLogsPerRequest ?? DEFAULT_API_MAX_LOGS_PER_REQUEST,
        ...forkingOptions(options, log),
        ...(options.genesisFile === undefined ? {} : { platformGenesis: await readGenesis(options.genesisFile) }),
        management: managementOptions(options, log),
        ...peeringOptions(options),
      }),
    stdout: bufferedStdout(),
    stderr: (s) => process.stderr.write(s),
    onSignal: processSignals,
  });
}

/** The platform genesis of `--genesis-file` on the local network (the `node` command's and the Hardhat task's). */
export function readGenesis(file: string): ReturnType<typeof readGenesisFile> {
  return readGenesisFile(file, LOCAL_NETWORK);
}

/**
 * Builds the local node the `node` command serves (the nativekit command's and the Hardhat
 * task's), with the listing of its funded accounts: address, private key and balance.
 */
export async function startCliNode(options: LocalNetworkOptions): Promise<CliNode> {
  const node = await createLocalNode(options);
  const engine = node.provider.engine;
  const accounts = await Promise.all(
    [...engine.unlocked.values()].map(async (a) => ({
      address: getAddress(a.address.toString()),
      privateKey: a.privateKeyHex,
      balanceWei: (await engine.getAccount(a.address, engine.head)).balance,
    })),
  );
  const { getRoutes, authorize, notes } = node.network.management;
  const operator = node.network.operator;
  return {
    routes: node.routes,
    wsRoutes: node.network.wsRoutes,
    getRoutes,
    authorize,
    accounts,
    chainId: engine.options.chainId,
    notes: [...node.network.describeTestKey(), ...notes, ...operator.describe()],
    // Request lines go through the node's leveled log, so admin.setLogLevel governs them.
    requestLog: operator.logger.at("info"),
    listening: (url) => node.network.startPeers(url),
    close: () => node.network.close(),
  };
}

/** The node's flags as the node's management settings (`--db-dir` keeps the chains, the index and auth there). */
function managementOptions(flags: CreateNodeOptions, log: ((line: string) => void) | undefined): NodeManagementOptions {
  return {
    apiAuthRequired: flags.apiAuthRequired,
    apiAuthPasswordFile: flags.apiAuthPasswordFile,
    dbDir: flags.dbDir,
    stakingDir: flags.stakingDir,
    stakingTlsCertFile: flags.stakingTlsCertFile,
    stakingTlsKeyFile: flags.stakingTlsKeyFile,
    publicIp: flags.publicIp,
    stakingPort: flags.stakingPort,
    // The explorer follows the node's own indexes: --explorer turns them on.
    indexEnabled: flags.indexEnabled === true || flags.explorer === true,
    indexAllowIncomplete: flags.indexAllowIncomplete,
    ipcsEnabled: flags.apiIpcsEnabled,
    ipcsPath: flags.ipcsPath,
    adminApiEnabled: flags.chainEvmAdminApiEnabled,
    logLevel: flags.logLevel,
    log,
  };
}

/**
 * The manual-network flags as the peer network's options: a node given `--staking-port` or
 * `--bootstrap-ips` listens for peers (a free port without `--staking-port`), and follows its
 * bootstrap peers when it has some; without either it has no peer network (as before).
 */
function peeringOptions(flags: CreateNodeOptions): Pick<LocalNetworkOptions, "peering"> {
  const ips = flags.bootstrapIps ?? [];
  if (flags.stakingPort === undefined && ips.length === 0) return {};
  const ids = flags.bootstrapIds ?? [];
  return {
    peering: {
      networkId: flags.networkId,
      bootstrap: ips.map((ip, i) => ({ ip, nodeID: ids[i]! })),
      publicIp: flags.publicIp ?? DEFAULT_PUBLIC_IP,
      stakingPort: flags.stakingPort ?? 0,
    },
  };
}

/** The --fork-* flags as the engine's forking options; the fork's start-up lines go to the log. */
function forkingOptions(flags: CreateNodeOptions, log: ((line: string) => void) | undefined): Pick<LocalNetworkOptions, "forking" | "log"> {
  if (flags.forkUrl === undefined) return {};
  const httpHeaders = Object.fromEntries(
    (flags.forkHeaders ?? []).map((header) => {
      const colon = header.indexOf(":");
      return [header.slice(0, colon).trim(), header.slice(colon + 1).trim()];
    }),
  );
  return {
    forking: {
      url: flags.forkUrl,
      ...(flags.forkBlockNumber === undefined ? {} : { blockNumber: flags.forkBlockNumber }),
      ...(flags.forkHeaders === undefined ? {} : { httpHeaders }),
      ...(flags.forkCacheDir === undefined ? {} : { cacheDir: flags.forkCacheDir }),
      ...(flags.forkPrecompiles === "active" || flags.forkPrecompiles === "deprecated" ? { precompiles: flags.forkPrecompiles } : {}),
      ...(flags.forkRequestsPerSecond === undefined ? {} : { requestsPerSecond: flags.forkRequestsPerSecond }),
    },
    log: log ?? ((line) => process.stdout.write(`${line}\n`)),
  };
}

/**
 * The node logs every request; a write per request costs a busy node a system call each, so
 * lines go out together at most every 20 ms: still immediate to a person watching.
 */
function bufferedStdout(): (text: string) => void {
  let pending: string[] = [];
  const flush = () => {
    const text = pending.join("");
    pending = [];
    process.stdout.write(text);
  };
  return (text) => {
    if (pending.length === 0) setTimeout(flush, 20);
    pending.push(text);
  };
}

if (require.main === module) void main();
