/**
 * geth's callTracer: the tree of call frames, each with its type, sender, recipient, value, gas,
 * gas used, input and output, its error and revert reason when it failed, and its sub-calls.
 * Options: `onlyTopCall` (the transaction's own frame only) and `withLog` (each frame's logs,
 * with `position`, the number of sub-calls made before the log, and `index`, its place among
 * the transaction's logs; a failed frame's logs, and those of its sub-calls, are dropped, as
 * they never happened). The transaction's own frame has the transaction's gas limit as `gas`
 * and all the gas it used, intrinsic gas included, as `gasUsed` (geth's choice; anvil gives
 * the gas left after the intrinsic gas).
 *
 * A call to a precompile is a frame of its own. nativeAssetCall's call to its target is a frame
 * inside the precompile's, from the original caller (the precompile forwards it as msg.sender),
 * with value 0: the asset moves with it, but the frame's value is the native coin's.
 */
import type { EVMResult, InterpreterStep, Message } from "@ethereumjs/evm";
import { bytesToHex } from "@ethereumjs/util";
import { gethError, gethRevertReason } from "./geth-words";
import { hexQuantity, lowerAddress, memorySlice, word64 } from "./hex";
import type { TracedOutcome, TracedTransaction, TxTracer } from "./tracer";

export interface CallTracerOptions {
  onlyTopCall: boolean;
  withLog: boolean;
}

export interface CallLog {
  address: string;
  topics: string[];
  data: string;
  position: string;
  index: string;
}

export interface CallFrame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas: string;
  gasUsed: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  logs?: CallLog[];
  calls?: CallFrame[];
}

/** Instructions that open a frame, by opcode: the next frame's type. */
const FRAME_OPS: ReadonlyMap<number, string> = new Map([
  [0xf0, "CREATE"],
  [0xf1, "CALL"],
  [0xf2, "CALLCODE"],
  [0xf4, "DELEGATECALL"],
  [0xf5, "CREATE2"],
  [0xfa, "STATICCALL"],
]);
const LOG0 = 0xa0;
const LOG4 = 0xa4;
const RETURN = 0xf3;

/** The instruction a frame is at, and whether its gas was there to pay for it. */
interface LastOp {
  name: string;
  code: number;
  paid: boolean;
}

export class CallTracer implements TxTracer {
  private readonly stack: CallFrame[] = [];
  private root: CallFrame | undefined;
  private tx: TracedTransaction | undefined;
  /** The type of the frame the last instruction opens, if it opens one (nativeAssetCall's inner call follows no instruction: CALL). */
  private nextType: string | undefined;
  /** The instruction each open frame is at (an invalid opcode's failure names it). */
  private readonly lastOps: LastOp[] = [];
  /** Logs emitted so far in the transaction. */
  private logCount = 0;

  constructor(private readonly options: CallTracerOptions) {}

  async start(tx: TracedTransaction): Promise<void> {
    this.tx = tx;
  }

  step(step: InterpreterStep): void {
    const { code, name, fee, dynamicFee } = step.opcode;
    this.lastOps[this.lastOps.length - 1] = { code, name, paid: step.gasLeft >= (dynamicFee ?? BigInt(fee)) };
    // A frame opens right after its instruction, or not at all (a call the EVM refuses at once).
    this.nextType = FRAME_OPS.get(code);
    if (this.options.withLog && code >= LOG0 && code <= LOG4) this.noteLog(step, code - LOG0);
  }

  enter(message: Message): void {
    const depth = this.stack.length;
    const type = depth === 0 ? (message.to === undefined ? "CREATE" : "CALL") : (this.nextType ?? (message.to === undefined ? "CREATE" : "CALL"));
    this.nextType = undefined;
    this.lastOps.push({ code: 0, name: "STOP", paid: true });
    const delegated = type === "DELEGATECALL" || type === "CALLCODE";
    const frame: CallFrame = {
      type,
      from: lowerAddress(delegated ? (message.to ?? message.caller) : message.caller),
      gas: hexQuantity(depth === 0 ? (this.tx?.gasLimit ?? message.gasLimit) : message.gasLimit),
      gasUsed: "0x0",
      to: message.to === undefined ? undefined : lowerAddress(delegated ? message.codeAddress : message.to),
      input: bytesToHex(message.data),
      value: type === "STATICCALL" ? undefined : hexQuantity(message.value),
    };
    if (depth === 0) this.root = frame;
    else if (!this.options.onlyTopCall) (this.parentOf(depth).calls ??= []).push(frame);
    this.stack.push(frame);
  }

