/**
 * Solidity stack traces for a project: the failed request's error, turned into a SolidityError
 * whose message and stack name the project's contracts, functions and lines. The build infos
 * are read when an error's message or stack is first read, and read again after a compilation
 * changed them; a failure with no trace (a rejected transaction) is left as it was.
 */
import type { FailureTrace } from "../../engine/failure-trace";
import { buildInfoVersion } from "./build-infos";
import { type ContractIdentifier, readContractIdentifier } from "./contract-identifier";
import { type CallerStack, SolidityError } from "./solidity-error";
import { solidityStackTrace } from "./stack-trace";

interface TracedFailure {
  code: number;
  message: string;
  data?: unknown;
  trace: FailureTrace;
  transactionHash?: string;
}

function isTracedFailure(error: unknown): error is TracedFailure {
  if (typeof error !== "object" || error === null) return false;
  const { code, message, trace } = error as { code?: unknown; message?: unknown; trace?: unknown };
  return typeof code === "number" && typeof message === "string" && typeof trace === "object" && trace !== null && Array.isArray((trace as FailureTrace).frames);
}

export class ProjectSolidityTraces {
  private loaded: { version: string; contracts: ContractIdentifier } | undefined;

  constructor(private readonly artifactsDir: string) {}

  /** The error to throw for `error`: a SolidityError when it carries a failure trace, else itself. */
  errorFor(error: unknown, stack: CallerStack | undefined): unknown {
    if (!isTracedFailure(error) || error.trace.frames.length === 0) return error;
    const trace = error.trace;
    return new SolidityError(() => solidityStackTrace(trace, this.contracts()), error, stack);
  }

  private contracts(): ContractIdentifier {
    const version = buildInfoVersion(this.artifactsDir);
    if (this.loaded === undefined || this.loaded.version !== version) {
      this.loaded = { version, contracts: readContractIdentifier(this.artifactsDir) };
    }
    return this.loaded.contracts;
  }
}
