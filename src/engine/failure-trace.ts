/**
 * The path of a failed execution through its call frames: which code failed where, from the
 * transaction's own frame down to the frame the failure started in. Tools above the engine turn
 * it into a Solidity stack trace (the Hardhat plugin, with the project's build infos).
 *
 * Recording costs nothing on success: the EVM notes a frame only when it fails, and the path is
 * built only when the transaction's own frame failed. Frames that failed and were caught (a
 * try/catch, a low-level call whose result is checked) are left out of the path: a parent's
 * failure continues a child's only when it hands back the child's return data (Solidity's
 * bubbling of a revert).
 */
import type { EVMResult, ExecResult, Message } from "@ethereumjs/evm";
import { equalsBytes } from "@ethereumjs/util";

/** How many of a frame's top stack words are kept: enough to find an internal call's return address. */
const STACK_WORDS_KEPT = 64;

/** One frame of a failed execution. */
export interface FailedFrame {
  /** 0 for the transaction's own frame. */
  readonly depth: number;
  /** A contract call, a contract creation (its code is the init code), or a precompile of the chain. */
  readonly kind: "call" | "create" | "precompile";
  /** The account whose code ran (the new contract's address for a creation). */
  readonly address: Uint8Array;
  /** The code that ran. Empty for a precompile. */
  readonly code: Uint8Array;
  readonly callData: Uint8Array;
  /** The program counter of the instruction the frame failed at (a REVERT's own position). */
  readonly pc: number;
  /** The EVM's error: "revert", "out of gas", "invalid opcode", ... */
  readonly error: string;
  readonly returnData: Uint8Array;
  /** The top of the stack when the frame failed, topmost last (return addresses of internal calls). */
  readonly stackTop: readonly bigint[];
  /**
   * The program counters of the last instructions the frame ran, the failing one last, when the
   * failure was replayed to record them (see ExecutedInstructions).
   */
  readonly executed?: readonly number[];
}

/** The failure path, outermost frame first. */
export interface FailureTrace {
  readonly frames: readonly FailedFrame[];
}

/** The failed frames of one transaction or call, as they end (innermost first). */
export class FailedFrameRecorder {
  private frames: FailedFrame[] = [];

  /** A new transaction or call begins: the last one's frames are dropped. */
  reset(): void {
    if (this.frames.length > 0) this.frames = [];
  }

  /** A frame that ran code ended (noted only if it failed). */
  codeFrameEnded(message: Message, result: ExecResult): void {
    const error = result.exceptionError;
    if (error === undefined) return;
    const runState = result.runState;
    const code = message.code instanceof Uint8Array ? message.code : new Uint8Array(0);
    const counter = runState?.programCounter ?? 0;
    // A REVERT has moved the counter past itself before it stops the frame; gas and opcode
    // failures stop it before the counter moves.
    const pc = error.error === "revert" && counter > 0 ? counter - 1 : counter;
    const stack = runState?.stack.getStack() ?? [];
    this.frames.push({
      depth: message.depth,
      kind: message.isCreate === true ? "create" : "call",
      address: (message.to ?? message.codeAddress).bytes,
      code,
      callData: message.data,
      pc,
      error: error.error,
      returnData: result.returnValue,
      stackTop: stack.slice(-STACK_WORDS_KEPT),
    });
  }

  /** A call to one of the chain's precompiles ended (noted only if it failed). */
  precompileEnded(message: Message, result: EVMResult): void {
    const error = result.execResult.exceptionError;
    if (error === undefined) return;
    this.frames.push({
      depth: message.depth,
      kind: "precompile",
      address: message.codeAddress.bytes,
      code: new Uint8Array(0),
      callData: message.data,
      pc: 0,
      error: error.error,
      returnData: result.execResult.returnValue,
      stackTop: [],
    });
  }

  /** The failure path of the execution that just ended, if its own frame failed. */
  trace(): FailureTrace | undefined {
    const frames = this.frames;
    let index = lastIndexWhere(frames, frames.length, (frame) => frame.depth === 0);
    if (index < 0) return undefined;
    const path: FailedFrame[] = [frames[index]!];
    for (;;) {
      const parent = path[path.length - 1]!;
      const childIndex = failedChildOf(frames, index);
      if (childIndex < 0) break;
      const child = frames[childIndex]!;
      if (!continues(parent, child)) break;
      path.push(child);
      index = childIndex;
    }
    return { frames: path };
  }
}

/** The last failed frame called directly by the frame at `index`, or -1. */
function failedChildOf(frames: readonly FailedFrame[], index: number): number {
  const depth = frames[index]!.depth;
  for (let i = index - 1; i >= 0; i--) {
    const frame = frames[i]!;
    // Frames end before their parent: one at the parent's depth or above ended before it began.
    if (frame.depth <= depth) return -1;
    if (frame.depth === depth + 1) return i;
  }
  return -1;
}

/** Whether the parent failed because the child did: it handed back the child's return data. */
function continues(parent: FailedFrame, child: FailedFrame): boolean {
  // A precompile's failure is its inner call's: nativeAssetCall reverts with what the call returned.
  if (parent.kind === "precompile") return true;
  if (parent.error !== "revert") return false;
  return equalsBytes(parent.returnData, child.returnData);
}

function lastIndexWhere(frames: readonly FailedFrame[], end: number, test: (frame: FailedFrame) => boolean): number {
  for (let i = end - 1; i >= 0; i--) if (test(frames[i]!)) return i;
  return -1;
}

/** How many of a frame's last instructions a replay keeps. */
const EXECUTED_KEPT = 256;

/**
 * The instructions each frame ran, recorded from the EVM's step events while a failed execution
 * is replayed: the source maps of shared and compiler-made code say little about which line
 * failed, the path that reached it does. Only the last frame at each depth is kept: a frame of
 * the failure path is the last to run at its depth.
 */
export class ExecutedInstructions {
  private readonly byDepth: number[][] = [];
  private lastDepth = -1;

  step(depth: number, pc: number): void {
    let frame = this.byDepth[depth];
    // A deeper step than the last one starts a new frame at that depth.
    if (frame === undefined || depth > this.lastDepth) {
      frame = [];
      this.byDepth[depth] = frame;
    }
    this.lastDepth = depth;
    frame.push(pc);
    if (frame.length > EXECUTED_KEPT * 2) frame.splice(0, frame.length - EXECUTED_KEPT);
  }

  /** The trace with each frame's instructions, where the replay ran the frame to the same failure. */
  attachTo(trace: FailureTrace): FailureTrace {
    const frames = trace.frames.map((frame) => {
      const executed = this.byDepth[frame.depth];
      if (frame.kind === "precompile" || executed === undefined || executed[executed.length - 1] !== frame.pc) return frame;
      return { ...frame, executed: executed.slice(-EXECUTED_KEPT) };
    });
    return { frames };
  }
}

/** Traces of failed top-level executions, by their result (kept as long as the result is). */
const tracesByResult = new WeakMap<ExecResult, FailureTrace>();

export function rememberFailureTrace(result: ExecResult, trace: FailureTrace): void {
  tracesByResult.set(result, trace);
}

/** The failure path of a transaction's or call's result, if it failed in the EVM. */
export function failureTraceOf(result: ExecResult): FailureTrace | undefined {
  return tracesByResult.get(result);
}
