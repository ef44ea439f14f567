/**
 * How long the EVM may hold the process: an execution gives the event loop a turn every few
 * milliseconds, so a node keeps answering cheap requests (eth_blockNumber, health.health) while
 * a long call runs, and an eth_call or eth_estimateGas stops at its time limit (the reference
 * node's `rpc-evm-timeout`) with geth's "execution aborted (timeout = 5s)".
 *
 * ethereumjs' interpreter runs every instruction behind an `await` of a promise that is already
 * settled, so nothing else runs until a whole call has ended. Two places where the budget can
 * step in are public: a custom opcode (JUMPDEST, which every loop passes through: a jump can
 * only land on one) and the start of each frame (`NativeEVM.runInterpreter`, which bounds the
 * recursion a straight-line contract can make). At either place the budget looks at the clock
 * now and then; when the slice is over it waits for a turn of the event loop; once the time
 * limit has passed, each further JUMPDEST and frame fails at once, so every frame still running
 * ends as an exceptional halt and the EVM unwinds its journal the ordinary way.
 */
import { EVMError, type EVMOpts, type ExecResult, type Message } from "@ethereumjs/evm";

import { ExecutionTimeoutError } from "./errors";

/**
 * Longest stretch of EVM work between two turns of the event loop. A cheap request that arrives
 * meanwhile waits at most about this long; each turn costs a few microseconds, so 10 ms keeps
 * the loop's share under a thousandth.
 */
export const EXECUTION_SLICE_MS = 10;

/** JUMPDESTs between two looks at the clock (a look costs about as much as a few instructions). */
const JUMPDESTS_PER_CLOCK_LOOK = 1024;

/** The EVM error every frame still running fails with once the time limit has passed. */
function aborted(): EVMError {
  return new EVMError("execution aborted" as ConstructorParameters<typeof EVMError>[0]);
}

const EMPTY = new Uint8Array(0);

/** The package does not export its opcode types by name; they are those of `customOpcodes`. */
type CustomOpcode = NonNullable<EVMOpts["customOpcodes"]>[number];
type AddOpcode = Extract<CustomOpcode, { logicFunction: unknown }>;

export class ExecutionBudget {
  private deadline = Number.POSITIVE_INFINITY;
  private limitMs = 0;
  private sliceEnd = Number.POSITIVE_INFINITY;
  private jumpdests = 0;
  private expired = false;
  /** Whether an execution begun with `begin` (a call, or an estimate's search of several runs) is running. */
  private spanning = false;

  /**
   * Starts an execution of one or more messages (a call, or an estimate's whole search): its
   * first slice from now, and with `timeoutMs` (> 0) a time limit. Returns the function that
   * ends it. A mined transaction is not begun: each of its messages starts a slice of its own.
   */
  begin(timeoutMs?: number): () => void {
    const now = performance.now();
    this.sliceEnd = now + EXECUTION_SLICE_MS;
    this.deadline = timeoutMs !== undefined && timeoutMs > 0 ? now + timeoutMs : Number.POSITIVE_INFINITY;
    this.limitMs = timeoutMs ?? 0;
    this.expired = false;
    this.spanning = true;
    return () => {
      this.deadline = Number.POSITIVE_INFINITY;
      this.expired = false;
      this.spanning = false;
    };
  }

  /**
   * A top-level message starts: outside an execution begun with `begin`, its first slice starts
   * now (the event loop had its turn since the last one ended).
   */
  messageStarting(): void {
    if (!this.spanning) this.sliceEnd = performance.now() + EXECUTION_SLICE_MS;
  }

  /** Whether the running execution passed its time limit (its result is then the timeout's). */
  get timedOut(): boolean {
    return this.expired;
  }

  /** The error a caller reports for an execution that passed its time limit. */
  timeoutError(): ExecutionTimeoutError {
    return new ExecutionTimeoutError(this.limitMs);
  }

  /** JUMPDEST's logic: nothing, but for the budget's look at the clock now and then. */
  private readonly onJumpdest = (): Promise<void> | undefined => {
    if (!this.expired && ++this.jumpdests >= JUMPDESTS_PER_CLOCK_LOOK) {
      this.jumpdests = 0;
      const pause = this.lookAtClock();
      if (pause !== undefined) return pause.then(() => this.failIfExpired());
    }
    this.failIfExpired();
    return undefined;
  };

  /**
   * A frame is about to run: an exceptional halt instead once the time limit has passed (the
   * caller returns it in place of the frame's result), after a turn of the event loop when the
   * slice is over.
   */
  async frameStarting(message: Message): Promise<ExecResult | undefined> {
    if (!this.expired) await this.lookAtClock();
    if (!this.expired) return undefined;
    return { returnValue: EMPTY, executionGasUsed: message.gasLimit, exceptionError: aborted() };
  }

  private failIfExpired(): void {
    if (this.expired) throw aborted();
  }

  /** Notes a passed time limit; after the slice, a promise of the event loop's next turn. */
  private lookAtClock(): Promise<void> | undefined {
    const now = performance.now();
    if (now >= this.deadline) {
      this.expired = true;
      return undefined;
    }
    if (now < this.sliceEnd) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        this.sliceEnd = performance.now() + EXECUTION_SLICE_MS;
        resolve();
      }),
    );
  }

  /**
   * JUMPDEST as a custom opcode whose logic is the budget's look at the clock. The opcode keeps
   * its number, name and gas (1), so tracers, coverage and gas figures see the same instruction.
   */
  jumpdestOpcode(): CustomOpcode {
    return { opcode: 0x5b, opcodeName: "JUMPDEST", baseFee: 1, logicFunction: this.onJumpdest as unknown as AddOpcode["logicFunction"] };
  }
}
