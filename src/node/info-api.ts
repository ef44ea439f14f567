/**
 * The info API of the node (path /ext/info): the eleven methods of the reference node's info
 * service with its result shapes and number encodings: uint64s as decimal strings, floats as
 * strings with four decimals ("100.0000"), node IDs with the `NodeID-` prefix.
 *
 * The node's peers and whether it has bootstrapped come from its peer network (see
 * `peers/peer-network.ts`); a node without one has no peers (`numPeers` "0") and is
 * bootstrapped. Every node counts as a validator with 100 % uptime by every measure.
 */
import { isCb58 } from "../encoding";
import { ChainDirectory, PLATFORM_CHAIN_ID } from "../network/chains";
import type { NetworkIdentifiers } from "../network/constants";
import { EXCHANGE_FXS, PRIMARY_VMS, builtinId, networkName, vmId } from "../network/names";
import { RpcApi, invalidParams, serverError, type NamedParams } from "../rpc";
import type { StakingIdentity } from "./staking";
import type { PeerInfo } from "./peers/peer-network";

/** The reference database version string this node reports. */
const DATABASE_VERSION = "v1.4.5";
/**
 * The RPCChainVM protocol version of the reference release line whose APIs this node follows
 * (v1.11.x, the last with the auth and IPC APIs). The simulator runs no VM plugins itself.
 */
const RPC_PROTOCOL_VERSION = 34;

export interface InfoApiOptions {
  network: NetworkIdentifiers;
  /** The toolkit's version: the node reports `nativekit/<version>`. */
  version: string;
  /** Source commit the node was built from, when known ("" otherwise). */
  gitCommit?: string;
  /** The node's staking identity (made in the background when it is not kept on disk). */
  identity: () => Promise<StakingIdentity>;
  /** What `info.getNodeIP` reports: the node's public IP and staking port, `host:port`. */
  nodeIP: string;
  /** The node's peer network, when it has one. */
  peers?: PeerStatus;
}

/** What the info and health APIs read of the node's peer network. */
export interface PeerStatus {
  peers(nodeIDs?: readonly string[]): PeerInfo[];
  isBootstrapped(): boolean;
  health(): Record<string, unknown>;
}

/** A float as the reference node writes it: a string with four decimals. */
function formatFloat(value: number): string {
  return value.toFixed(4);
}

/** What the info methods read: the node's options, its chains by alias, and the version its VMs report. */
interface InfoContext {
  readonly options: InfoApiOptions;
  readonly chains: ChainDirectory;
  readonly vmVersion: string;
}

export function createInfoApi(options: InfoApiOptions): RpcApi {
  const context: InfoContext = { options, chains: new ChainDirectory(options.network), vmVersion: `v${options.version}` };
  return new RpcApi().namedMethods(context, {
    "info.getNetworkID": getNetworkID,
    "info.getNetworkName": getNetworkName,
    "info.getBlockchainID": getBlockchainID,
    "info.isBootstrapped": isBootstrapped,
    "info.getTxFee": getTxFee,
    "info.getNodeVersion": getNodeVersion,
    "info.getNodeID": getNodeID,
    "info.getNodeIP": getNodeIP,
    "info.getVMs": getVMs,
    "info.peers": peers,
    "info.uptime": uptime,
  });
}

function getNetworkID({ options }: InfoContext): { networkID: string } {
  return { networkID: String(options.network.networkId) };
}

function getNetworkName({ options }: InfoContext): { networkName: string } {
  return { networkName: networkName(options.network.networkId) };
}

/** {alias}: the ID of the chain with that alias. */
function getBlockchainID({ chains }: InfoContext, params: NamedParams): { blockchainID: string } {
  const alias = params.stringOr("alias", "");
  const chain = chains.lookup(alias);
  if (chain === undefined) throw serverError(`there is no ID with alias: ${alias}`);
  return { blockchainID: chain.id };
}

/** {chain}: whether the chain (an alias or ID) has bootstrapped. */
function isBootstrapped({ options, chains }: InfoContext, params: NamedParams): { isBootstrapped: boolean } {
  const name = params.stringOr("chain", "");
  if (name === "") throw serverError("argument 'chain' not given");
  if (chains.lookup(name) === undefined) throw serverError(`there is no chain with alias/ID '${name}'`);
  // Without a peer network every chain is ready as soon as the node serves it; a follower's
  // chains bootstrap together (it applies their containers in one order).
  return { isBootstrapped: options.peers?.isBootstrapped() ?? true };
}

function getTxFee({ options }: InfoContext): { txFee: string; createAssetTxFee: string; creationTxFee: string } {
  const { network } = options;
  return {
    txFee: String(network.txFee),
    createAssetTxFee: String(network.createAssetTxFee),
    // The legacy SDK (avalanche 3.x) reads the fee under its older name.
    creationTxFee: String(network.createAssetTxFee),
  };
}

function getNodeVersion({ options, vmVersion }: InfoContext): Record<string, unknown> {
  return {
    version: `nativekit/${options.version}`,
    databaseVersion: DATABASE_VERSION,
    rpcProtocolVersion: String(RPC_PROTOCOL_VERSION),
    gitCommit: options.gitCommit ?? "",
    vmVersions: Object.fromEntries(PRIMARY_VMS.map((vm) => [vm.name, vmVersion])),
  };
}

async function getNodeID({ options }: InfoContext): Promise<Record<string, unknown>> {
  const { nodeID, pop } = await options.identity();
  return { nodeID, nodePOP: { ...pop } };
}

function getNodeIP({ options }: InfoContext): { ip: string } {
  return { ip: options.nodeIP };
}

function getVMs(): Record<string, unknown> {
  return {
    vms: Object.fromEntries(PRIMARY_VMS.map((vm) => [vmId(vm.name), [vm.name]])),
    fxs: Object.fromEntries(EXCHANGE_FXS.map((fx) => [builtinId(fx), fx])),
  };
}

/** {nodeIDs?}: the connected peers (those asked for; a node ID asked for that is not connected is left out). */
function peers({ options }: InfoContext, params: NamedParams): { numPeers: string; peers: PeerInfo[] } {
  const nodeIDs = params.stringArray("nodeIDs");
  nodeIDs.forEach((nodeID, i) => {
    if (!nodeID.startsWith("NodeID-") || !isCb58(nodeID.slice("NodeID-".length), 20)) {
      throw invalidParams(`nodeIDs[${i}] must be a node ID such as "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", got ${JSON.stringify(nodeID)}`);
    }
  });
  const connected = options.peers?.peers(nodeIDs) ?? [];
  return { numPeers: String(connected.length), peers: connected };
}

/** {subnetID?}: this node's uptime as a validator. */
function uptime(_context: InfoContext, params: NamedParams): { rewardingStakePercentage: string; weightedAveragePercentage: string } {
  // Only the primary network exists here, and this node is its only validator.
  const subnetID = params.optionalString("subnetID");
  if (subnetID !== undefined && subnetID !== PLATFORM_CHAIN_ID) throw serverError("couldn't get node uptime: node is not a validator");
  return { rewardingStakePercentage: formatFloat(100), weightedAveragePercentage: formatFloat(100) };
}
