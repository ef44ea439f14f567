/**
 * The peer network wired onto one node (`NodeChains` calls these): its acceptance log over
 * the node's chains and data directory, and, on a follower, the routes and chain hooks that
 * send what would change state to the producer (see `peer-routes.ts`).
 */
import type { ContractChainAtomics } from "../../cchain";
import { decodeCb58, encodeCb58, encodeNodeBytes } from "../../encoding";
import type { Engine } from "../../engine/engine";
import type { NetworkIdentifiers } from "../../network/constants";
import { chainPath, PATHS } from "../../network/paths";
import type { PlatformChain } from "../../pchain";
import type { Dispatch, OpenSession } from "../../rpc/types";
import type { DataDirectory } from "../../storage";
import type { ExchangeChain } from "../../xchain/vm";
import { engineBlocks, NodeAcceptance } from "../acceptance";
import type { NodeLogger } from "../logger";
import { readPackageVersion } from "../package-version";
import { AcceptanceLog } from "./acceptance-log";
import { followerRoutes, followerSessions, producerRoutes, producerSessions, type RouteKind } from "./peer-routes";
import { PeerNetwork, type BootstrapPeer } from "./peer-network";

/**
 * The contract chain's genesis time on a node with a peer network (2020-09-13T12:26:40Z): every
 * node of the network builds the same genesis block (a lone node takes its start time).
 */
export const PEER_NETWORK_GENESIS_TIMESTAMP = 1_600_000_000;

/** The manual-network flags the peer network uses. */
export interface PeeringOptions {
  /** `--network-id` (default: the network's): peers of another network are refused. */
  networkId?: number;
  /** `--bootstrap-ips` with `--bootstrap-ids`: absent or empty, the node produces blocks. */
  bootstrap?: readonly BootstrapPeer[];
  /** `--public-ip` and `--staking-port`: where the node listens for peers. */
  publicIp: string;
  stakingPort: number;
}

export interface PeeringChains {
  network: NetworkIdentifiers;
  engine: Engine;
  atomics: ContractChainAtomics;
  exchange: ExchangeChain;
  platform: PlatformChain;
  data: DataDirectory | undefined;
  logger: NodeLogger;
}

/** The node's peer network over its chains (not started: `PeerNetwork.start` once the HTTP API listens). */
export async function openPeerNetwork(options: PeeringOptions, chains: PeeringChains): Promise<PeerNetwork> {
  const { engine, exchange, platform, logger } = chains;
  const acceptance = new NodeAcceptance({
    contract: engineBlocks(engine),
    exchange,
    platform,
    report: logger.at("error"),
  });
  const log = await AcceptanceLog.open(acceptance, chains.data?.independentStore().namespace("peers/"), logger.at("warn"));
  return new PeerNetwork({
    networkId: options.networkId ?? chains.network.networkId,
    version: `nativekit/${readPackageVersion()}`,
    publicIp: options.publicIp,
    stakingPort: options.stakingPort,
    bootstrap: options.bootstrap ?? [],
    log,
    target: { engine, atomics: chains.atomics, exchange, platform },
    report: (level, line) => logger.write(level, line),
  });
}

/**
 * A follower's routes and WebSocket sessions, and its exchange and platform chains handing
 * their transactions to the producer.
 */
export function followerWiring(
  peers: PeerNetwork,
  chains: PeeringChains,
  routes: Record<string, Dispatch>,
  wsRoutes: Record<string, OpenSession>,
): { routes: Record<string, Dispatch>; wsRoutes: Record<string, OpenSession> } {
  const { network, exchange, platform, atomics, engine } = chains;
  // Nothing should reach its pool (transactions are forwarded); if anything did, it is not mined.
  engine.setAutomine(false);
  const issueOn = (path: string, method: string) => async (bytes: Uint8Array) => {
    const answer = (await peers.forward(path, method, { tx: encodeNodeBytes(bytes, "hex"), encoding: "hex" })) as { txID: string };
    return decodeCb58(answer.txID);
  };
  exchange.forwardIssuesTo(issueOn(PATHS.exchange, "avm.issueTx"));
  platform.forwardIssuesTo(issueOn(chainPath("P"), "platform.issueTx"));
  atomics.forwardIssuesTo(async (bytes) => encodeCb58(await issueOn(PATHS.contractAvax, "avax.issueTx")(bytes)));
  return { routes: followerRoutes(routes, peers, routeKinds(network)), wsRoutes: followerSessions(wsRoutes, peers, PATHS.contractRpc) };
}

/** A producer's routes and WebSocket sessions: the contract chain refuses to take accepted blocks back. */
export function producerWiring(
  network: NetworkIdentifiers,
  routes: Record<string, Dispatch>,
  wsRoutes: Record<string, OpenSession>,
): { routes: Record<string, Dispatch>; wsRoutes: Record<string, OpenSession> } {
  return { routes: producerRoutes(routes, routeKinds(network)), wsRoutes: producerSessions(wsRoutes) };
}

function routeKinds(network: NetworkIdentifiers): (path: string) => RouteKind {
  const contract = new Set([PATHS.contractRpc, `/ext/bc/${network.cChainId}/rpc`]);
  return (path) => (contract.has(path) ? "contract" : "other");
}
