/**
 * Errors of the exchange chain.
 *
 * - {@link TxRejectedError}: `issueTx` refused a transaction. `rule` names the rule it broke
 *   (the codec's syntactic codes, or one of the semantic rules below); `nodeMessage` is the
 *   text the reference node gives for the same problem; the message starts with that text and
 *   adds what exactly was wrong, e.g.
 *   `utxo amount and input amount are not equal: 5 != 6 (BaseTx.inputs[0])`.
 * - {@link WalletError}: the wallet cannot build the requested transaction (no keys, not
 *   enough funds, no minting authority), with the reference node's wording.
 */
import type { TxValidationCode } from "../../utxo/codec";

/** Rules checked when a transaction meets the chain's state (the node's semantic verifier). */
export type SemanticRule =
  /** The bytes do not decode (codec error). */
  | "malformed"
  /** Above the mempool's 64 KiB limit. */
  | "too-large"
  /** The transaction is already accepted. */
  | "already-accepted"
  /** An input or operation spends a UTXO that does not exist (spent or never created). */
  | "missing-utxo"
  /** The input's (or operation's) asset ID differs from the spent UTXO's. */
  | "asset-mismatch"
  /** An output, input or operation names an asset that was never created. */
  | "unknown-asset"
  /** The asset ID names a transaction that did not create an asset. */
  | "not-an-asset"
  /** The asset was not created with the feature extension the output/credential/operation uses. */
  | "incompatible-fx"
  /** The spent UTXO's output type does not fit the input or operation. */
  | "wrong-utxo-type"
  /** A transfer input's amount differs from the spent output's. */
  | "amount-mismatch"
  /** The spent output's locktime is in the future. */
  | "timelocked"
  | "too-many-signers"
  | "too-few-signers"
  /** The credential carries a different number of signatures than the input has indices. */
  | "signers-mismatch"
  /** A signature index points past the output's addresses. */
  | "signature-index-out-of-bounds"
  /** A signature cannot be recovered (malformed, high s). */
  | "invalid-signature"
  /** A signature recovers to another address than the one its index names. */
  | "wrong-signature"
  /** The credential's feature extension does not match the operation's. */
  | "wrong-credential-type"
  /** An operation spends more or fewer than one UTXO. */
  | "wrong-number-of-utxos"
  /** A mint operation does not recreate the spent mint output unchanged. */
  | "wrong-mint-output"
  /** An NFT operation's group ID differs from the spent output's. */
  | "wrong-group-id"
  /** An NFT transfer changes the payload. */
  | "wrong-payload"
  /** An input spends an output of a feature extension that has no transfers (nftfx, propertyfx). */
  | "cant-transfer"
  /** An import or export names this chain as its peer. */
  | "same-chain"
  /** An import or export names a chain this node does not know. */
  | "unknown-chain"
  /** An imported UTXO is not in shared memory (never exported here, or already imported). */
  | "missing-atomic-utxo";

export type TxRule = TxValidationCode | SemanticRule;

export class TxRejectedError extends Error {
  override readonly name = "TxRejectedError";
  /** Which rule the transaction broke. */
  readonly rule: TxRule;
  /** The reference node's error text for this rule. */
  readonly nodeMessage: string;

  constructor(rule: TxRule, nodeMessage: string, detail?: string) {
    super(detail === undefined || detail === "" ? nodeMessage : `${nodeMessage}: ${detail}`);
    this.rule = rule;
    this.nodeMessage = nodeMessage;
  }
}

/** Why the wallet could not build a transaction. */
export type WalletProblem =
  | "no-keys"
  | "insufficient-funds"
  | "cannot-mint"
  | "spend-overflow"
  | "unknown-asset";

export class WalletError extends Error {
  override readonly name = "WalletError";
  readonly problem: WalletProblem;

  constructor(problem: WalletProblem, message: string) {
    super(message);
    this.problem = problem;
  }
}

/** The exchange chain's durable store failed: the chain refuses to accept what it cannot keep. */
export class ExchangeStoreError extends Error {
  override readonly name = "ExchangeStoreError";
}
