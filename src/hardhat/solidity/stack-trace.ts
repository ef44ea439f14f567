/**
 * A failed execution's Solidity stack trace: for each frame of the failure path, the contract,
 * function and line that was running (from the project's build infos), and a message that
 * says why it failed, in the words Hardhat's own network uses (a reason string, a custom error
 * with its arguments, a panic code with what it means, a call to an account without code).
 * Code the build infos do not have (a fork's contracts) is named by its address and selector.
 */
import type { FailedFrame, FailureTrace } from "../../engine/failure-trace";
import { bytesToHex } from "../../encoding/hex";
import { NATIVE_ASSET_BALANCE_ADDRESS, NATIVE_ASSET_CALL_ADDRESS } from "../../encoding/precompile";
import { ethers } from "../../engine/lazy-ethers";
import { decodeRevertReason } from "../../engine/revert";
import type { AbiError } from "./build-infos";
import type { ContractIdentifier, IdentifiedContract } from "./contract-identifier";
import { type SourceLocation, sourceLocationOf } from "./source-locations";

/** One line of the trace: `at Lock.withdraw (contracts/Lock.sol:27)`. */
export interface SolidityFrame {
  readonly contract: string;
  readonly function: string;
  readonly sourceName?: string;
  readonly line?: number;
}

export interface SolidityStackTrace {
  readonly message: string;
  /** Innermost frame first, as a JavaScript stack reads. */
  readonly frames: readonly SolidityFrame[];
}

/** What each panic code of Solidity means. */
const PANIC_MEANINGS: ReadonlyMap<bigint, string> = new Map([
  [0x01n, "Assertion error"],
  [0x11n, "Arithmetic operation overflowed outside of an unchecked block"],
  [0x12n, "Division or modulo division by zero"],
  [0x21n, "Tried to convert a value into an enum, but the value was too big or negative"],
  [0x22n, "Incorrectly encoded storage byte array"],
  [0x31n, ".pop() was called on an empty array"],
  [0x32n, "Array accessed at an out-of-bounds or negative index"],
  [0x41n, "Too much memory was allocated, or an array was created that is too large"],
  [0x51n, "Called a zero-initialized variable of internal function type"],
]);

const PRECOMPILE_NAMES: ReadonlyMap<string, string> = new Map([
  [NATIVE_ASSET_BALANCE_ADDRESS.toLowerCase(), "NativeAssetBalance"],
  [NATIVE_ASSET_CALL_ADDRESS.toLowerCase(), "NativeAssetCall"],
]);

const PREFIX = "VM Exception while processing transaction: ";
const EXTCODESIZE = 0x3b;
const JUMP = 0x56;
const JUMPI = 0x57;

export function solidityStackTrace(trace: FailureTrace, contracts: ContractIdentifier): SolidityStackTrace {
  const resolved = trace.frames.map((frame) => ({ frame, contract: identify(frame, contracts) }));
  const frames = resolved.map(({ frame, contract }) => solidityFrame(frame, contract)).reverse();
  const innermost = resolved[resolved.length - 1]!;
  const message = failureDescription(innermost.frame, innermost.contract, resolved.map((r) => r.contract));
  return { message, frames };
}

function identify(frame: FailedFrame, contracts: ContractIdentifier): IdentifiedContract | undefined {
  if (frame.kind === "precompile") return undefined;
  return contracts.identify(frame.code, frame.kind === "create" ? "creation" : "runtime");
}

