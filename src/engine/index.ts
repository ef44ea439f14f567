/**
 * The contract-chain simulator: the engine (`Engine`), its EIP-1193 provider, its options and
 * errors, and the interface atomic transactions reach it through.
 */
export { Engine } from "./engine";
export type { BlockSelector, CallOutcome, LogFilter, SnapshotCompanion, TransactionRequest } from "./types";
export { EngineError, ExecutionFailedError, InvalidInputError, SimulatorFaultError, TransactionRejectedError, UnknownBlockError } from "./errors";
export type { AtomicChainHost, AtomicOperation, AtomicStateReader, AtomicStateWriter } from "./atomic-host";
export { NativeStateManager } from "./state-manager";
export type { BlockRecord, ChainView } from "./chain";
export { NativeProvider, createNativeProvider } from "./provider";
export { RpcError, RpcErrorCode } from "../rpc/errors";
export type { Eip1193Provider, RequestArguments } from "../rpc/types";
export * from "./options";
export { DEFAULT_MNEMONIC, DEFAULT_ACCOUNT_BALANCE, DEFAULT_ACCOUNT_COUNT } from "./accounts";
export {
  NATIVE_ASSET_BALANCE_GAS,
  NATIVE_ASSET_CALL_GAS,
  CALL_NEW_ACCOUNT_GAS,
} from "./precompiles";
