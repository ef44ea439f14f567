import { getAddress } from "ethers";
import { runCli, processSignals, type CliNode } from "./cli";
import type { LocalNetworkOptions, NodeManagementOptions } from "../node/local-network";
import { type CreateNodeOptions, DEFAULT_API_MAX_BLOCKS_PER_REQUEST, DEFAULT_API_MAX_LOGS_PER_REQUEST } from "./node-flags";
import { createLocalNode } from "../node/local-node";
import { LOCAL_NETWORK, type NetworkIdentifiers } from "../network/constants";
import { genesisAliases, readGenesisFile } from "../node/genesis-file";
import { DEFAULT_PUBLIC_IP } from "../node/management";
import { networkForId } from "../node/network-for-id";
import { describeGenesisAliases } from "./genesis-banner";

/** Entry point of the `nativekit` command. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runCli(argv, {
    createNode: createCliNode,
    stdout: bufferedStdout(),
    stderr: (s) => process.stderr.write(s),
    onSignal: processSignals,
  });
}

/**
 * The `node` command's node from its flags (the CLI's `createNode`): `--network-id` gives the
 * network's identifiers (its ID, the hrp of its addresses, its native asset's ID) to every chain
 * and API, and the genesis file is read with that network's addresses.
 */
export async function createCliNode(options: CreateNodeOptions, log?: (line: string) => void): Promise<CliNode> {
  // What the node writes (its data directory's files, its logs) is its user's alone.
  process.umask(0o077);
  const network = networkForId(options.networkId ?? LOCAL_NETWORK.networkId);
  return startCliNode({
    network,
    ...(options.chainId === undefined ? {} : { chainId: options.chainId }),
    ...(options.rpcGasCap === undefined ? {} : { rpcGasCap: BigInt(options.rpcGasCap) }),
    ...(options.rpcEvmTimeoutMs === undefined ? {} : { rpcEvmTimeoutMs: options.rpcEvmTimeoutMs }),
    maxBlocksPerLogsRequest: options.apiMaxBlocksPerRequest ?? DEFAULT_API_MAX_BLOCKS_PER_REQUEST,
    maxLogsPerRequest: options.apiMaxLogsPerRequest ?? DEFAULT_API_MAX_LOGS_PER_REQUEST,
    ...forkingOptions(options, log),
    ...(options.genesisFile === undefined ? {} : { platformGenesis: await readGenesis(options.genesisFile, network) }),
    management: managementOptions(options, log),
    ...peeringOptions(options),
  });
}

/** The platform genesis of `--genesis-file` (the `node` command's and the Hardhat task's), its addresses those of `network`. */
export function readGenesis(file: string, network: NetworkIdentifiers = LOCAL_NETWORK): ReturnType<typeof readGenesisFile> {
  return readGenesisFile(file, network);
}

/**
 * Builds the local node the `node` command serves (the nativekit command's and the Hardhat
 * task's), with the listing of its funded accounts (address, private key and balance) and, in
 * its notes, the multisig aliases of its genesis file with their addresses.
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
    notes: [...node.network.describeTestKey(), ...genesisAliasNotes(node.network.network, options), ...notes, ...operator.describe()],
    // Request lines go through the node's leveled log, so admin.setLogLevel governs them.
    requestLog: operator.logger.at("info"),
    listening: (url) => node.network.startPeers(url),
    close: () => node.network.close(),
  };
}

/** The banner's lines about the genesis file's multisig aliases, after a blank line (none without aliases). */
function genesisAliasNotes(network: NetworkIdentifiers, options: LocalNetworkOptions): string[] {
  const lines = describeGenesisAliases(genesisAliases(network, options.platformGenesis));
  return lines.length === 0 ? [] : ["", ...lines];
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