function solidityFrame(frame: FailedFrame, contract: IdentifiedContract | undefined): SolidityFrame {
  if (frame.kind === "precompile") {
    const address = bytesToHex(frame.address);
    return { contract: `<${PRECOMPILE_NAMES.get(address) ?? `PrecompileContract ${address}`} precompile>`, function: "<precompile>" };
  }
  if (contract === undefined) {
    const selector = frame.kind === "create" || frame.callData.length < 4 ? "<unknown>" : `<selector ${bytesToHex(frame.callData.subarray(0, 4))}>`;
    const name = frame.kind === "create" ? "constructor" : selector;
    return { contract: `<UnrecognizedContract ${bytesToHex(frame.address)}>`, function: name };
  }
  const location = locationOf(frame, contract);
  const fallbackFunction = frame.kind === "create" ? "constructor" : functionOfSelector(frame, contract);
  if (location === undefined) return { contract: contract.contractName, function: fallbackFunction, sourceName: contract.sourceName };
  return {
    contract: location.contractName ?? contract.contractName,
    function: location.functionName ?? fallbackFunction,
    sourceName: location.sourceName,
    line: location.line,
  };
}

/** `withdraw` for the frame's selector, or what Hardhat calls a call no function matches. */
function functionOfSelector(frame: FailedFrame, contract: IdentifiedContract): string {
  const signature = contract.functionSignature(frame.callData.subarray(0, 4));
  if (signature !== undefined) return signature.slice(0, signature.indexOf("("));
  return frame.callData.length === 0 ? "<receive>" : "<unrecognized-selector>";
}

/**
 * The line that failed. An instruction in code the compiler made up (a checked addition's
 * panic, ABI decoding) has no line of its own: the internal call that reached it left its
 * return address, in the function that called it, on the stack.
 */
function locationOf(frame: FailedFrame, contract: IdentifiedContract): SourceLocation | undefined {
  if (frame.executed !== undefined) {
    const located = locationOfExecuted(frame.executed, contract);
    if (located !== undefined) return located;
  }
  const direct = userLocation(contract, frame.pc);
  if (direct !== undefined) return direct;
  for (let i = frame.stackTop.length - 1; i >= 0; i--) {
    const word = frame.stackTop[i]!;
    if (word > 0xffffn || !isReturnAddress(contract, Number(word))) continue;
    const returnedTo = userLocation(contract, Number(word));
    if (returnedTo !== undefined) return returnedTo;
  }
  return undefined;
}

/**
 * The line that failed, from the instructions the frame ran (the failing one last): the last
 * one in a function of the sources. Code the compiler shares between functions (a revert's
 * tail) maps to only one of them: when the run of that function's code was entered by a plain
 * jump, it is shared code, and the line is the last one before that jump. A jump into a
 * function ("i") or out of one ("o") is a call or a return, not shared code.
 */
function locationOfExecuted(executed: readonly number[], contract: IdentifiedContract): SourceLocation | undefined {
  let found: SourceLocation | undefined;
  for (let i = executed.length - 1; i >= 0; i--) {
    const pc = executed[i]!;
    const location = userLocation(contract, pc);
    if (found === undefined) {
      found = location;
      continue;
    }
    if (location !== undefined && location.functionName === found.functionName && location.contractName === found.contractName) continue;
    // The instruction before the run of `found`'s function: how that run was entered.
    if (!isPlainJump(contract, pc)) return found;
    found = location;
  }
  return found;
}

function isPlainJump(contract: IdentifiedContract, pc: number): boolean {
  const opcode = contract.opcodeAt(pc);
  if (opcode !== JUMP && opcode !== JUMPI) return false;
  return contract.sourceRangeAt(pc)?.jump === "-";
}

/**
 * Whether `pc` is where an internal call returns to: a JUMPDEST right after the JUMP that
 * entered the function (its source map marks that jump "i"). Other stack words (amounts,
 * memory offsets) can equal a JUMPDEST's position; they are not preceded by such a jump.
 */
function isReturnAddress(contract: IdentifiedContract, pc: number): boolean {
  if (pc < 1 || !contract.isJumpDestination(pc)) return false;
  return contract.opcodeAt(pc - 1) === JUMP && contract.sourceRangeAt(pc - 1)?.jump === "i";
}

/** The location of the instruction at `pc`, when it lies inside a function of a source file. */
function userLocation(contract: IdentifiedContract, pc: number): SourceLocation | undefined {
  const range = contract.sourceRangeAt(pc);
  if (range === undefined) return undefined;
  const location = sourceLocationOf(contract.compiled, range);
  return location?.functionName === undefined ? undefined : location;
}

