/**
 * geth's default tracer, the struct logger: one entry per instruction with its program counter,
 * name, the gas left before it and its cost, the call depth (1 for the transaction's own frame;
 * a precompile's frame is no level of its own, so nativeAssetCall's callee is one below its caller),
 * and, by option, the stack, memory, return data and the storage of the running contract as far
 * as SLOAD and SSTORE have shown it. Entries are counted and sized as they are made, and a trace
 * past the limits is refused (TraceLimitError) by stopping the execution, never built.
 *
 * Facts followed (geth's documentation and answers): `gas` of the trace is the gas the
 * transaction used; `gasCost` of a CALL-family instruction includes the gas it hands to the
 * callee; memory is shown before the instruction expands it, as 32-byte words of hex without
 * 0x; stack words are 0x quantities; storage keys and values are 64 hex digits without 0x and
 * appear only on SLOAD and SSTORE; memory and return data are left out where empty, and
 * `refund` where zero; an instruction that failed before it ran (out of gas, stack underflow)
 * carries `error`. (anvil writes memory and storage words with 0x and always writes `refund`;
 * geth's legacy JSON, which this follows, does not.)
 */
import type { EVMResult, InterpreterStep, Message } from "@ethereumjs/evm";
import { bytesToHex, bytesToUnprefixedHex } from "@ethereumjs/util";
import { isPrecompileAddress } from "../precompiles";
import { TraceLimitError } from "./errors";
import { gethError } from "./geth-words";
import { word64 } from "./hex";
import type { TracedOutcome, TxTracer } from "./tracer";

export interface StructLoggerOptions {
  disableStack: boolean;
  disableStorage: boolean;
  enableMemory: boolean;
  enableReturnData: boolean;
}

export interface StructLoggerLimits {
  /** At most this many entries. */
  maxEntries: number;
  /** At most about this many bytes of JSON. */
  maxBytes: number;
}

export interface StructLog {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  stack?: string[];
  memory?: string[];
  storage?: Record<string, string>;
  returnData?: string;
  refund?: number;
  error?: string;
}

export interface StructLoggerResult {
  gas: number;
  failed: boolean;
  returnValue: string;
  structLogs: StructLog[];
}

const CALL_FAMILY = new Set([0xf1, 0xf2, 0xf4, 0xfa]);
const SLOAD = 0x54;
const SSTORE = 0x55;
/** The failures geth notices before an instruction runs, and so reports on its entry. */
const FAILURES_BEFORE_RUNNING = new Set(["out of gas", "stack underflow", "stack overflow"]);
/** JSON bytes of an entry without stack, memory or storage (a generous estimate). */
const ENTRY_BYTES = 96;

export class StructLogger implements TxTracer {
  private readonly logs: StructLog[] = [];
  private bytes = 0;
  /** Storage seen so far, per contract (lowercase 40-hex address): 64-hex key to 64-hex value. */
  private readonly storage = new Map<string, Map<string, string>>();
  /** An SLOAD's entry, whose value is known at the next instruction (the top of its stack). */
  private pendingLoad: { log: StructLog; contract: Map<string, string>; key: string; depth: number } | undefined;
  /** Per open frame (innermost last): the index of its last entry, and the return data of its last call. */
  private readonly frames: { lastEntry: number; returnData: Uint8Array; runsCode: boolean }[] = [];
  /**
   * Open frames that run code: an entry's depth. A precompile's frame does not count, as in the
   * reference node, where a precompile runs without an interpreter of its own: the call
   * nativeAssetCall makes runs one level below its caller, not two.
   */
  private codeDepth = 0;

  constructor(
    private readonly options: StructLoggerOptions,
    private readonly limits: StructLoggerLimits,
  ) {}

  enter(message: Message): void {
    const runsCode = message.to === undefined || !isPrecompileAddress(message.codeAddress.bytes);
    if (runsCode) this.codeDepth++;
    this.frames.push({ lastEntry: -1, returnData: new Uint8Array(0), runsCode });
  }

  exit(result: EVMResult): void {
    const frame = this.frames.pop();
    if (frame?.runsCode === true) this.codeDepth--;
    this.settleLoad(undefined);
    const error = result.execResult.exceptionError?.error;
    if (frame !== undefined && error !== undefined && FAILURES_BEFORE_RUNNING.has(error) && frame.lastEntry >= 0) {
      const log = this.logs[frame.lastEntry]!;
      // Out of gas with the instruction paid for: the failure came after it (a creation's code deposit).
      if (error !== "out of gas" || log.gas < log.gasCost) log.error ??= gethError(error);
    }
    const parent = this.frames[this.frames.length - 1];
    if (parent !== undefined) parent.returnData = result.execResult.returnValue;
  }

