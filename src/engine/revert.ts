import { bytesToHex } from "@ethereumjs/util";
import { AbiCoder } from "ethers";
import { RpcError, RpcErrorCode } from "../rpc/errors";

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

/**
 * The standard error shape for a failed call, estimate or transaction: geth uses code 3 with
 * the revert bytes in `data`, which ethers decodes into reasons and custom errors.
 */
export function revertError(evmError: string, returnData: Uint8Array, transactionHash?: string): RpcError {
  const message = failureMessage(evmError, returnData);
  if (evmError === "revert" && returnData.length > 0) {
    return new RpcError(RpcErrorCode.ExecutionReverted, message, bytesToHex(returnData));
  }
  const suffix = transactionHash === undefined ? "" : ` (transaction ${transactionHash})`;
  return new RpcError(RpcErrorCode.ServerError, message + suffix, evmError === "revert" ? "0x" : undefined);
}