function failureDescription(frame: FailedFrame, contract: IdentifiedContract | undefined, pathContracts: ReadonlyArray<IdentifiedContract | undefined>): string {
  if (frame.kind === "precompile") {
    const name = PRECOMPILE_NAMES.get(bytesToHex(frame.address)) ?? bytesToHex(frame.address);
    return `Transaction reverted: call to precompile ${name} failed (${frame.error})`;
  }
  switch (frame.error) {
    case "out of gas":
      return "Transaction ran out of gas";
    case "invalid opcode":
      return `${PREFIX}invalid opcode`;
    case "revert":
      return revertDescription(frame, contract, pathContracts);
    default:
      return `Transaction reverted: ${frame.error}`;
  }
}

function revertDescription(frame: FailedFrame, contract: IdentifiedContract | undefined, pathContracts: ReadonlyArray<IdentifiedContract | undefined>): string {
  const data = frame.returnData;
  if (data.length === 0) {
    if (contract !== undefined && followsCodeSizeCheck(frame)) return "Transaction reverted: function call to a non-contract account";
    return "Transaction reverted without a reason string";
  }
  const reason = decodeRevertReason(data);
  if (reason !== undefined && reason.startsWith("panic code ")) {
    const code = BigInt(reason.slice("panic code ".length));
    const meaning = PANIC_MEANINGS.get(code);
    return `${PREFIX}reverted with ${meaning === undefined ? "unknown " : ""}panic code 0x${code.toString(16)}${meaning === undefined ? "" : ` (${meaning})`}`;
  }
  if (reason !== undefined) return `${PREFIX}reverted with reason string '${reason}'`;
  const custom = customError(data, [...pathContracts].reverse());
  if (custom !== undefined) return `${PREFIX}reverted with custom error '${custom}'`;
  return `${PREFIX}reverted with an unrecognized custom error (return data: ${bytesToHex(data)})`;
}

/**
 * Whether the REVERT closes the check Solidity puts before an external call: the callee's code
 * size is read a few instructions before, and the call reverts with nothing if it is zero.
 */
function followsCodeSizeCheck(frame: FailedFrame): boolean {
  const code = frame.code;
  if (frame.pc >= code.length || code[frame.pc] !== 0xfd) return false;
  for (let pc = Math.max(0, frame.pc - 16); pc < frame.pc; pc++) {
    if (code[pc] === EXTCODESIZE && (pc === 0 || !isPushData(code, pc))) return true;
  }
  return false;
}

/** Whether the byte at `pc` is data of a PUSH within the 32 bytes before it. */
function isPushData(code: Uint8Array, pc: number): boolean {
  let at = Math.max(0, pc - 33);
  while (at < pc) {
    const opcode = code[at]!;
    const size = opcode >= 0x60 && opcode <= 0x7f ? opcode - 0x5e : 1;
    if (at + size > pc) return true;
    at += size;
  }
  return false;
}

/** `InsufficientBalance(1, 2)` when a contract of the path (innermost first) declares the error. */
function customError(data: Uint8Array, contracts: ReadonlyArray<IdentifiedContract | undefined>): string | undefined {
  const errors: AbiError[] = [];
  for (const contract of contracts) if (contract !== undefined) errors.push(...contract.compiled.errors);
  if (errors.length === 0) return undefined;
  // ethers only on this path: a failing test with a custom error, never at start.
  const { Interface } = ethers();
  for (const error of errors) {
    try {
      const parsed = new Interface([error as never]).parseError(bytesToHex(data));
      if (parsed === null) continue;
      const args = parsed.args.toArray().map((value: unknown) => (typeof value === "string" ? `"${value}"` : String(value)));
      return `${parsed.name}(${args.join(", ")})`;
    } catch {
      // Data that does not decode as this error's: try the next.
    }
  }
  return undefined;
}
