/**
 * Failure messages for people: the reason of a revert (Error(string), Panic(uint256)), geth's
 * words for an EVM failure, and ethereumjs' messages cut to their first sentence.
 */
import { bytesToHex } from "@ethereumjs/util";
import { AbiCoder } from "ethers";

const ERROR_SELECTOR = "0x08c379a0"; // Error(string)
const PANIC_SELECTOR = "0x4e487b71"; // Panic(uint256)

/** The reason string of `Error(string)` or a description of `Panic(uint256)`, if the data is one. */
export function decodeRevertReason(data: Uint8Array): string | undefined {
  const hex = bytesToHex(data);
  try {
    if (hex.startsWith(ERROR_SELECTOR)) {
      return AbiCoder.defaultAbiCoder().decode(["string"], "0x" + hex.slice(10))[0] as string;
    }
    if (hex.startsWith(PANIC_SELECTOR)) {
      const code = AbiCoder.defaultAbiCoder().decode(["uint256"], "0x" + hex.slice(10))[0] as bigint;
      return `panic code 0x${code.toString(16)}`;
    }
  } catch {
    return undefined;
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
