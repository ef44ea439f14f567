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
import { RpcApi, invalidParams, serverError } from "../rpc";
import type { StakingIdentity } from "./staking";
import type { PeerInfo } from "./peers/peer-network";

/** The reference database version string this node reports. */
export const DATABASE_VERSION = "v1.4.5";
/**
 * The RPCChainVM protocol version of the reference release line whose APIs this node follows
 * (v1.11.x, the last with the auth and IPC APIs). The simulator runs no VM plugins itself.
 */
export const RPC_PROTOCOL_VERSION = 34;

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
export function formatFloat(value: number): string {
  return value.toFixed(4);
}

export function createInfoApi(options: InfoApiOptions): RpcApi {
  const { network, version, identity } = options;
  const chains = new ChainDirectory(network);
  const vmVersion = `v${version}`;
  return new RpcApi({ namespaces: ["info"] })
    .named("getNetworkID", () => ({ networkID: String(network.networkId) }))
    .named("getNetworkName", () => ({ networkName: networkName(network.networkId) }))
    .named("getBlockchainID", (p) => {
      const alias = p.stringOr("alias", "");
      const chain = chains.lookup(alias);
      if (chain === undefined) throw serverError(`there is no ID with alias: ${alias}`);
      return { blockchainID: chain.id };
    })
    .named("isBootstrapped", (p) => {
      const name = p.stringOr("chain", "");
      if (name === "") throw serverError("argument 'chain' not given");
      if (chains.lookup(name) === undefined) throw serverError(`there is no chain with alias/ID '${name}'`);
      // Without a peer network every chain is ready as soon as the node serves it; a follower's
      // chains bootstrap together (it applies their containers in one order).
      return { isBootstrapped: options.peers?.isBootstrapped() ?? true };
    })
    .named("getTxFee", () => ({
      txFee: String(network.txFee),
      createAssetTxFee: String(network.createAssetTxFee),
      // The legacy SDK (avalanche 3.x) reads the fee under its older name.
      creationTxFee: String(network.createAssetTxFee),
    }))
    .named("getNodeVersion", () => ({
      version: `nativekit/${version}`,
      databaseVersion: DATABASE_VERSION,
      rpcProtocolVersion: String(RPC_PROTOCOL_VERSION),
      gitCommit: options.gitCommit ?? "",
      vmVersions: Object.fromEntries(PRIMARY_VMS.map((vm) => [vm.name, vmVersion])),
    }))
    .named("getNodeID", async () => {
      const { nodeID, pop } = await identity();
      return { nodeID, nodePOP: { ...pop } };
    })
    .named("getNodeIP", () => ({ ip: options.nodeIP }))
    .named("getVMs", () => ({
      vms: Object.fromEntries(PRIMARY_VMS.map((vm) => [vmId(vm.name), [vm.name]])),
      fxs: Object.fromEntries(EXCHANGE_FXS.map((fx) => [builtinId(fx), fx])),
    }))
    .named("peers", (p) => {
      // A node ID asked for that is not connected is left out.
      const nodeIDs = p.stringArray("nodeIDs");
      nodeIDs.forEach((nodeID, i) => {
        if (!nodeID.startsWith("NodeID-") || !isCb58(nodeID.slice("NodeID-".length), 20)) {
          throw invalidParams(`nodeIDs[${i}] must be a node ID such as "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", got ${JSON.stringify(nodeID)}`);
        }
      });
      const peers = options.peers?.peers(nodeIDs) ?? [];
      return { numPeers: String(peers.length), peers };
    })
    .named("uptime", (p) => {
      // Only the primary network exists here, and this node is its only validator.
      const subnetID = p.optionalString("subnetID");
      if (subnetID !== undefined && subnetID !== PLATFORM_CHAIN_ID) throw serverError("couldn't get node uptime: node is not a validator");
      return { rewardingStakePercentage: formatFloat(100), weightedAveragePercentage: formatFloat(100) };
    });
}
