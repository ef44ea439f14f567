/**
 * The `node` command's flags as the options of the node's chains: `--network-id` gives the
 * network's identifiers (its ID, the hrp of its addresses, its native asset's ID) to every chain
 * and API, the genesis file is read with that network's addresses, and the management, peering
 * and fork flags become their own option groups.
 */
import type { NodeChainsOptions, NodeManagementOptions } from "../node/node-chains";
import { type CreateNodeOptions, DEFAULT_API_MAX_BLOCKS_PER_REQUEST, DEFAULT_API_MAX_LOGS_PER_REQUEST } from "./node-flags";
import { LOCAL_NETWORK, type NetworkIdentifiers } from "../network/constants";
import { readGenesisFile } from "../node/genesis-file";
import { DEFAULT_PUBLIC_IP } from "../node/management";
import { networkForId } from "../node/network-for-id";

/** The chains' options of the flags; `log` receives the node's log lines (the fork's start-up ones too). */
export async function nodeChainsOptionsOf(flags: CreateNodeOptions, log?: (line: string) => void): Promise<NodeChainsOptions> {
  const network = networkForId(flags.networkId ?? LOCAL_NETWORK.networkId);
  return {
    network,
    ...(flags.chainId === undefined ? {} : { chainId: flags.chainId }),
    ...(flags.rpcGasCap === undefined ? {} : { rpcGasCap: BigInt(flags.rpcGasCap) }),
    ...(flags.rpcEvmTimeoutMs === undefined ? {} : { rpcEvmTimeoutMs: flags.rpcEvmTimeoutMs }),
    storeCaches: { blocks: flags.acceptedCacheSize, trieNodesMb: flags.trieCleanCache },
    maxBlocksPerLogsRequest: flags.apiMaxBlocksPerRequest ?? DEFAULT_API_MAX_BLOCKS_PER_REQUEST,
    maxLogsPerRequest: flags.apiMaxLogsPerRequest ?? DEFAULT_API_MAX_LOGS_PER_REQUEST,
    ...forkingOptions(flags, log),
    ...(flags.genesisFile === undefined ? {} : { platformGenesis: await readGenesis(flags.genesisFile, network) }),
    management: managementOptions(flags, log),
    ...peeringOptions(flags),
  };
}

/** The platform genesis of `--genesis-file` (the `node` command's and the Hardhat task's), its addresses those of `network`. */
export function readGenesis(file: string, network: NetworkIdentifiers = LOCAL_NETWORK): ReturnType<typeof readGenesisFile> {
  return readGenesisFile(file, network);
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
function peeringOptions(flags: CreateNodeOptions): Pick<NodeChainsOptions, "peering"> {
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
function forkingOptions(flags: CreateNodeOptions, log: ((line: string) => void) | undefined): Pick<NodeChainsOptions, "forking" | "log"> {
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
