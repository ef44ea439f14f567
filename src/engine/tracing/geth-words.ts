/**
 * The words geth's tracers use: its error strings for the EVM's failures (ethereumjs names them
 * differently) and the revert reasons its ABI decoder gives for Error(string) and Panic(uint256).
 */
import { bytesToBigInt, bytesToHex } from "@ethereumjs/util";
import { decodeRevertReason } from "../revert";

const ERROR_SELECTOR = "0x08c379a0";
const PANIC_SELECTOR = "0x4e487b71";

/** ethereumjs' failure codes as geth words them. */
const GETH_ERRORS: Readonly<Record<string, string>> = {
  revert: "execution reverted",
  "out of gas": "out of gas",
  "invalid JUMP": "invalid jump destination",
  "stack underflow": "stack underflow",
  "stack overflow": "stack limit reached 1024",
  "static state change": "write protection",
  "insufficient balance": "insufficient balance for transfer",
  "code store out of gas": "contract creation code storage out of gas",
  "code size to deposit exceeds maximum code size": "max code size exceeded",
  "invalid bytecode deployed": "invalid code: must not begin with 0xef",
  "create collision": "contract address collision",
  "initcode exceeds max initcode size": "max initcode size exceeded",
};

/**
 * geth's message for a frame's failure; `opcode` is the instruction the frame stopped at (an
 * invalid opcode's message names it).
 */
export function gethError(evmError: string, opcode?: { name: string; code: number }): string {
  if (evmError === "invalid opcode") {
    if (opcode === undefined) return "invalid opcode";
    return opcode.code === 0xfe ? "invalid opcode: INVALID" : `invalid opcode: opcode 0x${opcode.code.toString(16)} not defined`;
  }
  return GETH_ERRORS[evmError] ?? evmError;
}

/** Solidity's panic codes, as geth's ABI decoder describes them. */
const PANIC_REASONS: Readonly<Record<string, string>> = {
  "0": "generic panic",
  "1": "assert(false)",
  "17": "arithmetic underflow or overflow",
  "18": "division or modulo by zero",
  "33": "enum overflow",
  "34": "invalid encoded storage byte array accessed",
  "49": "out-of-bounds array access; popping on an empty array",
  "50": "out-of-bounds access of an array or bytesN",
  "65": "out of memory",
  "81": "uninitialized function",
};

/** The reason geth's callTracer reports for revert data, if the data is Error(string) or Panic(uint256). */
export function gethRevertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = bytesToHex(data.subarray(0, 4));
  if (selector === ERROR_SELECTOR) return decodeRevertReason(data);
  if (selector === PANIC_SELECTOR && data.length >= 36) {
    const code = bytesToBigInt(data.subarray(4, 36));
    return PANIC_REASONS[code.toString()] ?? `unknown panic code: 0x${code.toString(16)}`;
  }
  return undefined;
}
