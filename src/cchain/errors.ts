/**
 * Errors of the contract chain's atomic (cross-chain) transactions: `AtomicTxError`, raised
 * whenever the reference node would refuse a transaction, with the code of the rule it broke.
 */

/** Which rule an atomic transaction broke. */
export type AtomicTxErrorCode =
  | "malformed"
  | "too-large"
  | "gas-limit"
  | "no-import-inputs"
  | "no-export-outputs"
  | "no-evm-outputs"
  | "wrong-network-id"
  | "wrong-chain-id"
  | "invalid-output"
  | "invalid-input"
  | "non-native-asset"
  | "inputs-not-sorted-unique"
  | "outputs-not-sorted-unique"
  | "outputs-not-sorted"
  | "insufficient-funds"
  | "fee-overflow"
  | "wrong-number-of-credentials"
  | "wrong-number-of-signatures"
  | "utxo-not-found"
  | "bad-utxo"
  | "asset-mismatch"
  | "transfer-failed"
  | "signature-mismatch"
  | "invalid-nonce"
  | "insufficient-funds-for-fee"
  | "already-accepted"
  | "shared-memory";

/**
 * An atomic transaction the node would refuse. The message is the reference node's wording
 * (with the detail it carries), `code` tells the rules apart, `txId` names the transaction when
 * it could be decoded.
 */
export class AtomicTxError extends Error {
  override readonly name = "AtomicTxError";
  readonly code: AtomicTxErrorCode;
  txId: string | undefined;

  constructor(code: AtomicTxErrorCode, message: string, txId?: string) {
    super(message);
    this.code = code;
    this.txId = txId;
  }
}

/** Throws the AtomicTxError of a broken rule (the transaction's ID is added by whoever knows it). */
export function fail(code: AtomicTxErrorCode, message: string): never {
  throw new AtomicTxError(code, message);
}
