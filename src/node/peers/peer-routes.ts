/**
 * The APIs of a node in a peer network. A follower's: reads answer from its own state; what would change state goes to the
 * producer or is refused.
 *
 * - contract chain: `eth_sendRawTransaction` and `eth_sendTransaction` (the producer has the
 *   same unlocked development accounts) are forwarded; the methods that mine or edit state
 *   (`evm_*`, `hardhat_*` but its two reads) are refused: a follower only applies its
 *   producer's blocks;
 * - the atomic API and the exchange and platform chains: every method works: their `issue`
 *   hands signed transactions to the producer (`forwardIssuesTo`), so the keystore wallets
 *   (`avm.send`, `avax.import`, ...) keep working, with this node's keys and state.
 *
 * A request that was forwarded is answered once this node has applied what the producer had
 * accepted when it answered, so a client reads its own writes on the node it wrote to.
 *
 * A producer with a peer network refuses what would take accepted blocks back (`evm_revert`,
 * `hardhat_reset`): its followers have applied them and cannot undo them.
 */
import { serverError } from "../../rpc";
import type { Dispatch, OpenSession } from "../../rpc/types";
import type { PeerNetwork } from "./peer-network";

const FORWARDED_CONTRACT_METHODS = new Set(["eth_sendRawTransaction", "eth_sendTransaction"]);
const CONTRACT_READS = new Set(["hardhat_getAutomine", "hardhat_metadata"]);

export type RouteKind = "contract" | "other";

/** `routes` as a follower serves them; `kindOf` tells which API a path serves. */
export function followerRoutes(routes: Record<string, Dispatch>, peers: PeerNetwork, kindOf: (path: string) => RouteKind): Record<string, Dispatch> {
  return Object.fromEntries(Object.entries(routes).map(([path, dispatch]) => [path, followerDispatch(dispatch, peers, kindOf(path), path)]));
}

const REWINDING_METHODS = new Set(["evm_revert", "hardhat_reset"]);

/** `routes` as a producer with a peer network serves them (see the file's comment). */
export function producerRoutes(routes: Record<string, Dispatch>, kindOf: (path: string) => RouteKind): Record<string, Dispatch> {
  return Object.fromEntries(Object.entries(routes).map(([path, dispatch]) => [path, kindOf(path) === "contract" ? producerDispatch(dispatch) : dispatch]));
}

/** WebSocket sessions of a producer with a peer network: the same rule on each session's dispatch. */
export function producerSessions(sessions: Record<string, OpenSession>): Record<string, OpenSession> {
  return wrapSessions(sessions, producerDispatch);
}

function producerDispatch(dispatch: Dispatch): Dispatch {
  return (method, params) => {
    if (REWINDING_METHODS.has(method)) {
      return Promise.reject(serverError(`${method} is not available on a node with a peer network: its followers have applied its blocks and cannot take them back`));
    }
    return dispatch(method, params);
  };
}

function wrapSessions(sessions: Record<string, OpenSession>, wrap: (dispatch: Dispatch) => Dispatch): Record<string, OpenSession> {
  return Object.fromEntries(
    Object.entries(sessions).map(([path, open]) => [
      path,
      ((push) => {
        const session = open(push);
        return { dispatch: wrap(session.dispatch), close: () => session.close() };
      }) satisfies OpenSession,
    ]),
  );
}

/** WebSocket sessions of a follower: the same rules on each session's dispatch. */
export function followerSessions(sessions: Record<string, OpenSession>, peers: PeerNetwork, forwardPath: string): Record<string, OpenSession> {
  return wrapSessions(sessions, (dispatch) => followerDispatch(dispatch, peers, "contract", forwardPath));
}

function followerDispatch(dispatch: Dispatch, peers: PeerNetwork, kind: RouteKind, path: string): Dispatch {
  return async (method, params) => {
    if (kind === "contract") {
      if (FORWARDED_CONTRACT_METHODS.has(method)) return forwarded(peers, path, method, params);
      if ((method.startsWith("evm_") || method.startsWith("hardhat_")) && !CONTRACT_READS.has(method)) {
        throw serverError(`${method} is not available on a node that follows another: it only applies the blocks its producer accepted; call it on the producer (the node started without --bootstrap-ips)`);
      }
    }
    const before = peers.forwardsAnswered;
    const result = await dispatch(method, params);
    // The atomic API and the exchange and platform chains forward from inside (their `issue`).
    if (peers.forwardsAnswered !== before) await peers.waitForForwarded();
    return result;
  };
}

async function forwarded(peers: PeerNetwork, path: string, method: string, params: unknown): Promise<unknown> {
  const result = await peers.forward(path, method, params);
  await peers.waitForForwarded();
  return result;
}
