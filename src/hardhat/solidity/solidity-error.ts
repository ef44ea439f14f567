/**
 * The error a test sees when a transaction or call fails on the nativekit network, as on
 * Hardhat's own: the reason in Hardhat's words, then one stack line per Solidity frame
 * (`at Lock.withdraw (contracts/Lock.sol:27)`), then the JavaScript frames of the code that
 * sent the request — the user's test, without the frames of the libraries in between or of
 * nativekit. The JSON-RPC code and the revert data stay, so matchers (`revertedWith`,
 * `revertedWithCustomError`) and viem's error decoding read it as before.
 *
 * The message and the stack are made when first read: most failures in a test suite are
 * expected ones that a matcher checks by their data, and naming frames means reading the
 * project's build infos (about 0.1 s for a project with OpenZeppelin's ERC-20).
 */
import type { SolidityFrame, SolidityStackTrace } from "./stack-trace";

export class SolidityError extends Error {
  override readonly name = "Error";
  readonly code: number;
  readonly data: unknown;
  readonly transactionHash: string | undefined;
  private made: { trace: SolidityStackTrace; stack: string } | undefined;

  /**
   * `describe` makes the trace (undefined when the build infos cannot be read: the failure keeps
   * the message it came with); `callerStack` is where the request was sent from.
   */
  constructor(
    private readonly describe: () => SolidityStackTrace | undefined,
    private readonly original: { code: number; message: string; data?: unknown; transactionHash?: string },
    private readonly callerStack: CallerStack | undefined,
  ) {
    super();
    this.code = original.code;
    this.data = original.data;
    this.transactionHash = original.transactionHash;
    // Error's constructor gave this error a `stack` of its own, which would hide the getter.
    delete (this as { stack?: string }).stack;
  }

  /** The Solidity frames, innermost first. */
  get solidityStack(): readonly SolidityFrame[] {
    return this.make().trace.frames;
  }

  override get message(): string {
    return this.make().trace.message;
  }

  override get stack(): string {
    return this.make().stack;
  }

  private make(): { trace: SolidityStackTrace; stack: string } {
    if (this.made === undefined) {
      let trace: SolidityStackTrace | undefined;
      try {
        trace = this.describe();
      } catch {
        // A build info that cannot be read must not hide the failure itself.
      }
      trace ??= { message: this.original.message, frames: [] };
      const lines = [`${this.name}: ${trace.message}`, ...trace.frames.map(frameLine), ...userFrames(this.callerStack?.stack)];
      this.made = { trace, stack: lines.join("\n") };
    }
    return this.made;
  }
}

function frameLine(frame: SolidityFrame): string {
  const where = frame.sourceName === undefined ? "" : frame.line === undefined ? ` (${frame.sourceName})` : ` (${frame.sourceName}:${frame.line})`;
  return `    at ${frame.contract}.${frame.function}${where}`;
}

/** Frames that are not in a dependency, in Node's own code or in nativekit: the user's. */
function userFrames(stack: string | undefined): string[] {
  if (stack === undefined) return [];
  return stack
    .split("\n")
    .filter((line) => line.trimStart().startsWith("at "))
    .filter((line) => !/node_modules[\\/]|node:internal|\(node:|[\\/]nativekit[\\/]dist[\\/]|[\\/]src[\\/](hardhat|engine|rpc)[\\/]/.test(line));
}

/** The methods that run code, and so can fail with a Solidity stack trace. */
export function isExecutingMethod(method: unknown): boolean {
  return method === "eth_sendTransaction" || method === "eth_sendRawTransaction" || method === "eth_call" || method === "eth_estimateGas";
}

/**
 * The stack of a request as it is sent: where the user's frames are read from if it fails. V8
 * formats a captured stack only when it is read (with source maps, as Hardhat 3 runs, that costs
 * about a millisecond), so the holder is kept and read only if the failure's stack is.
 */
export function callerStack(): CallerStack {
  const holder: { stack?: string } = {};
  // Between the user's test and here lie a dozen frames of ethers, Hardhat's hooks and the
  // provider: more than the 10 that V8 keeps by default.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Math.max(limit, 40);
  try {
    Error.captureStackTrace(holder, callerStack);
  } finally {
    Error.stackTraceLimit = limit;
  }
  return holder;
}

/** A captured stack, formatted when `stack` is first read. */
export interface CallerStack {
  readonly stack?: string;
}
