/**
 * Gas and fees of the contract chain's atomic transactions (the rules since Apricot Phase 5):
 *
 *   gas   unsigned bytes x 1 + 1000 per signature (import: per signature index of every
 *         imported input; export: per EVM input) + 10 000 intrinsic.
 *   fee   ceil(gas x base fee (wei) / 10^9) nAVAX, burned in the native coin.
 *
 * Also the limits an atomic transaction must fit in to be issued.
 */
import { UINT64_MAX, equalBytes } from "../encoding";
import { AtomicTypeId, EVM_INPUT_SIZE, EVM_OUTPUT_SIZE, type UnsignedAtomicTx, encodeUnsignedAtomicTx } from "./atomic-codec";
import { fail } from "./errors";

/** 1 nAVAX (exchange chain, 9 decimals) = 10^9 wei (contract chain, 18 decimals). */
export const X2C_RATE = 1_000_000_000n;
/** Gas per byte of the unsigned transaction. */
export const TX_BYTES_GAS = 1n;
/** Gas per signature (secp256k1fx). */
export const COST_PER_SIGNATURE = 1000n;
/** Fixed gas of every atomic transaction (Apricot Phase 5). */
export const ATOMIC_TX_INTRINSIC_GAS = 10_000n;
/** Gas an extra EVM output adds (its bytes). */
export const EVM_OUTPUT_GAS = BigInt(EVM_OUTPUT_SIZE) * TX_BYTES_GAS;
/** Gas an extra EVM input adds (its bytes and its signature). */
export const EVM_INPUT_GAS = BigInt(EVM_INPUT_SIZE) * TX_BYTES_GAS + COST_PER_SIGNATURE;
/** Most gas the atomic transactions of one block may use; a single transaction above it is refused. */
export const ATOMIC_GAS_LIMIT = 100_000n;
/** Largest signed atomic transaction the node accepts for issuance. */
export const MAX_ATOMIC_TX_SIZE = 40 * 1024;

/**
 * Gas of an atomic transaction: its unsigned bytes, 1000 per signature, and (with `fixedFee`,
 * the rule since Apricot Phase 5) 10 000 more.
 */
export function atomicTxGasUsed(tx: UnsignedAtomicTx, unsignedBytes: Uint8Array = encodeUnsignedAtomicTx(tx), fixedFee = true): bigint {
  let gas = BigInt(unsignedBytes.length) * TX_BYTES_GAS;
  if (tx.typeId === AtomicTypeId.ImportTx) {
    for (const input of tx.importedInputs) gas += BigInt(input.input.signatureIndices.length) * COST_PER_SIGNATURE;
  } else {
    gas += BigInt(tx.ins.length) * COST_PER_SIGNATURE;
  }
  if (fixedFee) gas += ATOMIC_TX_INTRINSIC_GAS;
  if (gas > UINT64_MAX) fail("fee-overflow", "overflow occurred while calculating the gas");
  return gas;
}

/** The native-coin fee (nAVAX) an atomic transaction using `gas` pays at `baseFee` wei per gas: rounded up. */
export function calculateDynamicFee(gas: bigint, baseFee: bigint): bigint {
  if (baseFee < 0n) throw new RangeError(`base fee must not be negative, got ${baseFee}`);
  const fee = (gas * baseFee + X2C_RATE - 1n) / X2C_RATE;
  if (fee > UINT64_MAX) fail("fee-overflow", "overflow occurred while calculating the fee");
  return fee;
}

/** Amount of `assetId` a transaction consumes but does not produce (what it burns). */
export function burnedAmount(tx: UnsignedAtomicTx, assetId: Uint8Array): bigint {
  let consumed = 0n;
  let produced = 0n;
  if (tx.typeId === AtomicTypeId.ImportTx) {
    for (const input of tx.importedInputs) if (equalBytes(input.assetId, assetId)) consumed += input.input.amount;
    for (const out of tx.outs) if (equalBytes(out.assetId, assetId)) produced += out.amount;
  } else {
    for (const input of tx.ins) if (equalBytes(input.assetId, assetId)) consumed += input.amount;
    for (const out of tx.exportedOutputs) if (equalBytes(out.assetId, assetId)) produced += out.output.amount;
  }
  if (consumed > UINT64_MAX || produced > UINT64_MAX) fail("fee-overflow", "overflow");
  if (produced > consumed) fail("insufficient-funds", "underflow");
  return consumed - produced;
}
