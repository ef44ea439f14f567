/**
 * The contract chain's cross-chain side: the atomic transaction codec, its rules (syntactic,
 * semantic), its state transfer, its builders, the service that issues and accepts atomic
 * transactions through the engine's `AtomicChainHost`, and the `cvm.*` / `avax.*` API.
 */
export * from "./atomic-codec";
export { AtomicTxError, type AtomicTxErrorCode } from "./errors";
export { P_CHAIN_ID, type AtomicContext, atomicContextOf } from "./context";
export {
  X2C_RATE,
  TX_BYTES_GAS,
  COST_PER_SIGNATURE,
  ATOMIC_TX_INTRINSIC_GAS,
  EVM_OUTPUT_GAS,
  EVM_INPUT_GAS,
  ATOMIC_GAS_LIMIT,
  MAX_ATOMIC_TX_SIZE,
  atomicTxGasUsed,
  calculateDynamicFee,
  burnedAmount,
} from "./fees";
export { verifyAtomicTxSyntax } from "./syntax";
export { type SemanticEnvironment, verifyAtomicTx } from "./semantics";
export { applyAtomicStateTransfer, atomicRequestsOf } from "./state-transfer";
export { type BuildImportParams, buildImportTx, type BuildExportParams, buildExportTx } from "./builders";
export { type AtomicStatus, type AcceptedAtomicTx, type ContractChainAtomicsOptions, ContractChainAtomics } from "./service";
export * from "./api";
