import hre from "hardhat";
import { NATIVEKIT_NETWORK } from "../src/hardhat/config";
import { DEPLOYMENTS_DIRECTORY } from "../deploy/deploy-wrappers";
import { wrappedAssets } from "../deploy/wrapped-assets";
import { ensureWrapperDeployed, type WrapperRecord } from "../src/deploy/wrapper-deployment";
import type { ActionContext } from "../src/hardhat/actions";

/** Settings the flow scripts take from the environment (`hardhat run` passes no arguments). */
export interface FlowSettings {
  /** Which entry of deploy/wrapped-assets.ts (WRAPPER_KEY, default "demo"). */
  key: string;
  /** AMOUNT in the asset's smallest unit (default 1000). */
  amount: string;
  /** FROM: account index or address (default 0). */
  from: string | undefined;
}

export function flowSettings(): FlowSettings {
  return { key: process.env.WRAPPER_KEY ?? "demo", amount: process.env.AMOUNT ?? "1000", from: process.env.FROM };
}

/** The wrapper of the configured entry on this network, deployed first if the network lacks it. */
export async function wrapperForFlow(key: string): Promise<WrapperRecord> {
  const spec = wrappedAssets.find((s) => s.key === key);
  if (spec === undefined) throw new Error(`WRAPPER_KEY "${key}" is not in deploy/wrapped-assets.ts (known: ${wrappedAssets.map((s) => s.key).join(", ")})`);
  const artifact = await hre.artifacts.readArtifact("WrappedNativeAsset");
  const result = await ensureWrapperDeployed({ provider: hre.network.provider, network: hre.network.name, directory: DEPLOYMENTS_DIRECTORY, spec, artifact, persist: hre.network.name !== NATIVEKIT_NETWORK });
  console.log(result.deployed ? `Deployed ${spec.symbol} at ${result.record.address} (${result.reason})` : `Using ${spec.symbol} ${result.reason}`);
  return result.record;
}

export function actionContext(): ActionContext {
  return { provider: hre.network.provider, print: (line) => console.log(line) };
}

/** The in-process network starts empty on every run. */
export function isInProcessNetwork(): boolean {
  return hre.network.name === NATIVEKIT_NETWORK;
}

export function runFlow(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    // The actions name task flags; the scripts take the same settings from the environment.
    const message = (error instanceof Error ? error.message : String(error)).replace(/--amount/g, "AMOUNT").replace(/--from/g, "FROM");
    console.error(`error: ${message}`);
    process.exitCode = 1;
  });
}
