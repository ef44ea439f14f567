/**
 * Which behaviour the native-asset precompiles have at a fork point. The reference chain
 * activated them at ApricotPhase2, deprecated them at ApricotPhasePre6, re-enabled them at
 * ApricotPhase6 and deprecated them for good at Banff (deprecated: revert, all gas returned).
 * The times are the reference node's upgrade table (`upgrade/upgrade.go`) for its three
 * well-known contract-chain IDs. Before ApricotPhase2 the precompiles did not exist; we call
 * that "deprecated" too, the nearest of our two behaviours (nothing of theirs runs).
 */
export type PrecompileMode = "active" | "deprecated";

interface PrecompileUpgrades {
  name: string;
  apricotPhase2: number;
  apricotPhasePre6: number;
  apricotPhase6: number;
  banff: number;
}

/** Unix seconds (UTC) of the upgrades, by contract-chain ID. */
const SCHEDULES: ReadonlyMap<number, PrecompileUpgrades> = new Map([
  // 2021-05-10 11:00, 2022-09-05 01:30, 2022-09-06 20:00, 2022-10-18 16:00
  [43114, { name: "mainnet", apricotPhase2: 1620644400, apricotPhasePre6: 1662341400, apricotPhase6: 1662494400, banff: 1666108800 }],
  // 2021-05-05 14:00, 2022-09-06 20:00 (Pre6 and 6 at the same time), 2022-10-03 14:00
  [43113, { name: "test network", apricotPhase2: 1620223200, apricotPhasePre6: 1662494400, apricotPhase6: 1662494400, banff: 1664805600 }],
  // A local network of the reference node has every upgrade from 2020-12-05 05:00.
  [43112, { name: "local network", apricotPhase2: 1607144400, apricotPhasePre6: 1607144400, apricotPhase6: 1607144400, banff: 1607144400 }],
]);

/** The mode on a known chain at a block timestamp; undefined for a chain without a known schedule. */
export function scheduledPrecompileMode(chainId: number, timestamp: bigint): { mode: PrecompileMode; network: string } | undefined {
  const upgrades = SCHEDULES.get(chainId);
  if (upgrades === undefined) return undefined;
  const t = Number(timestamp);
  const active = (t >= upgrades.apricotPhase2 && t < upgrades.apricotPhasePre6) || (t >= upgrades.apricotPhase6 && t < upgrades.banff);
  return { mode: active ? "active" : "deprecated", network: upgrades.name };
}