  exit(result: EVMResult): void {
    const frame = this.stack.pop();
    const lastOp = this.lastOps.pop();
    if (frame === undefined) return;
    const exec = result.execResult;
    if (result.createdAddress !== undefined && (frame.type === "CREATE" || frame.type === "CREATE2")) frame.to = lowerAddress(result.createdAddress);
    frame.gasUsed = hexQuantity(exec.executionGasUsed);
    const error = exec.exceptionError?.error;
    if (error === undefined) {
      if (exec.returnValue.length > 0) frame.output = bytesToHex(exec.returnValue);
    } else {
      // A creation out of gas after its RETURN was paid for could not pay for its code.
      const codeDeposit = error === "out of gas" && frame.type.startsWith("CREATE") && lastOp?.code === RETURN && lastOp.paid;
      frame.error = codeDeposit ? gethError("code store out of gas") : gethError(error, lastOp);
      // A failed creation created nothing: geth names no recipient.
      if (frame.type.startsWith("CREATE")) delete frame.to;
      if (error === "revert" && exec.returnValue.length > 0) {
        frame.output = bytesToHex(exec.returnValue);
        const reason = gethRevertReason(exec.returnValue);
        if (reason !== undefined) frame.revertReason = reason;
      }
      dropLogs(frame);
    }
  }

  finish(outcome: TracedOutcome): CallFrame | Record<string, never> {
    const root = this.root;
    if (root === undefined) return {};
    // The transaction's own frame: the gas it was given and all it used, intrinsic gas included.
    root.gasUsed = hexQuantity(outcome.gasUsed);
    return orderFields(root);
  }

  private parentOf(depth: number): CallFrame {
    return this.stack[depth - 1]!;
  }

  private noteLog(step: InterpreterStep, topicCount: number): void {
    const frame = this.stack[this.stack.length - 1];
    if (frame === undefined || (this.options.onlyTopCall && this.stack.length > 1)) return;
    const stack = step.stack;
    if (stack.length < 2 + topicCount) return;
    const offset = stack[stack.length - 1]!;
    const size = stack[stack.length - 2]!;
    const topics: string[] = [];
    for (let i = 0; i < topicCount; i++) topics.push(`0x${word64(stack[stack.length - 3 - i]!)}`);
    (frame.logs ??= []).push({
      address: lowerAddress(step.address),
      topics,
      data: bytesToHex(memorySlice(step.memory, offset, size)),
      position: hexQuantity(BigInt(frame.calls?.length ?? 0)),
      index: hexQuantity(BigInt(this.logCount++)),
    });
  }
}


/** A failed frame's logs never happened, nor did its sub-calls'. */
function dropLogs(frame: CallFrame): void {
  delete frame.logs;
  for (const call of frame.calls ?? []) dropLogs(call);
}

/** geth's field order, and no empty fields. */
function orderFields(frame: CallFrame): CallFrame {
  const out: Record<string, unknown> = { from: frame.from, gas: frame.gas, gasUsed: frame.gasUsed };
  if (frame.to !== undefined) out.to = frame.to;
  out.input = frame.input;
  if (frame.output !== undefined) out.output = frame.output;
  if (frame.error !== undefined) out.error = frame.error;
  if (frame.revertReason !== undefined) out.revertReason = frame.revertReason;
  if (frame.logs !== undefined && frame.logs.length > 0) out.logs = frame.logs;
  if (frame.calls !== undefined && frame.calls.length > 0) out.calls = frame.calls.map(orderFields);
  if (frame.value !== undefined) out.value = frame.value;
  out.type = frame.type;
  return out as unknown as CallFrame;
}



