/**
 * The context of the contract chain's atomic transactions: which network and chain they
 * belong to, the peer chains they may cross to, the native asset and the upgrade rules in force.
 */
import { decodeCb58, equalBytes } from "../encoding";
import { PLATFORM_CHAIN_ID } from "../network/chains";
import { LOCAL_NETWORK, type NetworkIdentifiers } from "../network/constants";

/** The platform chain's ID (all zeros), the other chain of the primary network. */
export const P_CHAIN_ID = decodeCb58(PLATFORM_CHAIN_ID);

/** What the rules depend on: this chain, its network and its peers. */
export interface AtomicContext {
  networkId: number;
  /** This (contract) chain's 32-byte ID. */
  chainId: Uint8Array;
  /** The exchange chain's ID. */
  xChainId: Uint8Array;
  /** The native asset (AVAX on the reference network). */
  nativeAssetId: Uint8Array;
  /** Chains of the same subnet an atomic transaction may name as source or destination. */
  peerChains: Uint8Array[];
  /**
   * The Banff rule: atomic transactions move only the native coin. Off, other assets are
   * imported to (and exported from) the multi-coin balances, as before that upgrade.
   */
  nativeOnly: boolean;
}

/** The context of a network's contract chain (exchange and platform chains as peers). */
export function atomicContextOf(network: NetworkIdentifiers = LOCAL_NETWORK, nativeOnly = false): AtomicContext {
  const xChainId = decodeCb58(network.xChainId);
  return {
    networkId: network.networkId,
    chainId: decodeCb58(network.cChainId),
    xChainId,
    nativeAssetId: decodeCb58(network.nativeAsset.id),
    peerChains: [xChainId, P_CHAIN_ID],
    nativeOnly,
  };
}

/** Whether `chain` is another chain of this chain's network (a valid source or destination). */
export function isPeerChain(ctx: AtomicContext, chain: Uint8Array): boolean {
  return !equalBytes(chain, ctx.chainId) && ctx.peerChains.some((peer) => equalBytes(peer, chain));
}

/** Bytes as lowercase hex without 0x: how assets and addresses key maps here and show in messages. */
export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}