  step(step: InterpreterStep): void {
    this.settleLoad(step);
    if (this.logs.length >= this.limits.maxEntries) {
      throw new TraceLimitError(`the struct log of this trace has more than ${this.limits.maxEntries} entries; trace with a tracer (callTracer) or without it`, this.limits.maxEntries);
    }
    const { opcode } = step;
    const cost = opcode.dynamicFee ?? BigInt(opcode.fee);
    const log: StructLog = {
      pc: step.pc,
      op: opcode.name,
      gas: Number(step.gasLeft),
      gasCost: Number(CALL_FAMILY.has(opcode.code) ? cost + forwardedGas(step, cost) : cost),
      depth: this.codeDepth,
    };
    let bytes = ENTRY_BYTES + opcode.name.length;
    if (!this.options.disableStack) {
      log.stack = step.stack.map((word) => `0x${word.toString(16)}`);
      for (const word of log.stack) bytes += word.length + 3;
    }
    // Memory and return data are left out where empty, as geth leaves them.
    if (this.options.enableMemory && step.memory.length >= 32) {
      const memory: string[] = [];
      for (let i = 0; i + 32 <= step.memory.length; i += 32) memory.push(bytesToUnprefixedHex(step.memory.subarray(i, i + 32)));
      log.memory = memory;
      bytes += memory.length * 67;
    }
    const returnData = this.frames[this.frames.length - 1]?.returnData;
    if (this.options.enableReturnData && returnData !== undefined && returnData.length > 0) {
      log.returnData = bytesToHex(returnData);
      bytes += log.returnData.length + 16;
    }
    if (step.gasRefund > 0n) log.refund = Number(step.gasRefund);
    if (!this.options.disableStorage && (opcode.code === SLOAD || opcode.code === SSTORE) && step.stack.length >= (opcode.code === SLOAD ? 1 : 2)) {
      const contract = this.contractStorage(bytesToUnprefixedHex(step.address.bytes));
      const key = word64(step.stack[step.stack.length - 1]!);
      if (opcode.code === SSTORE) {
        contract.set(key, word64(step.stack[step.stack.length - 2]!));
        log.storage = Object.fromEntries(contract);
      } else {
        this.pendingLoad = { log, contract, key, depth: step.depth };
      }
      bytes += (contract.size + 1) * 134;
    }
    const frame = this.frames[this.frames.length - 1];
    if (frame !== undefined) frame.lastEntry = this.logs.length;
    this.logs.push(log);
    this.bytes += bytes;
    if (this.bytes > this.limits.maxBytes) {
      throw new TraceLimitError(
        `the struct log of this trace is larger than ${this.limits.maxBytes} bytes; trace with fewer options (disableStack, disableStorage, no enableMemory) or with a tracer`,
        this.limits.maxBytes,
      );
    }
  }

  /** The storage entry of a pending SLOAD, once the value it loaded is on the stack (or never, if it failed). */
  private settleLoad(next: InterpreterStep | undefined): void {
    const load = this.pendingLoad;
    if (load === undefined) return;
    this.pendingLoad = undefined;
    if (next === undefined || next.depth !== load.depth || next.stack.length === 0) return;
    load.contract.set(load.key, word64(next.stack[next.stack.length - 1]!));
    load.log.storage = Object.fromEntries(load.contract);
  }

  private contractStorage(address: string): Map<string, string> {
    let contract = this.storage.get(address);
    if (contract === undefined) {
      contract = new Map();
      this.storage.set(address, contract);
    }
    return contract;
  }

  finish(outcome: TracedOutcome): StructLoggerResult {
    return {
      gas: Number(outcome.gasUsed),
      failed: outcome.error !== undefined,
      returnValue: bytesToHex(outcome.returnValue),
      structLogs: this.logs,
    };
  }
}

/** The gas a CALL-family instruction hands on: what it asks for, at most all but a 64th of what is left after its own cost. */
function forwardedGas(step: InterpreterStep, cost: bigint): bigint {
  const available = step.gasLeft - cost;
  if (available <= 0n || step.stack.length === 0) return 0n;
  const allButOne64th = available - available / 64n;
  const requested = step.stack[step.stack.length - 1]!;
  return requested < allButOne64th ? requested : allButOne64th;
}

