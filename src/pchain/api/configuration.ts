/**
 * platform.getConfiguration (Camino's platformvm service): the network's settings in one answer,
 * which caminojs reads to learn the network it talks to. Field names and number encodings are
 * the reference's: uint64/uint32/uint16 as decimal strings, stake durations in nanoseconds (Go's
 * time.Duration), consumption rates in millionths.
 *
 * The network ID, hrp, fee asset and chains are this node's own. The simulator has no staking,
 * so the staking settings are those the reference node gives a local network (avalanchego
 * genesis/genesis_local.go), and Camino's two switches are off, as on a non-Camino network.
 */
import { encodeCb58 } from "../../encoding";
import { PLATFORM_CHAIN_ID } from "../../network/chains";
import { vmId } from "../../network/names";
import { CODEC_VERSION } from "../../utxo/codec";
import type { PlatformChain } from "../vm/chain";

/** One nAVAX is the smallest unit; 10^9 of them make one AVAX. */
const AVAX = 1_000_000_000n;
const NANOSECONDS_PER_SECOND = 1_000_000_000n;
const DAY_SECONDS = 24n * 60n * 60n;

/** The staking settings of the reference node's local network. */
export const LOCAL_STAKING_SETTINGS = {
  minStakeDuration: DAY_SECONDS * NANOSECONDS_PER_SECOND,
  maxStakeDuration: 365n * DAY_SECONDS * NANOSECONDS_PER_SECOND,
  minValidatorStake: 2_000n * AVAX,
  maxValidatorStake: 3_000_000n * AVAX,
  /** In millionths: 20000 is 2 %. */
  minDelegationFee: 20_000,
  minDelegatorStake: 25n * AVAX,
  /** In millionths of the reward (reward.PercentDenominator): 10 % and 12 %. */
  minConsumptionRate: 100_000n,
  maxConsumptionRate: 120_000n,
  supplyCap: 720_000_000n * AVAX,
} as const;

/** A chain of the primary network as platform.getBlockchains and getConfiguration list it. */
export interface PlatformBlockchain {
  id: string;
  name: string;
  subnetID: string;
  vmID: string;
}

/** What platform.getConfiguration answers. */
export interface PlatformConfiguration {
  networkID: string;
  assetID: string;
  assetSymbol: string;
  hrp: string;
  blockchains: PlatformBlockchain[];
  minStakeDuration: string;
  maxStakeDuration: string;
  minValidatorStake: string;
  maxValidatorStake: string;
  minDelegationFee: string;
  minDelegatorStake: string;
  minConsumptionRate: string;
  maxConsumptionRate: string;
  supplyCap: string;
  codecVersion: string;
  verifyNodeSignature: boolean;
  lockModeBondDeposit: boolean;
}

/** The chains the platform chain created on the primary network (itself excluded, as the reference lists them). */
export function primaryNetworkBlockchains(chain: PlatformChain): PlatformBlockchain[] {
  return [
    { id: chain.network.xChainId, name: "X-Chain", subnetID: PLATFORM_CHAIN_ID, vmID: vmId("avm") },
    { id: chain.network.cChainId, name: "C-Chain", subnetID: PLATFORM_CHAIN_ID, vmID: vmId("evm") },
  ];
}

/** platform.getConfiguration: this node's network, fee asset and chains, with the local network's staking settings. */
export function getConfiguration(chain: PlatformChain): PlatformConfiguration {
  const s = LOCAL_STAKING_SETTINGS;
  return {
    networkID: String(chain.network.networkId),
    assetID: encodeCb58(chain.feeAssetId),
    assetSymbol: chain.network.nativeAsset.symbol,
    hrp: chain.network.hrp,
    blockchains: primaryNetworkBlockchains(chain),
    minStakeDuration: s.minStakeDuration.toString(),
    maxStakeDuration: s.maxStakeDuration.toString(),
    minValidatorStake: s.minValidatorStake.toString(),
    maxValidatorStake: s.maxValidatorStake.toString(),
    minDelegationFee: String(s.minDelegationFee),
    minDelegatorStake: s.minDelegatorStake.toString(),
    minConsumptionRate: s.minConsumptionRate.toString(),
    maxConsumptionRate: s.maxConsumptionRate.toString(),
    supplyCap: s.supplyCap.toString(),
    codecVersion: String(CODEC_VERSION),
    verifyNodeSignature: false,
    lockModeBondDeposit: false,
  };
}
