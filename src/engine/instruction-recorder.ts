/**
 * The instructions an EVM runs while a failed execution is replayed for its stack trace
 * (NativeEVM.replayForInstructions): each instruction's call depth and program counter.
 *
 * Why not the EVM's `step` events: with a step listener, ethereumjs builds an event for every
 * instruction, with a copy of the stack and of the whole memory, and awaits its emission. The
 * replay reads two numbers of it. In the benchmark's ERC-20 suite under Hardhat 3, whose fifteen
 * reverted transactions are replayed, that was about a tenth of the engine's CPU.
 *
 * How: while a replay records, the interpreter's step method is wrapped (interpreter-class.ts),
 * and the wrapper notes the instruction for the EVM being replayed before running it as before;
 * when no replay records, the library's own method is back, so an execution that is not replayed
 * pays nothing. Other chains of the process may run between a replay's awaits: their steps go
 * through the wrapper, and are not noted.
 */
import { interpreterPrototype } from "./interpreter-class";

/** What the wrapper reads of an interpreter. */
interface SteppingInterpreter {
  readonly _evm: object;
  readonly _env: { readonly depth: number };
  readonly _runState: { readonly programCounter: number };
  runStep(opcode?: unknown): Promise<void>;
}

type RunStep = SteppingInterpreter["runStep"];
export type InstructionSink = (depth: number, pc: number) => void;

/** The sinks of the EVMs being replayed now. */
const sinks = new Map<object, InstructionSink>();
let libraryRunStep: RunStep | undefined;

function recordingRunStep(this: SteppingInterpreter, opcode?: unknown): Promise<void> {
  sinks.get(this._evm)?.(this._env.depth, this._runState.programCounter);
  return libraryRunStep!.call(this, opcode);
}

/**
 * Sends each instruction `evm` runs to `sink` until the returned function is called. Undefined
 * when this ethereumjs has no step method where expected: the caller records another way.
 */
export function recordInstructions(evm: object, sink: InstructionSink): (() => void) | undefined {
  const prototype = interpreterPrototype<SteppingInterpreter>();
  if (prototype === undefined || typeof prototype.runStep !== "function") return undefined;
  if (sinks.size === 0) {
    libraryRunStep = prototype.runStep;
    prototype.runStep = recordingRunStep;
  }
  sinks.set(evm, sink);
  return () => {
    if (sinks.get(evm) !== sink) return;
    sinks.delete(evm);
    if (sinks.size === 0 && libraryRunStep !== undefined) {
      prototype.runStep = libraryRunStep;
      libraryRunStep = undefined;
    }
  };
}

/** Whether the interpreter runs its own step method now (no replay records). */
export function instructionRecorderIdle(): boolean {
  return sinks.size === 0 && interpreterPrototype<SteppingInterpreter>()?.runStep !== recordingRunStep;
}
