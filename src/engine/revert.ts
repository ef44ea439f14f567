/**
 * Failure messages for people: the reason of a revert (Error(string), Panic(uint256)), geth's
 * words for an EVM failure, and ethereumjs' messages cut to their first sentence.
 */
import { bytesToBigInt, bytesToHex } from "@ethereumjs/util";

const ERROR_SELECTOR = "0x08c379a0"; // Error(string)
const PANIC_SELECTOR = "0x4e487b71"; // Panic(uint256)
const WORD = 32;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The ABI word at `offset` of `data` as a safe index, or undefined when it is out of the data or
 * too large to be one. Decoding by hand keeps ethers (about 170 modules) off the engine's start:
 * a revert's reason is decoded on the first failing transaction of nearly every test run.
 */
function wordAt(data: Uint8Array, offset: number): number | undefined {
  if (offset + WORD > data.length) return undefined;
  const value = bytesToBigInt(data.subarray(offset, offset + WORD));
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
}

/**
 * `Error(string)`'s argument: a head word pointing at the string's length word, then its UTF-8
 * bytes padded to whole words, all inside the data (the bounds ethers' strict decoder keeps).
 */
function decodeErrorString(args: Uint8Array): string | undefined {
  const offset = wordAt(args, 0);
  if (offset === undefined) return undefined;
  const length = wordAt(args, offset);
  if (length === undefined) return undefined;
  const start = offset + WORD;
  if (start + Math.ceil(length / WORD) * WORD > args.length) return undefined;
  try {
    return strictUtf8.decode(args.subarray(start, start + length));
  } catch {
    return undefined; // not UTF-8: no reason to show
  }
}

/** The reason string of `Error(string)` or a description of `Panic(uint256)`, if the data is one. */
export function decodeRevertReason(data: Uint8Array): string | undefined {
  const selector = bytesToHex(data.subarray(0, 4));
  const args = data.subarray(4);
  if (data.length >= 4 && selector === ERROR_SELECTOR) return decodeErrorString(args);
  if (data.length >= 4 && selector === PANIC_SELECTOR) {
    if (args.length < WORD) return undefined;
    return `panic code 0x${bytesToBigInt(args.subarray(0, WORD)).toString(16)}`;
  }
  return undefined;
}

/** A person-readable message for an EVM failure, in geth's words where geth has them. */
export function failureMessage(evmError: string, returnData: Uint8Array): string {
  if (evmError !== "revert") return evmError;
  const reason = decodeRevertReason(returnData);
  return reason === undefined ? "execution reverted" : `execution reverted: ${reason}`;
}

/** ethereumjs messages end with a dump of the block or tx; people need the first sentence. */
export function cleanVmMessage(message: string): string {
  // ethereumjs appends "(vm hf=… -> block number=… -> tx type=…)" or "(tx type=…)" to its messages.
  return message.replace(/ \(vm hf=.*$/s, "").replace(/ \(block number=.*$/s, "").replace(/ \(tx type=.*$/s, "");
}
