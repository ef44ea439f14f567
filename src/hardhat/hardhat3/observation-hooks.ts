/**
 * Hardhat's side of what a nativekit chain observes: whether the run wants coverage and gas
 * statistics, and handing what a request ran to the handlers of the network hooks
 * `onCoverageData` and `onGasMeasurement` — what Hardhat's network manager does with the data of
 * its own network (EDR). Coverage and gas analytics register those handlers only under
 * `--coverage` and `--gas-stats` (`--gas-stats-json`), which is how Hardhat itself decides.
 */
import type { Observed, ObservationRequest } from "./chain-observers";
import type { CodeNamer } from "./gas-stats";
import type { HookContext } from "./types";

/** What a new connection's chain must observe for this run. */
export async function wantedObservations(context: HookContext): Promise<ObservationRequest> {
  const hooks = context.hooks;
  if (hooks === undefined) return { coverage: false, gasStats: false };
  const [coverage, gasStats] = await Promise.all([hooks.hasHandlers("network", "onCoverageData"), hooks.hasHandlers("network", "onGasMeasurement")]);
  return { coverage, gasStats };
}

/** The build's contracts, read once per artifacts directory (as Hardhat reads its build infos once per run). */
const namers = new Map<string, Promise<CodeNamer>>();

function contractsOf(artifactsDir: string): Promise<CodeNamer> {
  let namer = namers.get(artifactsDir);
  if (namer === undefined) {
    namer = import("../solidity/contract-identifier").then(({ loadContractIdentifier }) => loadContractIdentifier(artifactsDir));
    namers.set(artifactsDir, namer);
  }
  return namer;
}

/** Reports what a chain observed to the hooks' handlers: coverage tags at once, then a measurement per execution. */
export async function reportObserved(context: HookContext, observed: Observed): Promise<void> {
  const hooks = context.hooks;
  if (hooks === undefined) return;
  if (observed.coverageHits.length > 0) await hooks.runParallelHandlers("network", "onCoverageData", [observed.coverageHits]);
  if (observed.executions.length === 0) return;
  const artifacts = context.config.paths.artifacts;
  if (artifacts === undefined) return;
  const [{ gasMeasurementOf }, contracts] = await Promise.all([import("./gas-stats"), contractsOf(artifacts)]);
  for (const report of observed.executions) {
    const measurement = gasMeasurementOf(report, contracts);
    if (measurement !== undefined) await hooks.runParallelHandlers("network", "onGasMeasurement", [measurement]);
  }
}
