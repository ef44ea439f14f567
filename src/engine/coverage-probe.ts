/**
 * Coverage hits of contracts compiled for coverage (Hardhat 3's `--coverage`): the compiler's
 * instrumentation makes every statement STATICCALL a fixed address with a 32-byte tag as call
 * data. The EVM hands such calls to a probe instead of running them; the probe keeps each tag
 * once until it is taken. A chain has a probe only while coverage is collected: without one,
 * the EVM checks nothing.
 *
 * As Hardhat's own network (EDR) does, the call is answered at once, costing the frame nothing,
 * and with the return data of the call before it, so that the instrumentation leaves the
 * RETURNDATA buffer of the code it is in as it was.
 */
import { EVMError, type EVMResult, type Message } from "@ethereumjs/evm";
import { bytesToUnprefixedHex, hexToBytes } from "@ethereumjs/util";

/** The address the instrumentation calls (EDR's COVERAGE_ADDRESS). */
export const COVERAGE_ADDRESS = "0xc0bEc0BEc0BeC0bEC0beC0bEC0bEC0beC0beC0BE";

const COVERAGE_ADDRESS_BYTES = hexToBytes(COVERAGE_ADDRESS);
const EMPTY = new Uint8Array(0);

/** Whether a call's code address is the coverage address. */
export function isCoverageAddress(bytes: Uint8Array): boolean {
  for (let i = 0; i < 20; i++) if (bytes[i] !== COVERAGE_ADDRESS_BYTES[i]) return false;
  return true;
}

export class CoverageProbe {
  private hits = new Set<string>();
  /** What the last call (or failed create) returned: the return data a hit hands back. */
  private lastOutput: Uint8Array = EMPTY;

  /** A top-level execution starts: no return data is left from the one before. */
  started(): void {
    this.lastOutput = EMPTY;
  }

  /**
   * An instrumentation call: its tag is kept, and it returns at once without spending gas. The
   * caller's gas refund goes back unchanged, as from any call (the caller takes it as its own).
   */
  hit(message: Message): EVMResult {
    this.hits.add(bytesToUnprefixedHex(message.data));
    return { execResult: { executionGasUsed: 0n, returnValue: this.lastOutput, gasRefund: message.gasRefund } };
  }

  /** A call other than a hit ended: its return data (none after an exceptional halt) is the next hit's. */
  callEnded(result: EVMResult): EVMResult {
    const error = result.execResult.exceptionError;
    this.lastOutput = error === undefined || error.error === EVMError.errorMessages.REVERT ? result.execResult.returnValue : EMPTY;
    return result;
  }

  /** A create ended: only a reverted one leaves return data (a deployed contract's code is none). */
  createEnded(result: EVMResult): EVMResult {
    const error = result.execResult.exceptionError;
    this.lastOutput = error !== undefined && error.error === EVMError.errorMessages.REVERT ? result.execResult.returnValue : EMPTY;
    return result;
  }

  /** The tags hit since the last take (hex, without 0x, as Hardhat's coverage data names them), each once. */
  take(): string[] {
    if (this.hits.size === 0) return [];
    const tags = [...this.hits];
    this.hits = new Set();
    return tags;
  }
}
