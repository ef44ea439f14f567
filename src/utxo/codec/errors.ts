/**
 * Errors of the exchange-chain codec.
 *
 * - {@link CodecError}: bytes that cannot be decoded, or a value that cannot be encoded.
 *   Messages name the structure (a path such as `BaseTx.inputs[0].input.amount`) and, when
 *   decoding, the byte offset, e.g.
 *   `unexpected end of input at offset 12 reading uint64 (BaseTx.inputs[0].input.amount): need 8 bytes, 4 remain`.
 * - {@link TxValidationError}: a well-formed transaction that breaks one of the syntactic
 *   rules the reference node checks before semantic verification. `code` tells the rules
 *   apart; `nodeMessage` is the error text the reference node reports for the same problem.
 */
export class CodecError extends Error {
  override readonly name = "CodecError";
  /** Byte offset in the input where decoding failed (undefined for encoding errors). */
  readonly offset: number | undefined;
  /** Path of the field being read or written, e.g. `ExportTx.exportedOutputs[1].output.locktime`. */
  readonly path: string;

  constructor(message: string, options: { path: string; offset?: number; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.path = options.path;
    this.offset = options.offset;
  }
}

/** Every distinct syntactic rule a transaction can break (see validate.ts). */
export type TxValidationCode =
  // transaction envelope
  | "wrong-network-id"
  | "wrong-blockchain-id"
  | "memo-too-large"
  | "wrong-number-of-credentials"
  // assets and outputs
  | "empty-asset-id"
  | "output-no-value"
  | "output-unspendable"
  | "output-unoptimized"
  | "addresses-not-sorted-unique"
  | "outputs-not-sorted"
  | "payload-too-large"
  // inputs
  | "input-no-value"
  | "signature-indices-not-sorted-unique"
  | "inputs-not-sorted-unique"
  | "no-import-inputs"
  | "no-export-outputs"
  // value flow (only checked when a fee configuration is given)
  | "amount-overflow"
  | "insufficient-funds"
  // CreateAssetTx
  | "name-too-short"
  | "name-too-long"
  | "symbol-too-short"
  | "symbol-too-long"
  | "no-initial-states"
  | "denomination-too-large"
  | "name-unexpected-whitespace"
  | "name-illegal-character"
  | "symbol-illegal-character"
  | "unknown-fx"
  | "initial-state-outputs-not-sorted"
  | "initial-states-not-sorted-unique"
  // OperationTx
  | "no-operations"
  | "utxo-ids-not-sorted-unique"
  | "double-spend"
  | "operations-not-sorted-unique";

export class TxValidationError extends Error {
  override readonly name = "TxValidationError";
  /** Which rule was broken. */
  readonly code: TxValidationCode;
  /** Path of the offending field, e.g. `BaseTx.outputs[2].output.addresses`. */
  readonly path: string;
  /** The message the reference node gives for this violation (e.g. `memo exceeds maximum length: 300 > 256`). */
  readonly nodeMessage: string;

  constructor(code: TxValidationCode, path: string, message: string, nodeMessage: string) {
    super(`${path}: ${message}`);
    this.code = code;
    this.path = path;
    this.nodeMessage = nodeMessage;
  }
}

/**
 * A signing or signature-recovery problem: wrong number of key lists, a bad private key, or
 * a signature the reference node would refuse (`nodeMessage` carries its error text).
 */
export class SignatureError extends Error {
  override readonly name = "SignatureError";
  /** The message the reference node gives for this problem, when it has one. */
  readonly nodeMessage: string | undefined;

  constructor(message: string, nodeMessage?: string) {
    super(message);
    this.nodeMessage = nodeMessage;
  }
}
