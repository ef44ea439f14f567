/**
 * What an in-process chain observes for Hardhat 3's `--coverage` and `--gas-stats`, and what it
 * hands back after each request. Hardhat turns those flags on by registering handlers of the
 * network hooks `onCoverageData` and `onGasMeasurement` (its own network decides by the same
 * test); a chain is then built with a coverage probe and an execution recorder, and drained
 * after every request, so that what a request ran is reported before its answer. A run without
 * the flags builds its chains as before and loads none of this.
 *
 * The chain may live in the engine thread: what it observed crosses the thread with the answer,
 * so it is plain data (tags as hex, reports with byte arrays).
 *
 * This module is loaded with the network hooks by every Hardhat command: the engine's parts
 * load only when a chain is built.
 */
import type { ExecutionReport } from "../../engine/execution-recorder";
import type { EngineOptions } from "../../engine/options";

/** Which observations a connection's chain makes. */
export interface ObservationRequest {
  coverage: boolean;
  gasStats: boolean;
}

/** What a chain observed since it was last drained. */
export interface Observed {
  /** Coverage tags hit (hex without 0x, as Hardhat's coverage data names them). */
  coverageHits: string[];
  /** The measured executions, for gas statistics. */
  executions: ExecutionReport[];
}

export function observesAnything(request: ObservationRequest | undefined): request is ObservationRequest {
  return request !== undefined && (request.coverage || request.gasStats);
}

/** A chain's engine options with its observers, and how to drain them. */
export interface ObservedChainOptions {
  options: EngineOptions;
  /** What was observed since the last call, or undefined when nothing was. */
  take(): Observed | undefined;
}

export async function observedChainOptions(options: EngineOptions, request: ObservationRequest): Promise<ObservedChainOptions> {
  const [{ CoverageProbe }, { ExecutionRecorder }] = await Promise.all([import("../../engine/coverage-probe"), import("../../engine/execution-recorder")]);
  const coverage = request.coverage ? new CoverageProbe() : undefined;
  const executions = request.gasStats ? new ExecutionRecorder() : undefined;
  return {
    options: {
      ...options,
      // Instrumented contracts outgrow the contract size limit; Hardhat's network lifts it for
      // coverage too, unless the config sets it.
      allowUnlimitedContractSize: options.allowUnlimitedContractSize ?? (coverage !== undefined ? true : undefined),
      coverage,
      executions,
    },
    take() {
      const coverageHits = coverage?.take() ?? [];
      const reports = executions?.take() ?? [];
      return coverageHits.length === 0 && reports.length === 0 ? undefined : { coverageHits, executions: reports };
    },
  };
}
