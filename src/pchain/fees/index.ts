/** The platform chain's transaction fees: the static fee before Etna, the dynamic fee (ACP-103) from it. */
export { type Dimensions, DIMENSION_NAMES, dimensions, addDimensions, toGas, dimensionsToArray, GasOverflowError } from "./dimensions";
export { type GasConfig, type GasState, advanceGasState, consumeGas, gasPrice, priceOf, InsufficientCapacityError } from "./gas";
export {
  txComplexity,
  inputComplexity,
  outputComplexity,
  authComplexity,
  ownerComplexity,
  INTRINSIC_BASE_TX_COMPLEXITY,
  INTRINSIC_IMPORT_TX_COMPLEXITY,
  INTRINSIC_EXPORT_TX_COMPLEXITY,
  INTRINSIC_MULTISIG_ALIAS_TX_COMPLEXITY,
} from "./complexity";
export {
  type PlatformFeeRule,
  type PlatformFeeSchedule,
  type PlatformFeeOptions,
  platformFeeSchedule,
  feeRuleAt,
  LOCAL_DYNAMIC_FEE_CONFIG,
  LOCAL_FEE_WEIGHTS,
  LOCAL_GENESIS_TIME,
  INITIALLY_ACTIVE_TIME,
  UNSCHEDULED_ACTIVATION_TIME,
} from "./schedule";
export { PlatformFeeMarket, type FeeQuote, type FeeStateAt } from "./market";
export { parseFeeOptionsJson } from "./json";
